"""Sign-up and profile forms. Emails and usernames are unique regardless of case."""

from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import User


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
        self.fields["display_name"].help_text = "Shown to other players. Defaults to your username."
        self.fields["time_zone"].help_text = "Used for reminders and quiet hours."

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError("That username is taken. Please choose another.")
        return username

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                "An account with this email already exists. Log in, or reset your password."
            )
        return email


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email", "time_zone")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        taken = User.objects.filter(email__iexact=email).exclude(pk=self.instance.pk).exists()
        if taken:
            raise forms.ValidationError("Another account already uses this email.")
        return email


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
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=(
            "The last day you are away. Meanwhile the time limits of your turns pause, and "
            "reminders and digests wait; others see that you are away. At most 30 days at a time "
            "and 60 days a year. Empty it to be back now."
        ),
    )
