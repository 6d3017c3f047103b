from django.contrib import admin
from django.urls import include, path

from games import urls as games_urls
from games.views.calendar import calendar_feed
from games.views.closing import delete_account
from games.views.lists import home
from games.views.rules import rules
from harmonies_site.personal_data_views import download as download_personal_data
from harmonies_site.views import csp_report
from push.views import service_worker

# htmx swaps refusals into the page: it gets an escaped fragment, a browser the whole page.
handler403 = "harmonies_site.views.permission_denied"
handler404 = "harmonies_site.views.page_not_found"

urlpatterns = [
    path("", home, name="home"),
    path("rules/", rules, name="rules"),
    # Beside the profile's address, though not in accounts.urls: the file reads every app.
    path("accounts/profile/data/", download_personal_data, name="personal_data"),
    # Here, not in accounts.urls: deleting leaves the tables through games (accounts imports none).
    path("accounts/delete/", delete_account, name="delete_account"),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("weekly/", include((games_urls.weekly_patterns, "weekly"))),  # the deal of the week
    path("", include("records.urls")),
    path("admin/", admin.site.urls),
    path("csp-report/", csp_report, name="csp_report"),
    path("calendar/<str:token>.ics", calendar_feed, name="calendar_feed"),
    path("sw.js", service_worker, name="service_worker"),  # at the root: its scope is the site
    path("push/", include("push.urls")),
    path("webhooks/", include("webhooks.urls")),
]
