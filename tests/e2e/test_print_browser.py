"""The organiser clicks "Print match slips", watches progress, downloads the PDF."""

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from tests.conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def paired_event(make_world, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(8, name="Print Open", judge=None).event


@pytest.mark.skipif(
    not django_settings.CELERY_TASK_ALWAYS_EAGER,
    reason="in-process printing only: with a broker, tests/integration/test_print_worker.py "
    "prints through a real worker",
)
def test_organiser_prints_match_slips_and_downloads_them(page, live_server, log_in, paired_event):
    log_in("olive", PASSWORD)
    page.goto(f"{live_server.url}/events/{paired_event.pk}/print/")
    page.locator("#print-match_slips").click()
    row = page.locator("table.print-jobs tbody tr").first
    row.locator("a.download").wait_for(timeout=60000)
    assert "Ready" in row.inner_text() and "1 page" in row.inner_text()
    with page.expect_download() as download_info:
        row.locator("a.download").click()
    path = download_info.value.path()
    with open(path, "rb") as handle:
        assert handle.read(4) == b"%PDF"


def test_the_page_follows_a_running_job_until_it_can_be_downloaded(
    page, live_server, log_in, paired_event
):
    """A job a worker is still rendering: the row polls, shows progress, then the link."""
    from django.core.files.base import ContentFile

    from printing.models import PrintJob

    job = PrintJob.objects.create(
        event=paired_event,
        kind="match_slips",
        round_number=1,
        fingerprint="x" * 64,
        status=PrintJob.Status.RUNNING,
        total_chunks=4,
        done_chunks=1,
    )
    log_in("olive", PASSWORD)
    page.goto(f"{live_server.url}/events/{paired_event.pk}/print/")
    row = page.locator(f"#job-{job.pk}")
    assert row.locator("progress").get_attribute("value") == "25"
    PrintJob.objects.filter(pk=job.pk).update(done_chunks=3)
    # A locator assertion, not wait_for_function: the page's CSP forbids evaluating strings.
    expect(row.locator("progress")).to_have_attribute("value", "75", timeout=10000)
    job.file.save("slips.pdf", ContentFile(b"%PDF-1.7\n%%EOF\n"), save=False)
    PrintJob.objects.filter(pk=job.pk).update(
        status=PrintJob.Status.DONE, done_chunks=4, pages=2, file=job.file.name
    )
    page.locator(f"#job-{job.pk} a.download").wait_for(timeout=10000)
