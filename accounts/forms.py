"""Sign-up and profile forms.

Usernames are compared in canonical form and refused when they imitate a bot, the site or an
existing player (accounts.identity). Sign-up never says whether an email is registered: an address
that another account has confirmed is accepted, and its owner is told instead (accounts/views.py).
"""

import logging

from django import forms
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm

from .identity import (
    canonical_username,
    has_control_characters,
    imitates_bot,
    imitates_site,
    username_skeleton,
)
from .models import User
from .ratelimits import limited, normalised_email

logger = logging.getLogger(__name__)

USERNAME_TAKEN = "That username is taken. Please choose another."


def check_display_name(value: str) -> str:
    """A display name other players can trust: one line, no hidden characters, not a bot's."""
    value = value.strip()
    if has_control_characters(value):
        raise forms.ValidationError(
            "A display name must be one line of visible characters (no line breaks or "
            "control characters)."
        )
    if value and imitates_bot(value):
        raise forms.ValidationError("Names like a computer opponent's are kept for the bots.")
    return value


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "display_name", "email", "time_zone")
        help_texts = {
            "username": "Friends invite you by this name. Letters, digits and @/./+/-/_ only.",
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].help_text = "We send a link to confirm it: rated games need it."
        self.fields["display_name"].help_text = "Shown to other players. Defaults to your username."
        self.fields["time_zone"].help_text = "Used for reminders and quiet hours."

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if imitates_bot(username):
            raise forms.ValidationError("Names like a computer opponent's are kept for the bots.")
        if imitates_site(username):
            raise forms.ValidationError("That name is kept for the site. Please choose another.")
        if User.objects.filter(username_key=canonical_username(username)).exists():
            raise forms.ValidationError(USERNAME_TAKEN)
        if User.objects.filter(username_skeleton=username_skeleton(username)).exists():
            raise forms.ValidationError(
                "That username looks too much like another player's. Please choose another."
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


class ProfileForm(forms.ModelForm):
    """Display name, email and time zone; a new email needs the current password."""

    current_password = forms.CharField(
        label="Current password",
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text="Needed only to change your email address.",
    )

    class Meta:
        model = User
        fields = ("display_name", "email", "time_zone")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
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
            raise forms.ValidationError("Another account already uses this email.")
        return email

    @property
    def email_changed(self) -> bool:
        return self.cleaned_data.get("email", "").lower() != self.old_email.lower()

    def clean(self) -> dict:
        cleaned = super().clean()
        if "email" in cleaned and self.email_changed:
            password = cleaned.get("current_password") or ""
            if not self.instance.check_password(password):
                self.add_error(
                    "current_password",
                    "Enter your current password to change your email address.",
                )
        return cleaned

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        if self.email_changed:
            user.email_confirmed_at = None  # the new address must be confirmed again
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
        label="Away until",
        # An <input type=date> shows only an ISO date: in the locale's 08/12/2026 the box came
        # back empty, and saving again cleared the absence.
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
        help_text=(
            "The last day you are away. Meanwhile the time limits of your turns pause, and "
            "reminders and digests wait; others see that you are away. At most 30 days at a time "
            "and 60 days a year. Empty it to be back now."
        ),
    )


class CappedPasswordResetForm(PasswordResetForm):
    """Django's reset form, sending at most PASSWORD_RESET_EMAILS_PER_HOUR emails an hour to one
    address, whoever asks. Past that nothing is sent and nothing shows: the page answers as if it
    had sent (no enumeration, and a stranger cannot see, let alone cause, a refusal)."""

    def save(self, *args, request=None, **kwargs) -> None:
        address = normalised_email(self.cleaned_data["email"])
        rate = f"{settings.PASSWORD_RESET_EMAILS_PER_HOUR}/h"
        if request is not None and limited(
            request, "password_reset_to", lambda group, request: address, rate
        ):
            logger.info("password reset email not sent: the hourly cap for one address is reached")
            return
        super().save(*args, request=request, **kwargs)
