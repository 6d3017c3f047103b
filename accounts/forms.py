"""Sign-up and profile forms.

Usernames are compared in canonical form and refused when they imitate a bot, the site or an
existing player (accounts.identity). Sign-up never says whether an email is registered: an address
that another account has confirmed is accepted, and its owner is told instead (accounts/views.py).

The forms that ask for the current password (a new email address, a new password) share one limit
on wrong answers per player: a session left open, or stolen, must not be a way to guess the
password at the speed of the site.
"""

from django import forms
from django.conf import settings
from django.contrib.auth.forms import PasswordChangeForm, UserCreationForm
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from .identity import (
    canonical_username,
    has_control_characters,
    imitates_bot,
    imitates_site,
    username_skeleton,
)
from .models import DELETED_NAME, User
from .ratelimits import limited, used_up, window_in_words

USERNAME_TAKEN = gettext_lazy("That username is taken. Please choose another.")


def check_display_name(value: str) -> str:
    """A display name other players can trust: one line, no hidden characters, not a bot's."""
    value = value.strip()
    if has_control_characters(value):
        raise forms.ValidationError(
            _(
                "A display name must be one line of visible characters (no line breaks or "
                "control characters)."
            )
        )
    if value and imitates_bot(value):
        raise forms.ValidationError(_("Names like a computer opponent's are kept for the bots."))
    if canonical_username(value) == canonical_username(DELETED_NAME):
        # Otherwise anyone could pass for an account that was deleted.
        raise forms.ValidationError(_("That name is kept for the accounts that were deleted."))
    return value


def check_current_password(request: HttpRequest, user: User, password: str, wrong: str) -> None:
    """Raise a ValidationError unless `password` is the player's own: `wrong` when it is not, and
    a request to wait, without looking at the password, once CURRENT_PASSWORD_FAILURE_RATE wrong
    ones were typed (every form asking for it counts together, so each cannot add its own)."""
    rate = settings.CURRENT_PASSWORD_FAILURE_RATE

    def account(group: str, request: HttpRequest) -> str:
        return str(user.pk)

    if used_up(request, "current_password", account, rate):
        raise forms.ValidationError(
            _(
                "Your current password was entered wrongly several times. For your safety, "
                "nothing was changed: please try again in %(wait)s."
            )
            % {"wait": window_in_words(rate)}
        )
    if not user.check_password(password):
        limited(request, "current_password", account, rate)  # count the failure
        raise forms.ValidationError(wrong)


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "display_name", "email", "time_zone")
        labels = {
            "display_name": gettext_lazy("Display name"),
            "time_zone": gettext_lazy("Time zone"),
        }
        help_texts = {
            "username": gettext_lazy(
                "Friends invite you by this name. Letters, digits and @/./+/-/_ only."
            ),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].help_text = _("We send a link to confirm it: rated games need it.")
        self.fields["display_name"].help_text = _(
            "Shown to other players. Defaults to your username."
        )
        self.fields["time_zone"].help_text = _("Used for reminders and quiet hours.")

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if imitates_bot(username):
            raise forms.ValidationError(
                _("Names like a computer opponent's are kept for the bots.")
            )
        if imitates_site(username):
            raise forms.ValidationError(_("That name is kept for the site. Please choose another."))
        if User.objects.filter(username_key=canonical_username(username)).exists():
            raise forms.ValidationError(USERNAME_TAKEN)
        if User.objects.filter(username_skeleton=username_skeleton(username)).exists():
            raise forms.ValidationError(
                _("That username looks too much like another player's. Please choose another.")
            )
        return username

    def clean_display_name(self) -> str:
        return check_display_name(self.cleaned_data["display_name"])

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        # Not refused, or a stranger could test which addresses are registered: the view tells the
        # address's owner instead of sending this account a confirmation link.
        self.email_in_use = User.objects.filter(
            email__iexact=email, email_confirmed_at__isnull=False
        ).exists()
        return email


def language_choices() -> list[tuple[str, str]]:
    """The profile's languages: each named in itself, after "As my browser asks" (blank)."""
    return [("", pgettext_lazy("language", "As my browser asks")), *settings.LANGUAGES]


class ProfileForm(forms.ModelForm):
    """Display name, email, time zone and language; a new email needs the current password."""

    current_password = forms.CharField(
        label=gettext_lazy("Current password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=gettext_lazy("Needed only to change your email address."),
    )
    language = forms.ChoiceField(
        label=gettext_lazy("Language"),
        choices=language_choices,
        required=False,
        help_text=gettext_lazy("The site and its emails to you are written in it."),
        error_messages={
            "invalid_choice": gettext_lazy("Choose one of the languages in the list."),
        },
    )

    class Meta:
        model = User
        fields = ("display_name", "email", "time_zone", "language")
        labels = {
            "display_name": gettext_lazy("Display name"),
            "time_zone": gettext_lazy("Time zone"),
        }

    def __init__(self, *args, request: HttpRequest | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.request = request  # for the limit on wrong current passwords; needed when bound
        self.old_email = self.instance.email

    def clean_display_name(self) -> str:
        return check_display_name(self.cleaned_data["display_name"])

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        taken = (
            User.objects.filter(email__iexact=email, email_confirmed_at__isnull=False)
            .exclude(pk=self.instance.pk)
            .exists()
        )
        if taken:
            raise forms.ValidationError(_("Another account already uses this email."))
        return email

    @property
    def email_changed(self) -> bool:
        return self.cleaned_data.get("email", "").lower() != self.old_email.lower()

    def clean(self) -> dict:
        cleaned = super().clean()
        if "email" in cleaned and self.email_changed:
            try:
                check_current_password(
                    self.request,
                    self.instance,
                    cleaned.get("current_password") or "",
                    wrong=_("Enter your current password to change your email address."),
                )
            except forms.ValidationError as refusal:
                self.add_error("current_password", refusal)
        return cleaned

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        if self.email_changed:
            user.email_confirmed_at = None  # the new address must be confirmed again
            user.email_version += 1  # by a link sent for this change, not one sent before
        if commit:
            user.save()
        return user


class EmailPreferencesForm(forms.ModelForm):
    """Which emails to get, how often to be reminded, and when never to be."""

    class Meta:
        model = User
        fields = (
            "email_turn",
            "email_reminder",
            "remind_every_hours",
            "quiet_start",
            "quiet_end",
            "email_digest",
            "email_game_over",
            "email_invitation",
        )


class AwayForm(forms.Form):
    """Away on vacation until a date (empty: back now). The limits are checked by `set_away`."""

    away_until = forms.DateField(
        required=False,
        label=gettext_lazy("Away until"),
        # An <input type=date> shows only an ISO date: in the locale's 08/12/2026 the box came
        # back empty, and saving again cleared the absence.
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
        help_text=gettext_lazy(
            "The last day you are away. Meanwhile the time limits of your turns pause, and "
            "reminders and digests wait; others see that you are away. At most 30 days at a time "
            "and 60 days a year. Empty it to be back now."
        ),
    )


class LimitedPasswordChangeForm(PasswordChangeForm):
    """Django's password change, its old password checked under the shared limit on wrong ones."""

    def __init__(self, user: User, *args, request: HttpRequest, **kwargs) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old_password = self.cleaned_data["old_password"]
        check_current_password(
            self.request,
            self.user,
            old_password,
            wrong=self.error_messages["password_incorrect"],
        )
        return old_password
