"""A series' standings on paper, rendered by the Celery workers like the events' prints.

Laying out a season's table with CJK names takes seconds, too long for a request: the page
asks for the PDF, a worker renders it (``render_series_pdf``) and stores it under a
fingerprint of what it shows (the table, the rule, the paper, the language), and every
request for the same standings is then served that file. Until it is there the page says
it is being prepared. The first file of a fingerprint is kept; older ones of the series are
removed once a newer one is written.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.template.loader import render_to_string
from django.utils import timezone, translation
from redis.exceptions import RedisError

from series.models import Series
from series.standings import SeriesTable, series_table

FOLDER = "prints/series"
STATE_SECONDS = 10 * 60  # how long "queued" holds: a lost task is sent again after it
QUEUED, FAILED = "queued", "failed"


@dataclass(frozen=True)
class SeriesPrint:
    """Where a series' PDF is (or will be), and how far it got."""

    series_id: int
    language: str
    fingerprint: str
    state: str  # "ready", QUEUED or FAILED

    @property
    def path(self) -> str:
        return pdf_path(self.series_id, self.language, self.fingerprint)


def pdf_path(series_id: int, language: str, fingerprint: str) -> str:
    return f"{FOLDER}/{series_id}/{language}-{fingerprint}.pdf"


def _state_key(series_id: int, fingerprint: str) -> str:
    return f"series-pdf:{series_id}:{fingerprint}"


def page_size(table: SeriesTable) -> str:
    return "A4 landscape" if len(table.counted) > 6 else "A4"


def print_context(table: SeriesTable) -> dict:
    """What series/print.html shows: the same for the worker as for the page."""
    from series.views import rule_words  # the page's sentence, one wording for both

    return {
        "series": table.series,
        "table": table,
        "rows": [
            {"row": row, "cells": [row.score_in(event.pk) for event in table.counted]}
            for row in table.rows
        ],
        "rule_words": rule_words(table.series),
        "page_size": page_size(table),
    }


def fingerprint(table: SeriesTable, language: str) -> str:
    """A digest of everything the printed page shows but its printing time."""
    context = print_context(table)
    shown = {
        "series": [table.series.pk, table.series.name, context["rule_words"]],
        "events": [[e.pk, e.name, str(e.date)] for e in table.counted],
        "rows": [
            [
                r["row"].rank,
                r["row"].name,
                r["row"].total,
                [None if c is None else [c.points, c.counted] for c in r["cells"]],
            ]
            for r in context["rows"]
        ],
        "paper": context["page_size"],
        "language": language,
    }
    text = json.dumps(shown, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def request_pdf(series: Series) -> SeriesPrint:
    """The PDF of the series' standings now, in the active language: ready, or sent to a
    worker (once: a second request while it renders waits for the same task)."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    digest = fingerprint(series_table(series), language)
    path = pdf_path(series.pk, language, digest)
    if default_storage.exists(path):
        return SeriesPrint(series.pk, language, digest, "ready")
    key = _state_key(series.pk, digest)
    state = cache.get(key)
    if state and state.startswith(FAILED):
        cache.delete(key)  # said once; asking again tries again
        return SeriesPrint(series.pk, language, digest, FAILED)
    if state is None and cache.add(key, QUEUED, STATE_SECONDS):
        try:
            render_series_pdf.apply_async((series.pk, language), queue=settings.PRINT_SMALL_QUEUE)
        except (OSError, RedisError):
            cache.delete(key)
    ready = default_storage.exists(path)  # done already (tasks run in-process, eagerly)
    return SeriesPrint(series.pk, language, digest, "ready" if ready else QUEUED)


@shared_task(name="series.render_pdf", acks_late=True, reject_on_worker_lost=True)
def render_series_pdf(series_id: int, language: str) -> str:
    """Render the series' standings as they are now, in ``language``, and store the file."""
    from printing.render import render_pdf

    series = Series.objects.filter(pk=series_id).first()
    if series is None:
        return ""
    with translation.override(language):
        table = series_table(series)
        digest = fingerprint(table, language)
        path = pdf_path(series_id, language, digest)
        try:
            html = render_to_string(
                "series/print.html", {**print_context(table), "printed_at": timezone.now()}
            )
            pdf = render_pdf(html)
        except Exception as exc:
            cache.set(_state_key(series_id, digest), f"{FAILED}: {exc}", STATE_SECONDS)
            raise
    if not default_storage.exists(path):
        default_storage.save(path, ContentFile(pdf))
    _remove_older(series_id, language, keep=path)
    cache.delete(_state_key(series_id, digest))
    return path


def _remove_older(series_id: int, language: str, keep: str) -> None:
    """The series' earlier PDFs in ``language``: their standings have changed since."""
    folder = f"{FOLDER}/{series_id}"
    try:
        _dirs, files = default_storage.listdir(folder)
    except (FileNotFoundError, NotImplementedError):
        return
    for name in files:
        path = f"{folder}/{name}"
        if name.startswith(f"{language}-") and path != keep:
            default_storage.delete(path)
