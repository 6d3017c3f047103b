from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import Friendship, User


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
