"""Every form the project's form template renders links each field to its help text and
its errors: ``aria-describedby`` names ids that are on the page, and every help text is
named by its field, so a screen reader reads the hint with the field."""

import re

import pytest

from tests.conftest import make_event

pytestmark = pytest.mark.django_db

TAG = re.compile(r"<(input|select|textarea)\b[^>]*>", re.S)


def check_descriptions(html: str, path: str) -> int:
    """Each described field's ids exist; returns how many fields are described."""
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    described = 0
    for tag in TAG.finditer(html):
        names = re.search(r'aria-describedby="([^"]*)"', tag.group(0))
        if not names:
            continue
        described += 1
        for name in names.group(1).split():
            assert name in ids, f"{path}: {tag.group(0)[:120]} points at missing #{name}"
    return described


@pytest.fixture
def form_pages(client, organiser):
    event = make_event(organiser, 0, name="Help Open")
    return {
        None: ["/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"],
        organiser: [
            "/accounts/password_change/",
            "/events/new/",
            f"/events/{event.pk}/edit/",
            "/series/new/",
        ],
    }


def test_every_form_fields_help_and_errors_are_linked(client, form_pages):
    described = 0
    for user, paths in form_pages.items():
        if user is not None:
            client.force_login(user)
        for path in paths:
            response = client.get(path)
            assert response.status_code == 200, path
            described += check_descriptions(response.content.decode(), path)
            # The same form sent empty: its errors are described too.
            sent = client.post(path, {})
            if sent.status_code == 200:
                html = sent.content.decode()
                described += check_descriptions(html, f"{path} (errors)")
    assert described >= 8


def test_the_event_forms_help_text_is_read_with_its_field(client, organiser):
    client.force_login(organiser)
    html = client.get("/events/new/").content.decode()
    select = re.search(r'<select name="time_zone"[^>]*>', html).group(0)
    (helped,) = re.findall(r'aria-describedby="([^"]+)"', select)
    hint = re.search(rf'id="{helped}"[^>]*>(.*?)</', html, re.S)
    assert hint and "clocks, deadlines, slips and logs" in hint.group(1)

    sent = client.post("/events/new/", {"name": ""}).content.decode()
    name = re.search(r'<input[^>]*name="name"[^>]*>', sent).group(0)
    assert 'aria-invalid="true"' in name
    (named,) = re.findall(r'aria-describedby="([^"]+)"', name)
    error = re.search(rf'id="{named}"[^>]*>(.*?)</', sent, re.S)
    assert error and "required" in error.group(1)
