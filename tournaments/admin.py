from django.contrib import admin

from tournaments.models import (
    Event,
    EventLog,
    EventRole,
    Match,
    MatchClaim,
    Registration,
    ResultChange,
    Round,
    TimeExtension,
)


class ViewOnlyAdmin(admin.ModelAdmin):
    """Shown for inspection, never changed here: players, rounds and results change only
    through tournaments' services, which log each change and tell the standings' cache.
    An edit in the admin would do neither."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class EventRoleInline(admin.TabularInline):
    model = EventRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "date", "status", "match_format", "top_cut", "registration_cap"]
    list_filter = ["game", "status", "match_format", "date"]
    search_fields = ["name", "venue"]
    date_hierarchy = "date"
    inlines = [EventRoleInline]


@admin.register(EventRole)
class EventRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "role", "event", "granted_at"]
    list_filter = ["role", "event__game"]
    search_fields = ["user__username", "event__name"]
    autocomplete_fields = ["user", "event"]


@admin.register(Registration)
class RegistrationAdmin(ViewOnlyAdmin):
    list_display = [
        "__str__",
        "user",
        "event",
        "status",
        "checked_in",
        "disqualified",
        "registered_at",
    ]
    list_filter = ["status", "checked_in", "disqualified", "event__game", "event"]
    search_fields = ["name", "user__username", "user__first_name", "user__last_name", "event__name"]
    autocomplete_fields = ["user", "event"]
    list_select_related = ["user", "event"]


@admin.register(Round)
class RoundAdmin(ViewOnlyAdmin):
    list_display = ["event", "number", "kind", "status", "paired_at", "started_at", "closed_at"]
    list_filter = ["kind", "status", "event"]
    search_fields = ["event__name"]
    list_select_related = ["event"]


@admin.register(Match)
class MatchAdmin(ViewOnlyAdmin):
    list_display = [
        "round",
        "table",
        "player_a",
        "player_b",
        "is_bye",
        "status",
        "extension_minutes",
    ]
    list_filter = ["status", "is_bye", "round__event"]
    search_fields = [
        "player_a__name",
        "player_b__name",
        "player_a__user__username",
        "player_b__user__username",
    ]
    list_select_related = ["round__event", "player_a__user", "player_b__user"]
    raw_id_fields = ["player_a", "player_b", "reported_by"]


@admin.register(ResultChange)
class ResultChangeAdmin(ViewOnlyAdmin):
    list_display = ["changed_at", "match", "action", "changed_by", "source", "reason"]
    list_filter = ["action"]
    search_fields = ["reason", "source"]
    list_select_related = ["match__round__event", "changed_by"]


@admin.register(EventLog)
class EventLogAdmin(ViewOnlyAdmin):
    list_display = ["at", "event", "action", "round_number", "actor", "reason"]
    list_filter = ["action", "event"]
    search_fields = ["reason", "event__name"]
    list_select_related = ["event", "actor"]


@admin.register(MatchClaim)
class MatchClaimAdmin(ViewOnlyAdmin):
    list_display = ["at", "match", "player", "kind", "score", "reason"]
    list_select_related = ["match__round__event", "player__user"]


@admin.register(TimeExtension)
class TimeExtensionAdmin(ViewOnlyAdmin):
    list_display = ["granted_at", "match", "minutes", "reason", "granted_by", "removed_at"]
    list_select_related = ["match__round__event", "granted_by"]
