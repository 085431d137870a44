"""Print jobs: progress, reuse of an unchanged print, failures, permissions, download."""

from io import BytesIO

import pytest
from pypdf import PdfReader

from printing import documents, jobs
from printing.models import PrintJob
from tests.conftest import refused

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def paired(make_world, media):
    """12 players, round 1 paired; jude judges."""
    return make_world(12).event


def pdf_of(job: PrintJob) -> PdfReader:
    job.refresh_from_db()
    with job.file.open("rb") as handle:
        return PdfReader(BytesIO(handle.read()))


def test_slips_are_rendered_in_chunks_and_joined(paired, organiser, monkeypatch):
    monkeypatch.setattr(documents.get("match_slips"), "pages_per_chunk", 1)  # 6 tables: 2 parts
    job, reused = jobs.request_print(paired, "match_slips", 1, organiser)
    job.refresh_from_db()
    assert not reused and job.status == PrintJob.Status.DONE
    assert (job.total_chunks, job.done_chunks, job.percent) == (2, 2, 100)
    reader = pdf_of(job)
    assert len(reader.pages) == job.pages == 2  # six slips, four to a page
    text = "".join(page.extract_text() for page in reader.pages)
    for match in paired.rounds.get(number=1).matches.select_related("player_a__user"):
        assert match.player_a.display_name in text


def test_printing_again_reuses_the_file_unless_the_data_changed(paired, organiser):
    first, _ = jobs.request_print(paired, "match_slips", 1, organiser)
    again, reused = jobs.request_print(paired, "match_slips", 1, organiser)
    assert reused and again.pk == first.pk
    match = paired.rounds.get(number=1).matches.order_by("table").first()
    match.extension_minutes = 4  # a judge granted time: the slip must show it
    match.save()
    changed, reused = jobs.request_print(paired, "match_slips", 1, organiser)
    assert not reused and changed.pk != first.pk


def test_a_failure_is_reported_on_the_job(paired, organiser, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("printer on fire")

    monkeypatch.setattr(documents, "render_units", broken)
    with pytest.raises(RuntimeError):
        jobs.request_print(paired, "match_slips", 1, organiser)
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.FAILED
    assert "printer on fire" in job.error and "part 1" in job.error


def test_unknown_document_and_missing_round_are_refused(paired, organiser):
    with refused("Unknown document"):
        jobs.request_print(paired, "posters", None, organiser)
    with refused("Round 7 is not paired"):
        jobs.request_print(paired, "match_slips", 7, organiser)


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("judge", 200), ("organiser", 200)])
def test_print_page_is_for_staff(client, paired, judge, organiser, who, status):
    users = {"player": paired.registrations.first().user, "judge": judge, "organiser": organiser}
    client.force_login(users[who])
    response = client.get(f"/events/{paired.pk}/print/")
    assert response.status_code == status
    assert ('id="print-match_slips"' in response.content.decode()) == (status == 200)
    assert ("organiser or judges may open" in response.content.decode()) == (status == 403)


def test_organiser_prints_slips_and_downloads_them(client, paired, organiser):
    client.force_login(organiser)
    response = client.post(
        f"/events/{paired.pk}/print/new/", {"kind": "match_slips", "round": "1"}, follow=True
    )
    job = PrintJob.objects.get()
    assert f'id="job-{job.pk}"' in response.content.decode()
    row = client.get(f"/events/{paired.pk}/print/jobs/{job.pk}/").content.decode()
    assert "Download PDF" in row and "hx-trigger" not in row  # done: polling stops
    download = client.get(f"/events/{paired.pk}/print/jobs/{job.pk}/download/")
    assert download["Content-Type"] == "application/pdf"
    assert b"".join(download.streaming_content).startswith(b"%PDF")
