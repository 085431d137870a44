"""A new print document is one class: register it and jobs, the print page and the
fingerprint take it up with no other edit."""

from io import BytesIO

import pytest
from pypdf import PdfReader

from printing import documents, jobs
from printing.documents.base import DASH, PagedList, event_head, person
from printing.models import PrintJob
from tests.tournaments.test_round_lifecycle import make_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

ROLL_CALL_TEMPLATE = """{% extends "print/document.html" %}
{% block body %}{% for page in pages %}<div class="page">
{% include "print/_page_head.html" %}
{% for r in page.rows %}<p>{{ r.name }} {{ r.number }}</p>{% endfor %}
</div>{% endfor %}{% endblock %}
"""


class RollCall(PagedList):
    """Every registered player by registration, five a page (so 12 players: 3 chunks)."""

    name = "roll_call"
    title = "Roll call"
    units_per_page = 5
    pages_per_chunk = 1

    def rows(self, event, round_number, units):
        registrations = event.registrations.select_related("user").order_by("pk")
        return event_head(event), [{"unit": r.pk, **person(r)} for r in registrations]

    def page_range(self, rows):
        return f"{rows[0]['name']} {DASH} {rows[-1]['name']}"


@pytest.fixture
def roll_call(settings, tmp_path):
    """The throwaway kind, registered (and its template findable) for one test only."""
    folder = tmp_path / "templates" / "print"
    folder.mkdir(parents=True)
    (folder / "roll_call.html").write_text(ROLL_CALL_TEMPLATE)
    settings.TEMPLATES = [
        {**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], tmp_path / "templates"]}
    ]
    settings.MEDIA_ROOT = tmp_path / "media"
    documents.register(RollCall)
    try:
        yield documents.get("roll_call")
    finally:
        documents.unregister("roll_call")


def test_a_registered_kind_prints_end_to_end_in_chunks(roll_call, organiser, client):
    event = make_event(organiser, 12, name="Roll Call Open")
    client.force_login(organiser)
    page = client.get(f"/events/{event.pk}/print/").content.decode()
    assert 'id="print-roll_call"' in page and "Print roll call" in page

    response = client.post(f"/events/{event.pk}/print/new/", {"kind": "roll_call"}, follow=True)
    assert "Printing roll call" in response.content.decode()
    job = PrintJob.objects.get(kind="roll_call")
    assert job.status == PrintJob.Status.DONE and job.round_number is None
    assert (job.total_chunks, job.done_chunks, job.pages) == (3, 3, 3)  # 12 players, 5 a page
    with job.file.open("rb") as handle:
        texts = [p.extract_text() for p in PdfReader(BytesIO(handle.read())).pages]
    assert [text.count("Roll call") for text in texts] == [1, 1, 1]
    assert "Page 3 of 3" in texts[2]
    for registration in event.registrations.select_related("user"):
        assert f"{registration.display_name} {registration.player_number}" in "".join(texts)
    row = client.get(f"/events/{event.pk}/print/jobs/{job.pk}/").content.decode()
    assert "Roll call" in row and "Download PDF" in row


def test_a_registered_kind_reuses_its_print_until_what_it_prints_changes(roll_call, organiser):
    event = make_event(organiser, 4, name="Reuse Open")
    first, reused = jobs.request_print(event, "roll_call", None, organiser)
    assert not reused
    again, reused = jobs.request_print(event, "roll_call", None, organiser)
    assert reused and again.pk == first.pk
    player = event.registrations.order_by("pk").first()
    player.name = "Renamed Player"
    player.save()
    changed, reused = jobs.request_print(event, "roll_call", None, organiser)
    assert not reused and changed.pk != first.pk


def test_an_unregistered_kind_is_gone_and_a_name_is_taken_once(roll_call):
    with pytest.raises(ValueError, match="registered twice"):
        documents.register(RollCall)
    documents.unregister("roll_call")
    assert documents.find("roll_call") is None
    assert "roll_call" not in [kind.name for kind in documents.all_kinds()]
    with pytest.raises(ValueError, match="Unknown print document 'roll_call'"):
        documents.plan("roll_call", None, None)
