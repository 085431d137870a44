"""What every page form shares: a service's refusal beside its field, and the date and
time inputs a browser can read in every language."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms

from web.errors import ServiceError


def show_refusal(
    form: forms.BaseForm, exc: ServiceError, fields: Mapping[str, str] | None = None
) -> None:
    """Each refusal beside the field it names (the form's top for the rest). ``fields``
    maps a service's field to the form's where they differ (``tiebreakers`` is shown at
    the form's first tiebreaker select)."""
    for error in exc.errors:
        field = (fields or {}).get(error["field"], error["field"])
        form.add_error(field if field in form.fields else None, error["message"])


# The only values an <input type="date|datetime-local|time"> accepts, whatever the page's
# language: Django's default is the language's first input format ("04.12.2026" in
# German), which a browser shows as empty. Parsing still accepts them (Django adds the
# ISO formats to every language's input formats).
ISO_DATE = "%Y-%m-%d"
ISO_DATETIME_LOCAL = "%Y-%m-%dT%H:%M"
ISO_TIME = "%H:%M"


class DateInput(forms.DateInput):
    """A browser's date picker, its value ISO (``2026-12-04``) in every language."""

    input_type = "date"

    def __init__(self, attrs: dict | None = None) -> None:
        super().__init__(attrs, format=ISO_DATE)


class DateTimeInput(forms.DateTimeInput):
    """A browser's date-and-time picker (``2026-12-04T09:30``) in every language."""

    input_type = "datetime-local"

    def __init__(self, attrs: dict | None = None) -> None:
        super().__init__(attrs, format=ISO_DATETIME_LOCAL)


class TimeInput(forms.TimeInput):
    """A browser's time picker (``09:30``) in every language."""

    input_type = "time"

    def __init__(self, attrs: dict | None = None) -> None:
        super().__init__(attrs, format=ISO_TIME)
