"""Printed slips, decklist sheets and standings name a player by their short number in
the event ("#3"), never by the internal id the API and exports use ("r29")."""

import re

import pytest

from decks.models import Decklist
from tests.printing.test_layouts import pages_text, render_all
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

INTERNAL_ID = re.compile(r"\br\d+\b")


@pytest.fixture
def paired_event(make_world):
    world = make_world(8, name="Number Cup", decklists=True)
    Decklist.objects.filter(registration__event=world.event).update(
        status=Decklist.Status.SUBMITTED
    )
    return world.event


@pytest.mark.parametrize(("kind", "number"), [("match_slips", 1), ("decklists", None)])
def test_prints_show_player_numbers_not_internal_ids(paired_event, kind, number):
    text = "\n".join(pages_text(render_all(kind, paired_event, number)))
    assert not INTERNAL_ID.search(text), INTERNAL_ID.search(text)
    for registration in Registration.objects.filter(event=paired_event):
        assert f"#{registration.number}" in text


def test_the_blank_decklist_form_asks_for_the_player_number(paired_event):
    text = "\n".join(pages_text(render_all("decklist_blank", paired_event, None)))
    assert "Player number" in text and "Player ID" not in text
