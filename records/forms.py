"""The leaderboard filters: read from the query string, any bad value falls back to its default."""

from __future__ import annotations

from typing import Any

from django import forms

from records.models import Pool

BOARDS = [
    ("rating", "Rating"),
    ("wins", "Wins"),
    ("average", "Average score"),
    ("best", "Best score"),
    ("solo", "Solo high scores"),
]


class LeaderboardFilters(forms.Form):
    board = forms.ChoiceField(choices=BOARDS, required=False, widget=forms.HiddenInput)
    pool = forms.ChoiceField(
        label="Tables",
        choices=[(Pool.PLAYERS, "Players only"), (Pool.BOTS, "With bots")],
        required=False,
    )
    side = forms.ChoiceField(
        label="Board side",
        choices=[("", "Both sides"), ("A", "Side A"), ("B", "Side B")],
        required=False,
    )
    players = forms.ChoiceField(
        label="Players",
        choices=[("", "Any number"), ("2", "2 players"), ("3", "3 players"), ("4", "4 players")],
        required=False,
    )
    spirits = forms.ChoiceField(
        label="Nature's Spirits",
        choices=[("", "With or without"), ("on", "With"), ("off", "Without")],
        required=False,
    )
    period = forms.ChoiceField(
        label="Period",
        choices=[("all", "All time"), ("30", "Last 30 days"), ("7", "Last 7 days")],
        required=False,
    )
    friends = forms.BooleanField(label="Only my friends", required=False)

    DEFAULTS: dict[str, Any] = {
        "board": "rating",
        "pool": Pool.PLAYERS,
        "side": "",
        "players": "",
        "spirits": "",
        "period": "all",
        "friends": False,
    }

    def values(self) -> dict[str, Any]:
        """The filters to apply: valid values as given, the default for anything else."""
        self.is_valid()
        cleaned = getattr(self, "cleaned_data", {})
        return {name: cleaned.get(name) or default for name, default in self.DEFAULTS.items()}
