from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, ("Player", {"fields": ("display_name", "time_zone")}))
    list_display = ("username", "display_name", "email", "is_staff", "date_joined")
