"""An event's editable details as the API takes them: one serializer for creating an
event, one for changing it, each a named schema whose refusals name their field.

The fields are the edit page's (``services.EDITABLE_EVENT_FIELDS``) and so are the rules
beyond the model's own: the top cut (``services.check_top_cut``), deadlines typed as the
venue's wall time (``local_time.venue_moment``), a new event's decklist policy
(``services.NEW_EVENT_DECKLIST_POLICY``). ``services.create_event`` and
``services.update_event`` save them, as they save the page's form.
"""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.settings import api_settings

from tournaments.event import local_time, services
from tournaments.models import Event
from web.api import errors_response
from web.errors import FieldError, ServiceError

# The moments read as the venue's wall time when given without an offset.
DEADLINES = ("registration_deadline", "decklist_deadline", "self_check_in_opens", "first_round_at")

# The status words, for the operations' descriptions (docs/api.md, "State names").
STATUS_WORDS = (
    "`status`: `draft` (only its organisers see it), `registration` (published: open for "
    "registration), `running` (from round 1's pairing; live notices say `top_cut` while "
    "the top cut is played), `finished`. Setting `registration` publishes the event."
)


class VenueTimeField(serializers.DateTimeField):
    """An ISO 8601 date and time. One with an offset is that instant; one without is a
    wall time at the venue, read in its zone once that is known (``EventCreate.validate``)."""

    def enforce_timezone(self, value: datetime.datetime) -> datetime.datetime:
        return value if timezone.is_naive(value) else super().enforce_timezone(value)


def _venue_time(name: str) -> VenueTimeField:
    """A deadline of the event, described as the edit page describes it."""
    return VenueTimeField(
        required=False, allow_null=True, help_text=Event._meta.get_field(name).help_text
    )


class EventCreate(serializers.ModelSerializer):
    """A new event's details: everything but ``name`` may be left out (the defaults are
    the creation page's)."""

    registration_deadline = _venue_time("registration_deadline")
    decklist_deadline = _venue_time("decklist_deadline")
    self_check_in_opens = _venue_time("self_check_in_opens")
    first_round_at = _venue_time("first_round_at")

    class Meta:
        model = Event
        fields = list(services.EDITABLE_EVENT_FIELDS)

    def validate_top_cut(self, cut: int) -> int:
        try:
            services.check_top_cut(cut)
        except ServiceError as exc:
            raise serializers.ValidationError(exc.message) from None
        return cut

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        """The fields' values; a key the page does not edit is refused by name, along with
        every other problem (a tool that sends ``seed`` learns it was not saved)."""
        names = data.keys() if hasattr(data, "keys") else ()
        unknown = {
            name: [_("%(field)s cannot be changed here.") % {"field": name}]
            for name in sorted(set(names) - set(self.fields))
        }
        try:
            values = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            raise serializers.ValidationError({**unknown, **exc.detail}) from None
        if unknown:
            raise serializers.ValidationError(unknown)
        return values

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        zone = ZoneInfo(attrs.get("time_zone") or self._venue_zone())
        problems = {}
        for name in DEADLINES:
            moment = attrs.get(name)
            if moment is None:
                continue
            try:
                if timezone.is_naive(moment):
                    moment = attrs[name] = local_time.venue_moment(moment, zone)
                moment.astimezone(datetime.UTC)  # kept in UTC: within the calendar there
            except ValueError as exc:
                problems[name] = str(exc)
            except OverflowError:
                problems[name] = self.fields[name].error_messages["overflow"]
        if problems:
            raise serializers.ValidationError(problems)
        return attrs

    def _venue_zone(self) -> str:
        """The zone the event has, or the one a new event of this organiser would get."""
        if self.instance is not None:
            return self.instance.time_zone
        return local_time.new_event_zone(self.context.get("organiser"))


class EventEdit(EventCreate):
    """The details to change (any of them, `status` too); the others stay as they are."""


def refused(serializer: serializers.Serializer) -> Response:
    """A 400 naming each field at fault (null for the body as a whole)."""
    problems = [
        FieldError(
            field=None if name == api_settings.NON_FIELD_ERRORS_KEY else name,
            message=str(message),
        )
        for name, messages in serializer.errors.items()
        for message in (messages if isinstance(messages, list) else [messages])
    ]
    return errors_response(problems)
