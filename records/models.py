"""Results of finished games, in tables derived from the games alone.

Nothing here is a source of truth: `services.rebuild()` deletes every row and recomputes them from
the finished games (their stored final state and the ranks `games.services.finalize` stored), so a
bug fixed in scoring or rating is one rebuild away from every page. Leaderboards read only these
tables, never the move log.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

# Players with fewer rated games than this are marked provisional: their rating still moves a lot.
PROVISIONAL_GAMES = 5


class Pool(models.TextChoices):
    """Which results a game's seats are compared with (docs/playing.md: "Results, ratings...")."""

    SOLO = "solo", "Solo"
    PLAYERS = "players", "Players"
    BOTS = "bots", "With bots"


class GameRecord(models.Model):
    """A finished game whose results are in the tables; creating it is the recorder's claim."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="record"
    )
    pool = models.CharField(max_length=8, choices=Pool.choices)
    recorded_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"record of game {self.game_id}"


class SeatResult(models.Model):
    """One seat's final score sheet, by category, with the game's facts copied in for filters."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="results")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="results"
    )
    position = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    shared = models.BooleanField(default=False, help_text="Tied with another seat on this place.")
    resigned = models.BooleanField(default=False)
    # "resigned", "dropped", "timed out" or "": why the place is after those who finished.
    mark = models.CharField(max_length=10, blank=True, default="")
    # Whether the game counts for wins, ratings, leaderboards, solo records and suns
    # (`records.services.counts_for_ratings`); abandoned games are listed but count for nothing.
    counts = models.BooleanField(default=True)
    abandoned = models.BooleanField(default=False)

    trees = models.PositiveSmallIntegerField()
    mountains = models.PositiveSmallIntegerField()
    fields = models.PositiveSmallIntegerField()
    buildings = models.PositiveSmallIntegerField()
    water = models.PositiveSmallIntegerField()
    animals = models.PositiveSmallIntegerField()
    spirit = models.PositiveSmallIntegerField()
    total = models.PositiveSmallIntegerField()
    animal_cubes = models.PositiveSmallIntegerField(help_text="The tie-break.")
    suns = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Solo only.")
    cards = models.JSONField(default=list, help_text="Animal cards taken, completed or not.")

    # Copied from the game and the user so leaderboards filter one table without joins.
    pool = models.CharField(max_length=8, choices=Pool.choices)
    side = models.CharField(max_length=1)
    players = models.PositiveSmallIntegerField()
    spirits = models.BooleanField()
    is_bot = models.BooleanField(default=False)
    finished_at = models.DateTimeField()

    # The player's rating (mu, sigma) right after this game, over both sides and over the side
    # played; empty when the game moved no rating. A game recorded late starts again from these
    # rather than from the first game ever (records.services.rerate_from).
    mu_all = models.FloatField(null=True, blank=True)
    sigma_all = models.FloatField(null=True, blank=True)
    mu_side = models.FloatField(null=True, blank=True)
    sigma_side = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="result_one_per_seat")
        ]
        indexes = [
            models.Index(fields=["pool", "finished_at"]),
            models.Index(fields=["user", "-finished_at"]),
            # A player's best boards (records.chart_data): their top few rows, not all of them.
            models.Index(fields=["user", "-total"], name="result_best_of_player"),
            models.Index(fields=["pool", "side", "spirits", "-total"]),
            # The solo high scores, in the board's order: its first rows are the top ten.
            models.Index(
                fields=["side", "spirits", "-total", "-suns", "finished_at"],
                condition=models.Q(pool="solo", counts=True, is_bot=False),
                name="result_solo_high_scores",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in game {self.game_id}: {self.total}"

    @property
    def won(self) -> bool:
        """First in a game that counts; one whose time ran out can win (when everyone's did),
        one who resigned or was dropped cannot."""
        return self.place == 1 and self.counts and self.mark not in ("resigned", "dropped")

    @property
    def shown_as_winner(self) -> bool:
        """Whether pages call this result the winner's: games.results.is_winner, read from the
        stored result (first, in a game with others not abandoned, still at the table). Counted
        or not: `won` is the one the records count."""
        return (
            self.place == 1
            and self.players > 1
            and not self.abandoned
            and self.mark not in ("resigned", "dropped")
        )

    @property
    def description(self) -> str:
        kind = "Solo" if self.players == 1 else f"{self.players} players"
        return f"{kind}, side {self.side}" + (", Nature's Spirits" if self.spirits else "")


class Rating(models.Model):
    """A player's PlackettLuce rating in one pool, over every board side or over one."""

    ALL = "all"
    SCOPES = [(ALL, "Both sides"), ("A", "Side A"), ("B", "Side B")]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    pool = models.CharField(max_length=8, choices=Pool.choices)
    scope = models.CharField(max_length=3, choices=SCOPES)
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma: what the leaderboard sorts by, so a lucky first game does not top it.
    ordinal = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "pool", "scope"], name="rating_one_per_scope")
        ]
        # In the board's order, ties included, so its top rows are the index's first rows.
        indexes = [models.Index(fields=["pool", "scope", "-ordinal", "-games", "user"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.pool}/{self.scope}: {self.ordinal:.1f}"

    @property
    def shown(self) -> int:
        """The rating as players see it (1,000 for a newcomer)."""
        from records.ratings import shown

        return shown(self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


class Standing(models.Model):
    """A player's running totals on the all-time score boards (wins, average, best score), one
    row per filter the boards offer: a board side or both (""), a player count or any (0), with
    Nature's Spirits ("on"), without ("off") or either (""). `records.standings` keeps them as
    games are recorded, so a board is the top rows of one index, however long the history."""

    ANY_SIDE = ""
    ANY_PLAYERS = 0
    ANY_SPIRITS = ""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="standings"
    )
    pool = models.CharField(max_length=8, choices=Pool.choices)
    side = models.CharField(max_length=1, blank=True)
    players = models.PositiveSmallIntegerField()
    spirits = models.CharField(max_length=3, blank=True)
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    points = models.PositiveIntegerField(help_text="The sum of the totals, for the average.")
    average = models.FloatField()
    best = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "pool", "side", "players", "spirits"], name="standing_one_per_cell"
            )
        ]
        # One per board, in its order ties included (records.leaderboards.ORDERING).
        indexes = [
            models.Index(fields=["pool", "side", "players", "spirits", "-wins", "games", "user"]),
            models.Index(
                fields=["pool", "side", "players", "spirits", "-average", "-games", "user"]
            ),
            models.Index(fields=["pool", "side", "players", "spirits", "-best", "games", "user"]),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.pool}/{self.side or '*'}/{self.players}/{self.spirits or '*'}"


