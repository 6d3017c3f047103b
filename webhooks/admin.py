from django.contrib import admin

from webhooks.models import Delivery, Webhook


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    """The address is a secret: staff see its host and last characters only."""

    list_display = ("owner", "kind", "game", "shown_url", "created_at", "last_ok_at", "last_error")
    list_filter = ("kind",)
    raw_id_fields = ("owner", "game")
    exclude = ("url",)
    readonly_fields = ("shown_url", "last_ok_at", "last_error", "last_error_at")
    search_fields = ("owner__username",)


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ("hook", "key", "status", "attempts", "created_at", "done_at", "error")
    list_filter = ("status",)
    raw_id_fields = ("hook",)
    readonly_fields = ("payload",)
