"""Ruling precedents, the first part (issue 35): a resolved call's engine ruling kept as a
precedent by the event's organiser or head judge, with players' names taken out, the
cards and rules it is about read from the ruling itself, and an appeal kept with it."""

from __future__ import annotations

import pytest

from judging.calls import open_call, resolve_call
from judging.models import JudgeAssignment
from precedents import extract, services
from precedents.models import Precedent
from precedents.signals import precedent_changed
from tests.conftest import make_user
from tournaments.models import EventLog, EventRole

DECK = {
    "main": [{"name": "Ember Tithe", "count": 4}, {"name": "Glass Warden", "count": 5}],
    "sideboard": [{"name": "Ash Broker", "count": 2}],
    "cards": {
        "Ember Tithe": {"syndicate": "EMB", "tier": "major"},
        "Glass Warden": {"syndicate": "EMB", "tier": "major"},
        "Ash Broker": {"syndicate": None, "tier": "neutral"},
    },
}


@pytest.fixture
def hall(make_world):
    world = make_world(4)
    return world.event, world.table(1)


@pytest.fixture
def ruled(hall, judge):
    """A call at table 1 answered with the engine's deck-legality ruling, naming a player."""
    event, table = hall
    name = table.player_a.display_name
    call = open_call(event, judge, question=f"Is {name}'s deck legal?", table=1)
    return resolve_call(
        call,
        judge,
        resolution="Five copies of Glass Warden: game loss.",
        minutes=3,
        ruling={"game": "iacta", "question": "deck-legality", "payload": DECK},
    )


def test_the_organiser_keeps_a_ruling_with_its_cards_rules_and_no_player_names(
    ruled, organiser, hall, django_capture_on_commit_callbacks
):
    event, table = hall
    heard = []
    precedent_changed.connect(lambda **kw: heard.append(kw), weak=False, dispatch_uid="t1")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            kept = services.mark(
                ruled,
                organiser,
                decision=Precedent.Decision.UPHELD,
                note=f"Told {table.player_a.display_name} to fix the count.",
            )
    finally:
        precedent_changed.disconnect(dispatch_uid="t1")
    assert kept.cards == ["Ember Tithe", "Glass Warden", "Ash Broker"]
    assert kept.rules and all(isinstance(rule, str) for rule in kept.rules)
    assert kept.rules == extract.rules_cited(ruled.ruling_answer)
    name = table.player_a.display_name
    assert name not in kept.asked and name not in kept.note
    assert kept.asked == "Is Player A's deck legal?"
    assert kept.note == "Told Player A to fix the count."
    assert (kept.event, kept.event_name, kept.round_number) == (event, event.name, 1)
    assert kept.ruled_by == "jude" and kept.game == "iacta" and kept.question == "deck-legality"
    assert heard and heard[0]["precedent_id"] == kept.pk and heard[0]["action"] == "marked"
    assert EventLog.objects.filter(event=event, action="precedent").count() == 1


def test_marking_again_updates_the_same_precedent(ruled, organiser):
    first = services.mark(ruled, organiser, decision="upheld")
    again = services.mark(
        ruled, organiser, decision="overturned", status="avoid", visibility="public", note="No."
    )
    assert again.pk == first.pk and Precedent.objects.count() == 1
    assert (again.decision, again.status, again.visibility) == ("overturned", "avoid", "public")


def test_the_head_judge_may_and_a_floor_judge_may_not(ruled, hall, judge):
    event, _ = hall
    with pytest.raises(services.NotAllowed):
        services.mark(ruled, judge, decision="upheld")
    head = make_user("hedda")
    EventRole.objects.create(event=event, user=head, role=EventRole.Role.JUDGE)
    JudgeAssignment.objects.create(event=event, user=head, role=JudgeAssignment.Role.HEAD)
    assert services.mark(ruled, head, decision="upheld").marked_by == head


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"decision": "maybe"}, "decision"),
        ({"decision": "upheld", "status": "later"}, "status"),
        ({"decision": "upheld", "visibility": "world"}, "visibility"),
        ({"decision": "upheld", "note": "x" * 2001}, "note"),
    ],
)
def test_a_wrong_choice_is_refused_naming_the_field(ruled, organiser, fields, field):
    with pytest.raises(services.ServiceError) as refused:
        services.mark(ruled, organiser, **fields)
    assert refused.value.errors[0]["field"] == field
    assert not Precedent.objects.exists()


def test_an_open_call_or_one_without_an_engine_ruling_is_not_a_precedent(hall, judge, organiser):
    event, _ = hall
    call = open_call(event, judge, question="Q", table=1)
    with pytest.raises(services.ServiceError, match="Resolve the call first"):
        services.mark(call, organiser, decision="upheld")
    plain = resolve_call(call, judge, resolution="Play on.", minutes=1)
    with pytest.raises(services.ServiceError, match="no rules-engine ruling"):
        services.mark(plain, organiser, decision="upheld")
    assert not Precedent.objects.exists()


def test_an_appeal_is_kept_with_the_precedent(ruled, organiser, hall):
    _, table = hall
    kept = services.mark(ruled, organiser, decision="upheld")
    appealed = services.record_appeal(
        kept, organiser, upheld=False, note=f"{table.player_b.display_name} appealed: overturned."
    )
    assert appealed.appeal_upheld is False
    assert appealed.appeal.startswith("Player A appealed")
    with pytest.raises(services.ServiceError, match="Write what the appeal decided"):
        services.record_appeal(kept, organiser, upheld=True, note=" ")


def test_card_names_are_found_wherever_the_contract_puts_them():
    payload = {
        "jack": {"card": "JH", "tapped": False},
        "gems": [{"card": "3H"}, {"card": "4D"}],
        "cards": ["2H", "3H"],
        "registered": {"main": [{"name": "Card A", "count": 3}], "sideboard": []},
    }
    assert extract.cards_named(payload) == ["JH", "3H", "4D", "2H", "Card A"]
    assert extract.cards_named({"seconds": 200}) == []


def test_names_become_letters_in_the_order_met_and_stay_the_same():
    hide = extract.Anonymiser(["Ann Lee", "Bo", "ann lee"])
    text = hide.text("Bo asked; ann lee said no. Bo appealed (Boston unaffected).")
    assert text == "Player A asked; Player B said no. Player A appealed (Boston unaffected)."
    assert hide.value({"Bo": ["Ann Lee"]}) == {"Player A": ["Player B"]}
