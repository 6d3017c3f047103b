from django.contrib import admin
from django.urls import include, path

from games.views.calendar import calendar_feed
from games.views.game import home
from harmonies_site.views import csp_report
from push.views import service_worker

# htmx swaps refusals into the page: it gets an escaped fragment, a browser the whole page.
handler403 = "harmonies_site.views.permission_denied"
handler404 = "harmonies_site.views.page_not_found"

urlpatterns = [
    path("", home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("", include("records.urls")),
    path("admin/", admin.site.urls),
    path("csp-report/", csp_report, name="csp_report"),
    path("calendar/<str:token>.ics", calendar_feed, name="calendar_feed"),
    path("sw.js", service_worker, name="service_worker"),  # at the root: its scope is the site
    path("push/", include("push.urls")),
]
