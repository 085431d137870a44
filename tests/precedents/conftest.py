"""Precedents kept from one event's calls, shared by the search, page and exchange tests."""

from __future__ import annotations

import pytest

from judging.calls import open_call, resolve_call
from precedents import services
from precedents.models import Precedent


def deck(*cards: tuple[str, int]) -> dict:
    return {
        "main": [{"name": name, "count": count} for name, count in cards],
        "sideboard": [],
        "cards": {name: {"syndicate": "EMB", "tier": "major"} for name, _ in cards},
    }


@pytest.fixture
def kept(make_world, organiser, judge):
    """Three precedents from one event: two deck rulings naming Ember Tithe, a cost one."""
    event = make_world(4).event

    def keep(question: str, payload: dict, resolution: str, note: str, **marks) -> Precedent:
        call = open_call(event, judge, question=question, table=1)
        call = resolve_call(
            call,
            judge,
            resolution=resolution,
            minutes=2,
            ruling={"game": "iacta", "question": payload.pop("_q"), "payload": payload},
        )
        return services.mark(call, organiser, note=note, **{"decision": "upheld", **marks})

    tithe = keep(
        "Five Ember Tithe in the main deck?",
        {"_q": "deck-legality", **deck(("Ember Tithe", 5), ("Glass Warden", 4))},
        "Game loss for the count.",
        "Counterfeit sleeves were not the issue; the fifth copy was.",
        visibility="public",
    )
    warden = keep(
        "Glass Warden in the sideboard",
        {"_q": "deck-legality", **deck(("Glass Warden", 4), ("Ash Broker", 4))},
        "Fine.",
        "Sideboard counts together with the main deck.",
        decision="overturned",
    )
    cost = keep(
        "Can an odd die pay 4+?",
        {"_q": "pay-cost", "cost": ["4+", "ODD"], "reserve": [5, 1, 3]},
        "Yes.",
        "Reserve dice pay costs in any order.",
    )
    return {"tithe": tithe, "warden": warden, "cost": cost, "event": event}
