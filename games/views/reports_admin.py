"""Reports in the admin, for moderation: what was reported as it was then, the filters staff
sort by, and the measures (hide the message, give a neutral name, suspend, lift, close).

Registered from games/admin.py; a module of its own beside the player's report view, since its
actions are the other half of it. Reports are never edited or deleted here: each measure goes
through games.services.reports, which records it on the report (who, when, what). Acting needs
the `games.moderate_report` permission; the actions are also buttons on a report's own page,
which post to the list's action like a selection of one.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html_join

from games.models import Report, ReportAction
from games.services import reports

ACTIONS = {
    "hide_message": "Hide the reported message",
    "give_neutral_name": "Give the player a neutral name",
    "suspend_account": "Suspend the account",
    "lift_suspension": "Lift the suspension",
    "close_report": "Close: nothing to do",
}


class StatusFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list:
        return [("open", "Open"), ("dealt", "Dealt with")]

    def queryset(self, request: HttpRequest, queryset):
        if self.value() == "open":
            return queryset.filter(dealt_at__isnull=True)
        if self.value() == "dealt":
            return queryset.filter(dealt_at__isnull=False)
        return queryset


class ReportActionInline(admin.TabularInline):
    model = ReportAction
    extra = 0
    can_delete = False
    fields = ["at", "staff", "action", "detail"]
    readonly_fields = fields
    verbose_name = "staff measure"

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = [
        "created_at",
        "kind",
        "reason",
        "reported_name",
        "excerpt",
        "reporter",
        "status",
    ]
    list_filter = [StatusFilter, "reason", "kind"]
    list_select_related = ["reporter"]
    search_fields = ["reported_username", "reported_name", "message_text", "reporter__username"]
    date_hierarchy = "created_at"
    inlines = [ReportActionInline]
    fieldsets = [
        ("The report", {"fields": ["created_at", "reporter", "kind", "reason", "words"]}),
        (
            "What was reported, as it was then",
            {
                "fields": [
                    "reported_name",
                    "reported_username",
                    "reported",
                    "message_then",
                    "message_written_at",
                    "game",
                    "on_the_site",
                ]
            },
        ),
        ("As it is now", {"fields": ["now"]}),
        ("Dealt with", {"fields": ["dealt_at", "dealt_by"]}),
    ]
    readonly_fields = [name for _, section in fieldsets for name in section["fields"]]
    actions = list(ACTIONS)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players report on the site, where the rules are checked

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # a report is a record: staff act on it, never rewrite it

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.moderate_report")

    def change_view(self, request: HttpRequest, object_id: str, form_url="", extra_context=None):
        report = self.get_object(request, object_id)
        buttons = []
        if report is not None and self.has_moderate_permission(request):
            buttons = [(name, ACTIONS[name]) for name in _measures_for(report)]
        extra_context = {**(extra_context or {}), "report_buttons": buttons}
        return super().change_view(request, object_id, form_url, extra_context)

    # --- What the pages show --------------------------------------------------------------

    @admin.display(description="message")
    def excerpt(self, report: Report) -> str:
        text = report.message_text
        return text if len(text) <= 80 else text[:79] + "…"

    @admin.display(description="status")
    def status(self, report: Report) -> str:
        return "open" if report.is_open else "dealt with"

    @admin.display(description="message then")
    def message_then(self, report: Report) -> str:
        # A plain string: the admin escapes it and keeps its line breaks.
        return report.message_text if report.kind == Report.Kind.MESSAGE else "(not a message)"

    @admin.display(description="on the site")
    def on_the_site(self, report: Report) -> str:
        links = []
        if report.game_id:
            game_page = reverse("games:detail", args=[report.game_id]) + "#talk"
            links.append((game_page, "the game's page"))
        if report.reported_id and report.reported.is_active:
            links.append(
                (reverse("records:player", args=[report.reported.username]), "the player's page")
            )
        return format_html_join(" · ", '<a href="{}">{}</a>', links) or "(none)"

    @admin.display(description="now")
    def now(self, report: Report) -> str:
        person = report.reported
        if person is None:
            return "The account no longer exists."
        lines = [f"Name: {person.public_name}", f"Username: {person.username}"]
        if person.is_suspended:
            lines.append(f"Suspended since {person.suspended_at:%Y-%m-%d %H:%M} UTC")
        else:
            lines.append("Not suspended")
        if report.kind == Report.Kind.MESSAGE:
            message = report.message
            if message is None:
                lines.append("The message no longer exists.")
            elif message.hidden_by_staff:
                lines.append("The message is hidden by staff.")
            elif message.deleted_at:
                lines.append("The message was deleted by its author.")
            else:
                lines.append("The message is shown to the players.")
        return format_html_join("", "<p>{}</p>", ((line,) for line in lines))

    # --- The measures ---------------------------------------------------------------------

    @admin.action(description=ACTIONS["hide_message"], permissions=["moderate"])
    def hide_message(self, request: HttpRequest, queryset) -> HttpResponse | None:
        if not queryset.filter(kind=Report.Kind.MESSAGE).exists():
            self.message_user(request, "None of these reports is about a message: nothing hidden.")
            return self._back(request, queryset)
        hidden, already = reports.hide_messages(queryset, staff=request.user)
        said = _count(hidden, "message") + " hidden."
        if already:
            said += f" {_count(already, 'message')} had been hidden or deleted already."
        self.message_user(request, said)
        return self._back(request, queryset)

    @admin.action(description=ACTIONS["give_neutral_name"], permissions=["moderate"])
    def give_neutral_name(self, request: HttpRequest, queryset) -> HttpResponse | None:
        renamed, unchanged = reports.give_neutral_names(queryset, staff=request.user)
        said = f"{_count(renamed, 'player')} renamed and told by email."
        if unchanged:
            said += f" {_count(unchanged, 'player')} had the neutral name already."
        self.message_user(request, said)
        return self._back(request, queryset)

    @admin.action(description=ACTIONS["suspend_account"], permissions=["moderate"])
    def suspend_account(self, request: HttpRequest, queryset) -> HttpResponse | None:
        done, already = reports.suspend(queryset, staff=request.user)
        said = f"{_count(done, 'account')} suspended."
        if already:
            said += f" {_count(already, 'account')} had been suspended already."
        self.message_user(request, said)
        return self._back(request, queryset)

    @admin.action(description=ACTIONS["lift_suspension"], permissions=["moderate"])
    def lift_suspension(self, request: HttpRequest, queryset) -> HttpResponse | None:
        done, not_suspended = reports.lift_suspensions(queryset, staff=request.user)
        said = f"{_count(done, 'suspension')} lifted."
        if not_suspended:
            said += f" {_count(not_suspended, 'account')} had not been suspended."
        self.message_user(request, said)
        return self._back(request, queryset)

    @admin.action(description=ACTIONS["close_report"], permissions=["moderate"])
    def close_report(self, request: HttpRequest, queryset) -> HttpResponse | None:
        closed = reports.close(queryset, staff=request.user)
        self.message_user(request, f"{_count(closed, 'report')} closed.")
        return self._back(request, queryset)

    def _back(self, request: HttpRequest, queryset) -> HttpResponse | None:
        """Back to the report's own page when the button was pressed there; else the list."""
        if request.POST.get("_from_report") and queryset.count() == 1:
            url = reverse("admin:games_report_change", args=[queryset.get().pk])
            return HttpResponseRedirect(url)
        return None


def _measures_for(report: Report) -> list[str]:
    """The buttons a report's page offers: what can still be done about it."""
    person = report.reported
    measures = []
    message = report.message
    if message is not None and not message.hidden_by_staff and message.deleted_at is None:
        measures.append("hide_message")
    if person is not None and person.is_active:
        measures.append("give_neutral_name")
        measures.append("lift_suspension" if person.is_suspended else "suspend_account")
    if report.is_open:
        measures.append("close_report")
    return measures


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
