"""What every page form does with a service's refusal."""

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
