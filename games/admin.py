"""Games in the admin, for support: what a table looks like and where its emails stand.

Read-only on purpose: every change to a game goes through games.services (the lock, the engine,
the move log). The seed and the stored state carry the pouch and deck order, so they are shown
only once the game is over; deleting a game (spam, a test) is allowed and removes its seats and
moves with it.
"""

from django.contrib import admin
from django.http import HttpRequest

from games.models import Game, Invitation, Message, Seat
from games.presenters.clocks import clock_words
from games.services import talk
from games.views import reports_admin  # noqa: F401  (registers the reports, for moderation)

SECRET_UNTIL_OVER = "hidden until the game is over"


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = [
        "user",
        "position",
        "joined_at",
        "resigned_at",
        "final_score",
        "rank",
        "bank",
        "notified_turn",
        "turn_email_claimed_at",
        "remind_at",
        "game_over_notified_at",
    ]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 0
    fields = ["user", "email", "invited_by", "created_at", "declined_at", "emailed_at"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "description",
        "status",
        "end_reason",
        "current_seat",
        "move_count",
        "turn_started_at",
        "turn_deadline",
        "updated_at",
    ]
    list_filter = ["status", "side", "players", "spirits", "public", "end_reason"]
    search_fields = ["=id", "seats__user__username", "created_by__username"]
    date_hierarchy = "created_at"
    inlines = [SeatInline, InvitationInline]
    fields = [
        "created_by",
        "players",
        "side",
        "spirits",
        "public",
        "clock_in_words",
        "clock",
        "turn_limit_days",
        "bank_days",
        "increment_hours",
        "pause_weekends",
        "on_timeout",
        "status",
        "end_reason",
        "version",
        "move_count",
        "current_seat",
        "turn_started_at",
        "turn_deadline",
        "created_at",
        "started_at",
        "finished_at",
        "finalized_at",
        "seed_once_over",
        "state_once_over",
    ]
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest):
        return super().get_queryset(request).distinct()  # a search by player joins the seats

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tables are opened on the site, where the rules are checked

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description="clock in words")
    def clock_in_words(self, game: Game) -> str:
        return clock_words(game)

    @admin.display(description="seed")
    def seed_once_over(self, game: Game) -> str:
        return str(game.seed) if game.status == Game.Status.FINISHED else SECRET_UNTIL_OVER

    @admin.display(description="state")
    def state_once_over(self, game: Game) -> str:
        return game.state if game.status == Game.Status.FINISHED else SECRET_UNTIL_OVER


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    """Table talk, for moderation: staff hide a message (never edit it); hiding redraws the
    talk on the game's open pages and keeps the row for the record."""

    list_display = ["id", "game", "author", "created_at", "text", "deleted_at", "hidden_by_staff"]
    list_filter = ["hidden_by_staff"]
    search_fields = ["=game__id", "author__username", "text"]
    date_hierarchy = "created_at"
    fields = ["game", "author", "position", "text", "created_at", "deleted_at", "hidden_by_staff"]
    readonly_fields = fields
    actions = ["hide_messages"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.action(description="Hide the selected messages from the players", permissions=["view"])
    def hide_messages(self, request: HttpRequest, queryset) -> None:
        hidden = talk.hide(queryset.filter(hidden_by_staff=False))
        self.message_user(request, f"{hidden} message{'s' if hidden != 1 else ''} hidden.")
