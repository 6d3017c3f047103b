"""The new-game form (table size, board side, spirits, who plays) and the table's invite form.

Each other seat of a new table is a computer opponent or a friend, named in that seat's box by
username or email address: one place to invite. The table page invites more in one box.
"""

from dataclasses import dataclass, field

from django import forms
from django.core.validators import validate_email
from django.urls import reverse_lazy

from accounts.identity import canonical_username
from accounts.models import User
from games import clocks
from games.models import Game

SEATS = (2, 3, 4)  # the other seats of a table of up to four
FRIEND_LABEL = "seat: a friend's username or email address"  # not "Seat 2", the seat's choice
SEAT_CHOICES = [
    ("", "A friend (invited or joining)"),
    ("easy", "Easy bot"),
    ("medium", "Medium bot"),
    ("hard", "Hard bot"),
]


def type_ahead(field: forms.Field, options_id: str) -> None:
    """htmx fills the datalist `options_id` with the player's friends matching what is typed
    (records.friends_views.suggest); without scripts the box is a plain text box."""
    field.widget.attrs.update(
        {
            "list": options_id,
            "autocomplete": "off",
            "hx-get": reverse_lazy("records:friend_suggest"),
            "hx-trigger": "input changed delay:250ms",
            "hx-target": f"#{options_id}",
            "hx-swap": "innerHTML",
            "hx-sync": "this:replace",
        }
    )


@dataclass
class Invitees:
    """Who was named in an invite box: players found by username, and email addresses."""

    users: list[User] = field(default_factory=list)
    emails: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.users) + len(self.emails)


def parse_invitees(text: str, creator: User) -> Invitees:
    """Usernames and addresses from a box; each person once, or a message saying who twice."""
    found = Invitees()
    seen: set[str] = set()
    missing = []
    for name in (n for n in text.replace(",", " ").split() if n):
        key = canonical_username(name)
        if key in seen:
            raise forms.ValidationError(f"{name} is named twice: one invitation each.")
        seen.add(key)
        if "@" in name:
            try:
                validate_email(name)
            except forms.ValidationError:
                raise forms.ValidationError(f"{name} is not an email address.") from None
            if name.casefold() == creator.email.casefold():
                raise forms.ValidationError("That is your own address: no need to invite yourself.")
            found.emails.append(name.lower())
            continue
        user = User.objects.filter(username_key=canonical_username(name), is_active=True).first()
        if user is None:
            missing.append(name)
        elif user.pk == creator.pk:
            raise forms.ValidationError("You are already at the table: no need to invite yourself.")
        elif user.is_bot:
            raise forms.ValidationError(f"{name} is a computer opponent: choose it for a seat.")
        elif user in found.users:
            raise forms.ValidationError(f"{user.username} is named twice: one invitation each.")
        else:
            found.users.append(user)
    if missing:
        raise forms.ValidationError(
            f"No player is called {', '.join(missing)}. To invite someone without an account, "
            "type their email address."
        )
    return found


