"""The series form: its name, how points are earned, and (new series) its first events."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from pairing.series import MAX_POINTS, TIEBREAKERS, table_text
from series.models import Series
from tournaments.models import Event
from web.errors import ServiceError
from web.forms import show_refusal

TIEBREAKER_SLOTS = 3


def _tiebreaker_choices() -> list[tuple[str, str]]:
    return [("", "—")] + [(name, _(label)) for name, label in TIEBREAKERS.items()]


class SeriesForm(forms.Form):
    name = forms.CharField(max_length=200, label=_lazy("Name"))
    description = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label=_lazy("Description"),
    )
    method = forms.ChoiceField(choices=Series.Method.choices, label=_lazy("Points earned by"))
    placing_points = forms.CharField(
        required=False,
        label=_lazy("Points per place"),
        help_text=_lazy(
            "For example 1: 10, 2: 8, 3-4: 6, 5-8: 4. Places past the table earn none."
        ),
    )
    participation = forms.IntegerField(
        min_value=0,
        max_value=MAX_POINTS,
        initial=0,
        label=_lazy("Participation points"),
        help_text=_lazy("Added for every event a player takes part in."),
    )
    best_of = forms.IntegerField(
        required=False,
        min_value=1,
        label=_lazy("Count the best N events"),
        help_text=_lazy("Empty: every event counts."),
    )
    tiebreaker_1 = forms.ChoiceField(required=False, label=_lazy("First tiebreaker"))
    tiebreaker_2 = forms.ChoiceField(required=False, label=_lazy("Second tiebreaker"))
    tiebreaker_3 = forms.ChoiceField(required=False, label=_lazy("Third tiebreaker"))

    def __init__(self, *args, events=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for slot in range(1, TIEBREAKER_SLOTS + 1):
            self.fields[f"tiebreaker_{slot}"].choices = _tiebreaker_choices()
        self.event_choices = {} if events is None else {str(e.pk): e for e in events}
        if events is not None:
            # Offered ids only (never a query with whatever id a request sends).
            self.fields["events"] = forms.MultipleChoiceField(
                choices=[
                    (key, f"{e.name} ({e.date:%Y-%m-%d})") for key, e in self.event_choices.items()
                ],
                widget=forms.CheckboxSelectMultiple,
                label=_lazy("Events"),
                required=False,  # the service says what a series with none lacks
                help_text=_lazy("Events you organise. More can join later."),
            )

    def chosen_events(self) -> list:
        return [self.event_choices[key] for key in self.cleaned_data.get("events", [])]

    @classmethod
    def initial_of(cls, series: Series) -> dict[str, Any]:
        initial = {
            "name": series.name,
            "description": series.description,
            "method": series.method,
            "placing_points": table_text(series.placing_points or ()),
            "participation": series.participation,
            "best_of": series.best_of,
        }
        for slot, name in enumerate(series.tiebreakers or (), start=1):
            initial[f"tiebreaker_{slot}"] = name
        return initial

    def service_fields(self) -> dict[str, Any]:
        """The cleaned fields as ``series.services`` takes them (the table still typed)."""
        data = self.cleaned_data
        tiebreakers = [data[f"tiebreaker_{s}"] for s in range(1, TIEBREAKER_SLOTS + 1)]
        return {
            "name": data["name"],
            "description": data["description"],
            "method": data["method"],
            "placing_points": data["placing_points"],
            "participation": data["participation"],
            "best_of": data["best_of"],
            "tiebreakers": [name for name in tiebreakers if name],
        }

    def show(self, exc: ServiceError) -> None:
        """Each refusal beside the field it names (the tiebreakers at the first select)."""
        show_refusal(self, exc, {"tiebreakers": "tiebreaker_1"})


class MergeForm(forms.Form):
    registration = forms.IntegerField(widget=forms.HiddenInput)
    username = forms.CharField(max_length=150, label=_lazy("Account (username)"))


def organised_events(user):
    """The events ``user`` may put in a series: those they organise (all, for site staff)."""
    events = (
        Event.objects.all()
        if user.is_superuser
        else Event.objects.filter(roles__user=user, roles__role="organiser")
    )
    return events.order_by("-date", "name").distinct()
