"""Issue 32: a printed document keeps its title (the HTML <title>) once its chunks are
joined, so a viewer's tab and a screen reader name it, not "Untitled"."""

from io import BytesIO

import pytest
from pypdf import PdfReader

from printing import documents, jobs

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def paired(make_world, settings, tmp_path):
    """12 players, round 1 paired."""
    settings.MEDIA_ROOT = tmp_path
    return make_world(12).event


@pytest.mark.parametrize(
    ("kind", "words"),
    [("match_slips", "Match slips"), ("pairings_by_table", "Pairings by table")],
)
def test_a_joined_print_keeps_its_title_and_language(paired, organiser, monkeypatch, kind, words):
    # One page a chunk: the six slips' two pages are two chunks, joined.
    monkeypatch.setattr(documents.get(kind), "pages_per_chunk", 1)
    job, _ = jobs.request_print(paired, kind, 1, organiser)
    job.refresh_from_db()
    assert job.status == job.Status.DONE
    with job.file.open("rb") as handle:
        pdf = PdfReader(BytesIO(handle.read()))
    title = pdf.metadata.title
    assert title.startswith(paired.name) and title.endswith(words), title
    assert pdf.trailer["/Root"]["/Lang"] == "en"
    assert pdf.trailer["/Root"]["/ViewerPreferences"]["/DisplayDocTitle"]
