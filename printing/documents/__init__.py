"""Every printable document of an event: the registry of kinds and what jobs call.

Each kind is one class (see :mod:`printing.documents.base`) registered under its name;
jobs, the print page and the samples go through the functions below, which look the
kind up, check the round, and let the kind do the work:

* :func:`plan` lists the units in print order (cheap: one query; standings three);
* :func:`fingerprint` hashes exactly the data the document prints, so a reprint can
  reuse the file until something printed changes (one or two queries);
* :func:`render_units` renders some units to PDF; a kind's ``chunk`` is how many units
  a job's chunk holds. Slice plans from the start into pieces of ``chunk`` (or any
  multiple of ``units_per_page``); other slices still number pages right but leave
  part-filled pages where they meet.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

# Importing the kinds' modules registers them.
from printing.documents import (  # noqa: F401
    decklists,
    metagame,
    pairings,
    penalties,
    slips,
    standings,
)
from printing.documents.base import DocumentKind
from printing.documents.registry import all_kinds, find, get, register, unregister
from printing.render import warm_up as warm_fonts
from tournaments.event.local_time import event_times
from tournaments.models import Event

__all__ = [
    "DocumentKind",
    "all_kinds",
    "find",
    "fingerprint",
    "get",
    "needs_round",
    "plan",
    "register",
    "render_units",
    "unregister",
    "warm_up",
]


def needs_round(kind: str) -> bool:
    """Slips and pairings are per round; the rest are per event."""
    return get(kind).per_round


def plan(kind: str, event: Event, round_number: int | None) -> list[int]:
    """The units to print, in order: match ids (slips, pairings by table), registration
    ids (pairings by name, standings, decklists), or ``[0]`` for single-piece documents."""
    return _checked(kind, round_number).plan(event, round_number)


def fingerprint(kind: str, event: Event, round_number: int | None) -> str:
    """sha256 of what the document prints (with the paper, format and layout version)."""
    return _checked(kind, round_number).fingerprint(event, round_number)


def render_units(
    kind: str,
    event_id: int,
    round_number: int | None,
    units: list[int],
    language: str | None = None,
) -> bytes:
    """A PDF of just ``units`` (a chunk of :func:`plan`), to be joined with the others.

    Printed in ``language`` (a job's: a worker has no request to take one from); None
    is the active language, else the site's default.
    """
    document = _checked(kind, round_number)
    event = Event.objects.get(pk=event_id)
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    # A worker has no request: the job's language, and the venue's clock, said on the page.
    with translation.override(language), event_times(event):
        return document.render(event, round_number, units)


def warm_up() -> float:
    """Ready a worker before its first chunk (seconds taken): template engine, fonts,
    lazy imports. Call it from Celery's ``worker_process_init``; else the first chunk
    a worker renders takes a few seconds longer than the rest."""
    started = time.perf_counter()
    render_to_string("print/document.html", {"head": {"event": ""}, "page_size": "A4"})
    slips.match_url(1, 1)  # loads every URL module
    warm_fonts()
    return time.perf_counter() - started


def _checked(kind: str, round_number: int | None) -> DocumentKind:
    """The kind, refusing a per-round document asked for without its round."""
    document = get(kind)
    if document.per_round and round_number is None:
        raise ValueError(f"{document.title} are printed for a round: give its number.")
    return document
