"""Every date, date-and-time and time input carries an ISO value in every language: a
browser reads only ``YYYY-MM-DD`` (``YYYY-MM-DDTHH:MM``, ``HH:MM``) and shows anything
else as empty. A German organiser who edits an event keeps its date and deadlines."""

import datetime
import importlib
import re
from pathlib import Path

import pytest
from django import forms
from django.utils import translation

from tests.conftest import make_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db

ISO = {
    "date": re.compile(r"^\d{4}-\d{2}-\d{2}$"),
    "datetime-local": re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$"),
    "time": re.compile(r"^\d{2}:\d{2}(:\d{2})?$"),
}
INPUT = re.compile(r"<input\b[^>]*>", re.S)
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')


def dated_inputs(html: str) -> list[dict[str, str]]:
    """Each date, datetime-local or time input of the page, as its attributes."""
    found = []
    for tag in INPUT.findall(html):
        attributes = dict(ATTRIBUTE.findall(tag))
        if attributes.get("type") in ISO:
            found.append(attributes)
    return found


@pytest.fixture
def dated_event(organiser):
    return make_event(
        organiser,
        0,
        name="Winter Open",
        date=datetime.date(2026, 12, 4),
        time_zone="Europe/Berlin",
        registration_deadline=datetime.datetime(2026, 12, 3, 17, 0, tzinfo=datetime.UTC),
        decklist_deadline=datetime.datetime(2026, 12, 4, 8, 30, tzinfo=datetime.UTC),
        self_check_in_opens=datetime.datetime(2026, 12, 4, 7, 45, tzinfo=datetime.UTC),
        first_round_at=datetime.datetime(2026, 12, 4, 9, 0, tzinfo=datetime.UTC),
    )


def form_pages(event: Event) -> list[str]:
    """Every page of the site whose form has a date or time input."""
    return ["/events/new/", f"/events/{event.pk}/edit/"]


@pytest.mark.parametrize("language", ["en", "ja", "de"])
def test_every_date_input_carries_an_iso_value_in_every_language(
    client, organiser, dated_event, language
):
    client.force_login(organiser)
    for path in form_pages(dated_event):
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, path
        assert response["Content-Language"] == language
        inputs = dated_inputs(response.content.decode())
        assert inputs, f"{path} has no date input"
        for attributes in inputs:
            value = attributes.get("value")
            if value is None and path == "/events/new/":
                continue  # a new event's deadlines start empty
            assert value is not None, f"{path} {attributes.get('name')}: no value"
            assert ISO[attributes["type"]].match(value), (
                f"{path} in {language}: {attributes.get('name')} has value {value!r}"
            )
    edit = client.get(f"/events/{dated_event.pk}/edit/", HTTP_ACCEPT_LANGUAGE=language)
    values = {a["name"]: a.get("value") for a in dated_inputs(edit.content.decode())}
    # The deadlines are shown as the venue's wall time (Berlin, UTC+01:00 in December).
    assert values == {
        "date": "2026-12-04",
        "registration_deadline": "2026-12-03T18:00",
        "decklist_deadline": "2026-12-04T09:30",
        "self_check_in_opens": "2026-12-04T08:45",
        "first_round_at": "2026-12-04T10:00",
    }


def test_a_german_organiser_saves_the_iso_date_the_browser_sends(client, organiser, dated_event):
    client.force_login(organiser)
    page = client.get(f"/events/{dated_event.pk}/edit/", HTTP_ACCEPT_LANGUAGE="de")
    sent = {}
    for tag in INPUT.findall(page.content.decode()):
        attributes = dict(ATTRIBUTE.findall(tag))
        if attributes.get("name") and attributes.get("type") != "checkbox":
            sent[attributes["name"]] = attributes.get("value", "")
    for select in re.finditer(r'<select name="(\w+)".*?</select>', page.content.decode(), re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(0))
        sent[select.group(1)] = chosen.group(1) if chosen else ""
    sent.update(
        date="2026-12-11",
        registration_deadline="2026-12-10T18:00",
        decklist_deadline="2026-12-11T09:30",
    )
    response = client.post(f"/events/{dated_event.pk}/edit/", sent, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302, response.content.decode()[:2000]
    dated_event.refresh_from_db()
    assert dated_event.date == datetime.date(2026, 12, 11)
    assert dated_event.registration_deadline == datetime.datetime(
        2026, 12, 10, 17, 0, tzinfo=datetime.UTC
    )
    assert dated_event.decklist_deadline == datetime.datetime(
        2026, 12, 11, 8, 30, tzinfo=datetime.UTC
    )


PROJECT_APPS = {"tournaments", "series", "accounts", "decks", "judging", "printing", "web"}


def project_forms() -> list[type[forms.BaseForm]]:
    """Every form class the project's own apps define."""
    for module in (
        "tournaments.pages.forms",
        "series.forms",
        "accounts.forms",
        "decks.card_views",
    ):
        importlib.import_module(module)
    seen, todo = [], [forms.BaseForm]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.split(".")[0] in PROJECT_APPS:
                seen.append(sub)
    return seen


def test_every_project_form_renders_its_dates_in_iso_in_german():
    """A form added later with a date input is held to the same rule."""
    moment = datetime.datetime(2026, 12, 4, 9, 30)
    with translation.override("de"):
        for form_class in project_forms():
            for name, field in getattr(form_class, "base_fields", {}).items():
                widget = field.widget
                kind = getattr(widget, "input_type", None)
                if kind not in ISO:
                    continue
                value = moment.date() if kind == "date" else moment
                value = moment.time() if kind == "time" else value
                html = widget.render(name, value)
                (attributes,) = dated_inputs(html)
                assert ISO[kind].match(attributes["value"]), (
                    f"{form_class.__name__}.{name}: {attributes['value']!r}"
                )


def test_no_template_writes_a_date_input_by_hand():
    """Date inputs come from the forms' ISO widgets (checked above), never typed into a
    template, where a value would be formatted in the page's language."""
    templates = Path(__file__).resolve().parents[2] / "templates"
    by_hand = [
        f"{path.relative_to(templates)}: {kind}"
        for path in templates.rglob("*.html")
        for kind in re.findall(r'type="(date|datetime-local|time|month|week)"', path.read_text())
    ]
    assert not by_hand
