"""The profile's "Download my data" button: the file harmonies_site.personal_data builds.

Here rather than in accounts: the file reads games, records and push, which accounts must not
import (accounts sits below them all); the site's own package sits above every app.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.ratelimits import limited, window_in_words
from harmonies_site import personal_data

# A few a day is all anyone needs; each one reads every game of the account, so a script that
# asks in a loop would cost the database far more than it costs the asker.
DOWNLOAD_RATE = "5/h"


@require_POST  # a form with its CSRF token: a link on another site cannot start the download
@login_required
def download(request: HttpRequest) -> HttpResponse:
    """Everything the site keeps about the logged-in person, as one JSON file to save."""
    if limited(request, "personal_data", "user", DOWNLOAD_RATE):
        messages.error(
            request,
            _(
                "You have downloaded your data several times in a short while. Please try again "
                "in %(wait)s."
            )
            % {"wait": window_in_words(DOWNLOAD_RATE)},
        )
        return redirect(reverse("profile") + "#my-data")
    user = request.user
    now = timezone.now()
    body = json.dumps(
        personal_data.personal_data(user, now), cls=DjangoJSONEncoder, ensure_ascii=False, indent=1
    )
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = personal_data.file_name(user, timezone.localdate(now, user.tzinfo))
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response
