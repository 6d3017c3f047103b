"""The new-game form: table size, board side, spirits, and friends invited by username."""

from django import forms

from accounts.models import User


class NewGameForm(forms.Form):
    players = forms.TypedChoiceField(
        choices=[(1, "Solo"), (2, "2 players"), (3, "3 players"), (4, "4 players")],
        coerce=int,
        initial=2,
        widget=forms.RadioSelect,
    )
    side = forms.ChoiceField(
        choices=[("A", "Side A: rivers"), ("B", "Side B: islands")],
        initial="A",
        widget=forms.RadioSelect,
        help_text="Side A is recommended for first games.",
    )
    spirits = forms.BooleanField(
        required=False,
        label="Play with Nature's Spirits",
        help_text="Each player keeps one of two Spirit cards dealt on their first turn.",
    )
    invite = forms.CharField(
        required=False,
        label="Invite friends",
        help_text="Their usernames, separated by commas or spaces.",
    )
    public = forms.BooleanField(
        required=False,
        label="List this table in the lobby",
        help_text="Anyone logged in can then take a free seat.",
    )

    def __init__(self, *args, creator: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.creator = creator

    def clean_invite(self) -> list[User]:
        names = [n for n in self.cleaned_data["invite"].replace(",", " ").split() if n]
        found, missing = [], []
        for name in dict.fromkeys(n.lower() for n in names):
            user = User.objects.filter(username__iexact=name, is_active=True).first()
            (found if user else missing).append(user or name)
        if missing:
            raise forms.ValidationError(f"No player is called {', '.join(missing)}.")
        if any(u.pk == self.creator.pk for u in found):
            raise forms.ValidationError("You are already at the table: no need to invite yourself.")
        return found

    def clean(self):
        data = super().clean()
        players, invitees = data.get("players"), data.get("invite") or []
        if players and len(invitees) > players - 1:
            seats = "no seat" if players == 1 else f"{players - 1} seats"
            self.add_error("invite", f"This table has {seats} for friends.")
        return data
