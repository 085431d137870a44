"""The series' PDF (issue 32): rendered by a worker, never inside the request; the request
serves the file once it is there, in the asker's language, and a new one when the
standings change."""

from __future__ import annotations

import io
import uuid

import pytest
from django.core.files.storage import default_storage
from pypdf import PdfReader

from printing import render
from series import printing as series_printing
from tests.conftest import finished_event, make_user
from tests.series.test_series import make_series

pytestmark = pytest.mark.django_db


@pytest.fixture
def series(organiser, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    people = [make_user(n) for n in ("ada", "bo", "cy", "di")]
    week = finished_event(organiser, people, "Week 1", rounds_played=2, seed=11)
    # A name of its own: "being prepared" is kept in the cache, which outlives a test.
    return make_series(organiser, [week], name=f"Winter League {uuid.uuid4().hex[:8]}")


@pytest.fixture
def sent(monkeypatch):
    """The tasks sent to the workers (none runs), and no rendering in this process."""
    calls: list[tuple] = []

    def send(args, **options):
        calls.append((args, options))

    def no_rendering_here(*args, **kwargs):
        raise AssertionError("the request rendered the PDF itself")

    monkeypatch.setattr(series_printing.render_series_pdf, "apply_async", send)
    monkeypatch.setattr(render, "render_pdf", no_rendering_here)
    return calls


def test_the_request_sends_the_pdf_to_a_worker_and_says_it_is_being_prepared(
    client, series, sent, settings
):
    url = f"/series/{series.pk}/standings.pdf"
    first = client.get(url)
    assert first.status_code == 202
    assert "being prepared" in first.content.decode()
    assert sent == [((series.pk, "en"), {"queue": settings.PRINT_SMALL_QUEUE})]
    client.get(url)  # asked again while it renders: the same task, not a second one
    assert len(sent) == 1


def test_the_workers_file_is_served_with_its_title(client, series, monkeypatch):
    path = series_printing.render_series_pdf.run(series.pk, "en")  # as the worker runs it
    assert path.endswith(".pdf")
    monkeypatch.setattr(render, "render_pdf", lambda *a: pytest.fail("rendered again"))
    response = client.get(f"/series/{series.pk}/standings.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = PdfReader(io.BytesIO(b"".join(response.streaming_content)))
    assert pdf.metadata.title == f"{series.name} · Series standings"


def test_changed_standings_make_a_new_file_and_drop_the_old(client, series, monkeypatch):
    sent = []
    old = series_printing.render_series_pdf.run(series.pk, "en")
    monkeypatch.setattr(
        series_printing.render_series_pdf, "apply_async", lambda *a, **k: sent.append(a)
    )
    series.name = series.name.replace("Winter", "Spring")
    series.save()
    assert client.get(f"/series/{series.pk}/standings.pdf").status_code == 202  # not the old
    assert len(sent) == 1
    new = series_printing.render_series_pdf.run(series.pk, "en")
    assert new != old
    assert default_storage.exists(new) and not default_storage.exists(old)
