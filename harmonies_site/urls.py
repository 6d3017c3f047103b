from django.contrib import admin
from django.urls import include, path

from games.views import home

urlpatterns = [
    path("", home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("", include("records.urls")),
    path("admin/", admin.site.urls),
]
