"""Dataclysm has no rule for what a deck is: the metagame groups its decks by the cards
they share (docs/metagame.md), names each group by its most distinctive cards, and the
organiser can rename a group."""

from __future__ import annotations

import pytest

from arbiter.worlds import ensure_demo_pool
from decks.models import Decklist
from decks.services import save_decklist
from metagame_site import services
from tests.conftest import make_user
from tournaments.event import services as events
from tournaments.models import Event

pytestmark = pytest.mark.django_db

DRAGONS = ["DRAGON", "WYRMLING", "ELDER WYRM", "KERNEL", "PATCH", "HOTFIX", "BACKUP", "BULWARK"]
MALWARE = ["DAEMON", "TROJAN", "WORM", "BUG SWARM", "EXPLOIT", "SANDBOX", "FORK BOMB", "ROOTKIT"]
FLEX = [("PING", "CACHE"), ("CACHE", "REBOOT"), ("REBOOT", "PING")]


def decklist(core: list[str], flex: tuple[str, str]) -> str:
    """Thirty cards, three of each: eight of the archetype's, two flexible."""
    return "\n".join(f"3 {name}" for name in [*core, *flex])


def test_decks_that_share_their_cards_are_one_archetype_named_by_them(organiser):
    ensure_demo_pool("dataclysm")
    event = events.create_event(
        organiser,
        name="Data Open",
        game="dataclysm",
        status=Event.Status.REGISTRATION,
        decklists_public="all",
    )
    for i in range(6):
        entry = events.register_player(event, make_user(f"d{i}"))
        core = DRAGONS if i < 3 else MALWARE
        save_decklist(entry, decklist(core, FLEX[i % 3]), submit=True, actor=entry.user)
    assert Decklist.objects.filter(registration__event=event, status="submitted").count() == 6
    data = services.report(services.Asked(event))
    rows = {row["key"]: row for row in data["rows"]}
    assert sorted(row["players"] for row in rows.values()) == [3, 3]
    names = " ".join(rows)
    assert any(card in names for card in DRAGONS) and any(card in names for card in MALWARE)
    assert not any(card in names for pair in FLEX for card in pair)  # flex cards name nothing
    dragons = next(key for key in rows if any(card in key for card in DRAGONS))
    services.name_archetype(event, organiser, key=dragons, name="Dragons")
    renamed = services.report(services.Asked(event))
    assert "Dragons" in [row["name"] for row in renamed["rows"]]