class InviteForm(forms.Form):
    """More invitations from the table page, by username or email address."""

    invite = forms.CharField(
        label="Invite someone",
        max_length=2000,
        help_text="A username or an email address (several: separated by commas or spaces).",
    )

    def __init__(self, *args, creator: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.creator = creator
        type_ahead(self.fields["invite"], "invite-options")

    def clean_invite(self) -> Invitees:
        return parse_invitees(self.cleaned_data["invite"], self.creator)


class NewGameForm(forms.Form):
    name = forms.CharField(
        required=False,
        max_length=80,
        label="Name of the game",
        help_text="Shown in your lists and emails. Left blank, it is named after the players.",
    )
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
    # Not on the page any more (the seats' boxes invite): still read from a form of an older page.
    invite = forms.CharField(required=False, max_length=2000, label="Invite friends")
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
    # Missing from a form of an older page: the limit per turn, as it was then.
    clock = forms.ChoiceField(
        label="Clock",
        choices=Game.Clock.choices,
        initial=Game.Clock.PER_TURN,
        required=False,
        widget=forms.RadioSelect,
        help_text="A limit per turn gives every turn the same time. A time bank is a reserve "
        "each player spends on their turns as they like, topped up after every move.",
    )
    bank_days = forms.IntegerField(
        required=False,
        initial=7,
        label="Days in each player's bank",
        help_text=f"{clocks.BANK_DAYS[0]} to {clocks.BANK_DAYS[1]} days.",
        widget=forms.NumberInput(
            attrs={"min": clocks.BANK_DAYS[0], "max": clocks.BANK_DAYS[1], "inputmode": "numeric"}
        ),
    )
    increment_hours = forms.IntegerField(
        required=False,
        initial=12,
        label="Hours added per move",
        help_text="Added to the bank after each move, up to the bank's size "
        f"({clocks.INCREMENT_HOURS[0]} to {clocks.INCREMENT_HOURS[1]} hours).",
        widget=forms.NumberInput(
            attrs={
                "min": clocks.INCREMENT_HOURS[0],
                "max": clocks.INCREMENT_HOURS[1],
                "inputmode": "numeric",
            }
        ),
    )
    pause_weekends = forms.BooleanField(
        required=False,
        label="Pause at weekends",
        help_text="From Saturday 00:00 to Monday 00:00 in the time zone of the player to move, "
        "the clock stops.",
    )
    on_timeout = forms.ChoiceField(
        label="When a turn's time limit passes or a bank runs out",
        choices=Game.OnTimeout.choices,
        initial=Game.OnTimeout.STAND_IN,
        required=False,
        help_text="Done by the site without anyone opening the game; every player is emailed. "
        "Either way the late player ranks after those who never ran out of time.",
    )
    seat_2 = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label="Seat 2")
    seat_3 = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label="Seat 3")
    seat_4 = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label="Seat 4")
    # A friend's username (or an address) per seat, offered by type-ahead from one's friends.
    friend_2 = forms.CharField(required=False, max_length=254, label=f"2nd {FRIEND_LABEL}")
    friend_3 = forms.CharField(required=False, max_length=254, label=f"3rd {FRIEND_LABEL}")
    friend_4 = forms.CharField(required=False, max_length=254, label=f"4th {FRIEND_LABEL}")
    public = forms.BooleanField(
        required=False,
        label="List this table in the lobby",
        help_text="Anyone logged in can then take a free seat.",
    )
    open_to_watchers = forms.BooleanField(
        required=False,
        label="Open to watchers",
        help_text="Anyone can watch the game as it is played (never a player's plan or talk). "
        "Without this, players can still share a read-only link from the game page.",
    )

    def __init__(self, *args, creator: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.creator = creator
        for n in SEATS:
            type_ahead(self.fields[f"friend_{n}"], f"friend-options-{n}")
            self.fields[f"friend_{n}"].widget.attrs["placeholder"] = "Username or email address"

    def seat_rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        """Each other seat: its choice (a friend or a bot) and the friend's name box."""
        return [(n, self[f"seat_{n}"], self[f"friend_{n}"]) for n in SEATS]

    def clean_invite(self) -> "Invitees":
        return parse_invitees(self.cleaned_data["invite"], self.creator)

    def clean_on_timeout(self) -> str:
        return self.cleaned_data.get("on_timeout") or Game.OnTimeout.STAND_IN

    def clean(self):
        data = super().clean()
        self._check_clock(data)
        players, invitees = data.get("players") or 1, data.get("invite") or Invitees()
        invitees = self._with_seat_names(players, invitees)
        if "invite" not in self.errors:
            data["invite"] = invitees
        # Seats beyond the table size are ignored, so a change of mind about the size is harmless.
        data["bot_levels"] = [
            data[f"seat_{n}"] for n in range(2, players + 1) if data.get(f"seat_{n}")
        ]
        free = players - 1 - len(data["bot_levels"])
        if len(invitees) > free:
            seats = "no seat" if free == 0 else f"{free} seat{'s' if free > 1 else ''}"
            self.add_error(None, f"This table has {seats} left for friends.")
        return data

    def _check_clock(self, data: dict) -> None:
        """The clock chosen, as games.clocks.check_clock judges it (so does the writer). The
        boxes of the clock not chosen are ignored: without scripts the page posts them all; a
        per-turn limit chosen with a time bank is refused, as both were picked."""
        if any(name in self.errors for name in ("clock", "turn_limit_days", "on_timeout")):
            return
        kind = data.get("clock") or Game.Clock.PER_TURN
        bank = kind == Game.Clock.BANK
        if not bank:  # the bank's boxes are not this clock's: what they hold does not matter
            for name in ("bank_days", "increment_hours"):
                self._errors.pop(name, None)
        elif "bank_days" in self.errors or "increment_hours" in self.errors:
            return
        try:
            data["clock"] = clocks.check_clock(
                kind,
                data.get("turn_limit_days"),
                data.get("bank_days") if bank else None,
                data.get("increment_hours") if bank else 0,
                bool(data.get("pause_weekends")),
                stand_in=data.get("on_timeout") == Game.OnTimeout.STAND_IN,
            )
        except clocks.ClockError as exc:
            self.add_error("clock", str(exc))

    def _with_seat_names(self, players: int, invitees: Invitees) -> Invitees:
        """The invite box's people and those named in the seats, each once (an error on the
        seat's box otherwise). Seats beyond the table size are ignored, like their choices."""
        merged = Invitees(users=list(invitees.users), emails=list(invitees.emails))
        for n in range(2, players + 1):
            name, field = (self.cleaned_data.get(f"friend_{n}") or "").strip(), f"friend_{n}"
            if not name:
                continue
            if self.cleaned_data.get(f"seat_{n}"):
                self.add_error(field, f"Seat {n} has a computer opponent: leave its name empty.")
                continue
            if len(name.replace(",", " ").split()) > 1:
                self.add_error(field, f"One name for seat {n}.")
                continue
            try:
                found = parse_invitees(name, self.creator)
            except forms.ValidationError as exc:
                self.add_error(field, exc)
                continue
            for user in found.users:
                if user in merged.users:
                    self.add_error(field, f"{user.username} is named twice: one invitation each.")
                else:
                    merged.users.append(user)
            for email in found.emails:
                if email in merged.emails:
                    self.add_error(field, f"{email} is named twice: one invitation each.")
                else:
                    merged.emails.append(email)
        return merged
