"""A table's time extension on its printed match slip: the judge's grant, in the box
the players and the floor judge read ("Time extension: +5 min"); a removed one is gone."""

import io

import pytest
from pypdf import PdfReader

from printing import documents
from tournaments.clock import extensions as clock

pytestmark = pytest.mark.django_db


def slip_text(event, match) -> str:
    pdf = documents.render_units("match_slips", event.pk, 1, [match.pk])
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_a_granted_extension_is_printed_on_that_tables_slip(make_world, judge):
    world = make_world(4, started=True)
    first, second = world.table(1), world.table(2)
    clock.grant_extension(first, 5, "Deck check", judge)
    assert "Time extension: +5 min" in slip_text(world.event, first)
    assert "Time extension" not in slip_text(world.event, second)


def test_a_removed_extension_leaves_the_slip(make_world, judge):
    world = make_world(4, started=True)
    table = world.table(1)
    kept = clock.grant_extension(table, 5, "Deck check", judge)
    wrong = clock.grant_extension(table, 4, "Wrong table", judge)
    clock.remove_extension(wrong, judge, "Granted by mistake")
    html, _ = documents.get("match_slips").document(world.event, 1, [table.pk])
    assert "Time extension: +5 min" in html and kept.is_standing
