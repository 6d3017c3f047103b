from django.contrib import admin

from push.models import PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "user_agent", "created_at", "last_ok_at"]
    list_select_related = ["user"]
    search_fields = ["user__username"]
    # The endpoint and keys are the device's secrets: shown to nobody, not even staff.
    exclude = ["endpoint", "p256dh", "auth"]
    readonly_fields = ["user", "user_agent", "created_at", "last_ok_at"]
