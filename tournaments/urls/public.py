"""Anyone, signed in or not: no decorator; drafts are hidden by ``Event.objects.visible_to``."""

from django.urls import path

from tournaments.pages import (
    calendar_feeds,
    hall,
    public_events,
    public_rounds,
    round_audit,
    standings,
)

urlpatterns = [
    path("events/", public_events.event_list, name="events"),
    path("events/<int:event_id>/", public_events.event_detail, name="event"),
    path("events/<int:event_id>/pairings/", public_rounds.pairings, name="pairings"),
    # A Swiss round's audit (issue 34): its pairing's input, output and proof, to check.
    path(
        "events/<int:event_id>/rounds/<int:number>/audit/",
        round_audit.audit_page,
        name="round_audit",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/audit/state.json",
        round_audit.audit_state,
        name="round_audit_state",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/audit/pairing.json",
        round_audit.audit_pairing,
        name="round_audit_pairing",
    ),
    path("pairing/verify.py", round_audit.checker, name="pairing_checker"),
    path("events/<int:event_id>/standings/", standings.standings, name="standings"),
    path("events/<int:event_id>/summary/", standings.summary, name="summary"),
    path("events/<int:event_id>/placings.csv", standings.placings_csv, name="placings_csv"),
    path(
        "events/<int:event_id>/calendar.ics", calendar_feeds.event_calendar, name="event_calendar"
    ),
    path("events/<int:event_id>/bracket/", public_rounds.bracket_page, name="bracket"),
    path("events/<int:event_id>/projector/", public_rounds.projector, name="projector"),
    path("events/<int:event_id>/hall/", hall.hall_page, name="hall"),
    path("events/<int:event_id>/hall/fragment/", hall.hall_fragment, name="hall_fragment"),
]
