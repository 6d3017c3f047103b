"""The new-game form: table size, board side, spirits, and friends invited by username."""

from django import forms

from accounts.models import User
from games.models import Game

SEAT_CHOICES = [
    ("", "A friend (invited or joining)"),
    ("easy", "Easy bot"),
    ("medium", "Medium bot"),
    ("hard", "Hard bot"),
]


class NewGameForm(forms.Form):
    players = forms.TypedChoiceField(
        choices=[(1, "Solo"), (2, "2"), (3, "3"), (4, "4")],
        coerce=int,
        initial=2,
        widget=forms.RadioSelect,
    )
    side = forms.ChoiceField(
        choices=[("A", "A: rivers"), ("B", "B: islands")],
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
    turn_limit_days = forms.TypedChoiceField(
        choices=[
            ("", "No time limit"),
            (1, "1 day"),
            (3, "3 days"),
            (7, "7 days"),
            (14, "14 days"),
        ],
        coerce=int,
        empty_value=None,
        required=False,
        label="Time limit per turn",
        help_text="When a player runs out of time the site acts as chosen below; until it does, "
        "the others may skip the turn or end the game.",
    )
    on_timeout = forms.ChoiceField(
        label="When a turn's time limit passes",
        choices=Game.OnTimeout.choices,
        initial=Game.OnTimeout.STAND_IN,
        required=False,
        help_text="Done by the site without anyone opening the game; every player is emailed. "
        "Either way the late player ranks after those who never ran out of time.",
    )
    seat_2 = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label="Seat 2")
    seat_3 = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label="Seat 3")
    seat_4 = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label="Seat 4")
    public = forms.BooleanField(
        required=False,
        label="List this table in the lobby",
        help_text="Anyone logged in can then take a free seat.",
    )

    def __init__(self, *args, creator: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.creator = creator

    def clean_on_timeout(self) -> str:
        return self.cleaned_data.get("on_timeout") or Game.OnTimeout.STAND_IN

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
        players, invitees = data.get("players") or 1, data.get("invite") or []
        # Seats beyond the table size are ignored, so a change of mind about the size is harmless.
        data["bot_levels"] = [
            data[f"seat_{n}"] for n in range(2, players + 1) if data.get(f"seat_{n}")
        ]
        free = players - 1 - len(data["bot_levels"])
        if len(invitees) > free:
            seats = "no seat" if free == 0 else f"{free} seat{'s' if free > 1 else ''}"
            self.add_error("invite", f"This table has {seats} left for friends.")
        return data
