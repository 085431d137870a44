from django.contrib import admin

from judging.models import HistoryLook, JudgeCall, Penalty


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    """Read-mostly: penalties are voided through the judge's pages, never edited."""

    list_display = ["issued_at", "event", "player", "infraction", "game", "judge", "voided_at"]
    list_filter = ["infraction", "event", ("voided_at", admin.EmptyFieldListFilter)]
    search_fields = ["player__name", "player__user__username", "event__name", "notes"]
    list_select_related = ["event", "player__user", "judge"]
    readonly_fields = [f.name for f in Penalty._meta.fields]

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(JudgeCall)
class JudgeCallAdmin(admin.ModelAdmin):
    list_display = [
        "called_at",
        "event",
        "table",
        "judge",
        "minutes",
        "extension_minutes",
        "resolved_at",
    ]
    list_filter = ["event", ("resolved_at", admin.EmptyFieldListFilter)]
    search_fields = ["question", "resolution", "event__name"]
    list_select_related = ["event", "judge"]


@admin.register(HistoryLook)
class HistoryLookAdmin(admin.ModelAdmin):
    """Who read whose penalty history, through which event: read only, for site staff."""

    list_display = ["at", "viewer", "player", "event", "as_site_staff"]
    list_filter = ["as_site_staff"]
    search_fields = ["viewer__username", "player__username", "event__name"]
    list_select_related = ["viewer", "player", "event"]
    readonly_fields = [f.name for f in HistoryLook._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
