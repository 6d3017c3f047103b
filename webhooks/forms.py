"""The one form of a chat channel: which chat, and its webhook address. The address is checked
by webhooks.hooks when stored (a DNS look-up), not here."""

from django import forms

from push.endpoints import MAX_ENDPOINT_LENGTH
from webhooks.hooks import HookRefused
from webhooks.models import Webhook


class HookForm(forms.Form):
    kind = forms.ChoiceField(
        label="Chat",
        choices=Webhook.Kind.choices,
        initial=Webhook.Kind.DISCORD,
        widget=forms.RadioSelect,
    )
    url = forms.CharField(
        label="Webhook address",
        max_length=MAX_ENDPOINT_LENGTH,
        strip=True,
        help_text="From the chat's settings: Discord's Integrations, Webhooks; Slack's Incoming "
        "Webhooks app. It starts with https://. Keep it secret: anyone with it can post there.",
        widget=forms.URLInput(attrs={"spellcheck": "false", "autocomplete": "off"}),
    )

    def refused(self, exc: HookRefused) -> None:
        """Show a refusal of webhooks.hooks beside the field it is about."""
        self.add_error(exc.field if exc.field in self.fields else None, str(exc))
