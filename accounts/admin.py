from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import Block, Friendship, RetiredUsername, User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        (
            "Player",
            {"fields": ("display_name", "time_zone", "bot_level", "email_confirmed_at")},
        ),
        (
            "Emails",
            {
                "fields": (
                    "email_turn",
                    "email_reminder",
                    "remind_every_hours",
                    "email_digest",
                    "email_game_over",
                    "email_invitation",
                    "quiet_start",
                    "quiet_end",
                    "last_digest_on",
                )
            },
        ),
    )
    readonly_fields = ("bot_level", "email_confirmed_at", "last_digest_on")
    list_display = ("username", "display_name", "email", "bot_level", "is_staff", "date_joined")
    list_filter = (*UserAdmin.list_filter, "bot_level")


@admin.register(Friendship)
class FriendshipAdmin(admin.ModelAdmin):
    list_display = ("user", "friend", "created_at", "removed_at")
    raw_id_fields = ("user", "friend")
    search_fields = ("user__username", "friend__username")


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    """Read-only: a block is the player's own choice, made and undone on their pages (staff may
    look when a report needs it)."""

    list_display = ("blocker", "blocked", "created_at")
    raw_id_fields = ("blocker", "blocked")
    search_fields = ("blocker__username", "blocked__username")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        # An unblock is the player's, through games.services.blocks (which forgets the cache).
        return False


@admin.register(RetiredUsername)
class RetiredUsernameAdmin(admin.ModelAdmin):
    """The names of deleted accounts, kept from sign-up for RETIRED_USERNAME_DAYS; staff may
    release one early by deleting its row."""

    list_display = ("username_key", "retired_at")
    search_fields = ("username_key",)
    readonly_fields = ("username_key", "username_skeleton", "retired_at")

    def has_add_permission(self, request) -> bool:
        return False
