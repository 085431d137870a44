import datetime
from zoneinfo import ZoneInfo

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _lazy

from tournaments.event import local_time, services
from tournaments.models import Event, EventRole
from web import forms as web_forms
from web import local_time as web_zones
from web.errors import ServiceError

# The moments typed as the venue's wall time: the deadlines, and round 1's planned start.
DEADLINE_FIELDS = (
    "registration_deadline",
    "decklist_deadline",
    "self_check_in_opens",
    "first_round_at",
)


class WallTimeField(forms.DateTimeField):
    """A date and time as typed, with no zone yet: the form reads it in the venue's."""

    def to_python(self, value):
        with timezone.override(datetime.UTC):  # parse only: UTC has no skipped hours
            moment = super().to_python(value)
        return timezone.make_naive(moment, datetime.UTC) if moment else None


class EventForm(forms.ModelForm):
    """The event's details as a page edits them; ``services.update_event`` saves them.

    Deadlines are typed as the venue's wall time: they are read in the time zone chosen on
    the same form, whatever zone the page was shown in."""

    time_zone = forms.ChoiceField(
        label=_lazy("Time zone"),
        required=False,  # a form (or a script) that does not send it keeps the event's
        help_text=_lazy("The venue's: clocks, deadlines, slips and logs show its local time."),
    )

    class Meta:
        model = Event
        fields = list(services.EDITABLE_EVENT_FIELDS)
        field_classes = {name: WallTimeField for name in DEADLINE_FIELDS}
        # The labels Django would make from the field names, to be translated.
        labels = {
            "name": _lazy("Name"),
            "game": _lazy("Game"),
            "date": _lazy("Date"),
            "venue": _lazy("Venue"),
            "status": _lazy("Status"),
            "match_format": _lazy("Match format"),
            "swiss_rounds": _lazy("Swiss rounds"),
            "top_cut": _lazy("Top cut"),
            "round_minutes": _lazy("Round minutes"),
            "first_round_at": _lazy("Round 1 planned start"),
            "break_minutes": _lazy("Break minutes"),
            "registration_cap": _lazy("Registration cap"),
            "registration_deadline": _lazy("Registration deadline"),
            "decklist_deadline": _lazy("Decklist deadline"),
            "self_check_in_opens": _lazy("Self check-in opens"),
            "decklists_public": _lazy("Decklists public"),
            "print_paper": _lazy("Print paper"),
        }
        widgets = {
            # A count as the organiser types (static/js/text-count.js): names have limits.
            "name": forms.TextInput(attrs={"data-count": ""}),
            "venue": forms.TextInput(attrs={"data-count": ""}),
            # ISO values in every language: a browser's picker reads no other.
            "date": web_forms.DateInput(),
            "registration_deadline": web_forms.DateTimeInput(),
            "decklist_deadline": web_forms.DateTimeInput(),
            "self_check_in_opens": web_forms.DateTimeInput(),
            "first_round_at": web_forms.DateTimeInput(),
        }

    def __init__(self, *args, organiser=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        adding = self.instance._state.adding
        if adding:
            # A new event starts in the zone of the organiser's last one, else the site's.
            self.instance.time_zone = local_time.new_event_zone(organiser)
            self.initial.setdefault("time_zone", self.instance.time_zone)
        # Canonical names by region; an event whose zone is an old alias keeps it listed.
        zone = self.fields["time_zone"]
        kept = self.initial.get("time_zone") if adding else self.instance.time_zone
        zone.choices = web_zones.zone_choices(keep=kept)
        zone.widget.attrs.update({"data-zone-filter": "", "autocomplete": "off"})
        policy = self.fields["decklist_policy"]
        policy.label = _lazy("Decklists before round 1")
        # A form (or a script) that does not send the field keeps the event's policy.
        policy.required = False
        # Likewise the break (a form from before the schedule has no such field).
        self.fields["break_minutes"].required = False
        if self.instance._state.adding and "decklist_policy" not in (kwargs.get("initial") or {}):
            self.initial["decklist_policy"] = services.NEW_EVENT_DECKLIST_POLICY

    def clean_decklist_policy(self) -> str:
        return self.cleaned_data.get("decklist_policy") or self.instance.decklist_policy

    def clean_break_minutes(self) -> int:
        value = self.cleaned_data.get("break_minutes")
        return self.instance.break_minutes if value is None else value

    def clean_time_zone(self) -> str:
        return self.cleaned_data.get("time_zone") or self.instance.time_zone

    def clean(self) -> dict:
        cleaned = super().clean()
        name = cleaned.get("time_zone")
        if name and not web_zones.zone_problem(name):
            self._read_deadlines_in(ZoneInfo(name), cleaned)
        return cleaned

    def _read_deadlines_in(self, zone, cleaned: dict) -> None:
        """Each typed wall time as the instant it names at the venue."""
        for field in DEADLINE_FIELDS:
            typed = cleaned.get(field)
            if typed is None:
                continue
            try:
                cleaned[field] = local_time.venue_moment(typed, zone)
            except ValueError as exc:
                self.add_error(field, str(exc))

    def clean_top_cut(self) -> int:
        cut = self.cleaned_data["top_cut"]
        try:
            services.check_top_cut(cut)
        except ServiceError as exc:
            raise forms.ValidationError(exc.message) from None
        return cut


class GrantRoleForm(forms.Form):
    username = forms.CharField(max_length=150, label=_lazy("Username"))
    role = forms.ChoiceField(choices=EventRole.Role.choices, label=_lazy("Role"))
