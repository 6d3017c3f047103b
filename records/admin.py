"""Read-mostly admin views of the derived tables (rebuild them with `manage.py rebuild_records`)."""

from django.contrib import admin

from records.models import GameRecord, Rating, SeatResult


@admin.register(GameRecord)
class GameRecordAdmin(admin.ModelAdmin):
    list_display = ["game", "pool", "recorded_at"]
    list_filter = ["pool"]


@admin.register(SeatResult)
class SeatResultAdmin(admin.ModelAdmin):
    list_display = ["game", "user", "place", "total", "pool", "side", "players", "finished_at"]
    list_filter = ["pool", "side", "players", "spirits"]
    raw_id_fields = ["game", "user"]


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["user", "pool", "scope", "ordinal", "mu", "sigma", "games", "wins"]
    list_filter = ["pool", "scope"]
    raw_id_fields = ["user"]
