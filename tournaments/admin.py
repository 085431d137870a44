from django.contrib import admin

from tournaments.models import Event, EventRole, Registration


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
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["user", "event", "status", "registered_at"]
    list_filter = ["status", "event__game", "event"]
    search_fields = ["user__username", "user__first_name", "user__last_name", "event__name"]
    autocomplete_fields = ["user", "event"]
    list_select_related = ["user", "event"]