class Tally(models.Model):
    """How many players stand at each value of an all-time board, as the board shows it (to a
    tenth): a viewer's place below the top is one plus the players at higher values, a sum over
    the board's distinct values rather than a count over its players. `records.places` keeps it
    beside the ratings and standings it counts. A board is `board` over one filter cell (for the
    rating board, `side` is the rating's scope)."""

    BOARDS = ["rating", "wins", "average", "best"]

    board = models.CharField(max_length=8)
    pool = models.CharField(max_length=8, choices=Pool.choices)
    side = models.CharField(max_length=3, blank=True)
    players = models.PositiveSmallIntegerField()
    spirits = models.CharField(max_length=3, blank=True)
    tenths = models.IntegerField(help_text="The value as shown, in tenths.")
    # Signed: an upsert adds a change (-1 as a player leaves a value) before the row is known.
    count = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["board", "pool", "side", "players", "spirits", "tenths"],
                name="tally_one_per_value",
            )
        ]

    def __str__(self) -> str:
        return f"{self.board} {self.pool}/{self.side or '*'}/{self.players}/{self.spirits or '*'}"


class CategorySums(models.Model):
    """Every person's counted results in one pool added up by scoring category: the "all
    players" average the profile's chart compares a player with, read as a few rows instead of
    an average over the whole history on each view. `records.category_sums` adds each recorded
    game (under the recorders' lock) and the rebuild sums the results again, so both agree to
    the point. Bots' seats are left out: the average is the people's."""

    pool = models.CharField(max_length=8, choices=Pool.choices, unique=True)
    games = models.PositiveIntegerField(default=0, help_text="Seats added up.")
    spirit_games = models.PositiveIntegerField(
        default=0, help_text="Seats in games with Nature's Spirits, the spirit column's divisor."
    )
    trees = models.PositiveBigIntegerField(default=0)
    mountains = models.PositiveBigIntegerField(default=0)
    fields = models.PositiveBigIntegerField(default=0)
    buildings = models.PositiveBigIntegerField(default=0)
    water = models.PositiveBigIntegerField(default=0)
    animals = models.PositiveBigIntegerField(default=0)
    spirit = models.PositiveBigIntegerField(default=0)
    total = models.PositiveBigIntegerField(default=0)

    class Meta:
        verbose_name_plural = "category sums"

    def __str__(self) -> str:
        return f"sums of {self.pool}: {self.games} seats"
