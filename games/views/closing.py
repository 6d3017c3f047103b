"""Delete my account: the page that explains what goes and what stays, and its password form.

Here rather than among the account pages because deleting leaves every table through the writer
(games.services.closing); accounts imports nothing from games. GET only shows the page; the POST,
with the right password, deletes and logs out every device.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.closing import AlreadyDeleted, DeleteAccountForm
from games.services.closing import close_account

LOGGED_OUT = (
    "You are not logged in, so nothing was deleted. If you have just deleted your account, it is "
    "gone already; otherwise please log in and try again."
)


@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        # A page left open on another device after the deletion posts here without a session.
        if request.method == "POST":
            messages.info(request, LOGGED_OUT)
        return redirect_to_login(request.get_full_path())
    posted = request.POST if request.method == "POST" else None  # an empty POST is bound too
    form = DeleteAccountForm(posted, user=request.user, request=request)
    if request.method != "POST":
        return render(request, "accounts/delete_account.html", _context(form))
    if not form.is_valid():
        return render(request, "accounts/delete_account.html", _context(form), status=400)
    try:
        close_account(user=request.user)
    except AlreadyDeleted as exc:  # a second click while the first was being done
        logout(request)
        messages.info(request, exc.message)
        return redirect("home")
    logout(request)
    messages.success(
        request,
        "Your account is deleted and you are logged out on every device. A confirmation is on "
        "its way to the email address you had. Thank you for playing.",
    )
    return redirect("home")


def _context(form: DeleteAccountForm) -> dict:
    return {"form": form, "retired_days": settings.RETIRED_USERNAME_DAYS}
