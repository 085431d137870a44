"""Each game's tournament vocabulary comes from its own rules package (rules_engine.tournament).

Iacta's is its own 900-series; Superjack and Dataclysm have no penalty rules in their
texts, so each package adopts Iacta's in one declaration that says why, and every
escalation ruling for their events says whose rules apply.
"""

import re
from pathlib import Path

import pytest

import rules_engine
from rules_engine import NoSideboardRules, TournamentRules, UnknownGame, adjudicate, rules_for
from rules_engine.dataclysm import tournament as dataclysm_tournament
from rules_engine.iacta import tournament as iacta_tournament
from rules_engine.superjack import tournament as superjack_tournament
from rules_engine.tournament import GAME_LOSS, every_infraction

TEXTS = Path(rules_engine.__file__).parent / "texts"
THREE_SLOW = [{"player": "A", "infraction": "slow_play", "game": 1}] * 3
ADOPTERS = [("superjack", superjack_tournament), ("dataclysm", dataclysm_tournament)]


def text(name: str) -> str:
    return (TEXTS / name).read_text(encoding="utf-8")


def test_iacta_answers_with_its_own_900_series_unchanged():
    rules = rules_for("iacta")
    assert rules is iacta_tournament.TOURNAMENT
    assert rules.adopted_from is None
    assert rules.infractions is iacta_tournament.INFRACTIONS
    assert rules.source == "Iacta comprehensive rules, 900-series"
    ruling = rules.penalties(THREE_SLOW)
    contract = adjudicate("iacta", "penalties", {"penalties": THREE_SLOW})
    assert ruling == {**contract, "tournament_rules": rules.source}
    assert ruling["explanation"] == contract["explanation"]  # no preamble for Iacta itself


@pytest.mark.parametrize(("game", "package"), ADOPTERS)
def test_a_game_without_penalty_rules_declares_it_adopts_iactas(game, package):
    rules = rules_for(game)
    assert rules is package.TOURNAMENT  # declared in the game's own package, in one place
    assert rules.game == game
    assert rules.adopted_from == "iacta"
    assert rules.source == "Iacta comprehensive rules, 900-series"
    assert "has no penalty rules of its own" in rules.why
    assert dict(rules.infractions) == dict(iacta_tournament.INFRACTIONS)
    assert rules.rule_of("slow_play") == "904.4"


@pytest.mark.parametrize(("game", "package"), ADOPTERS)
def test_an_adopting_games_escalation_says_whose_rules_apply(game, package):
    ruling = rules_for(game).penalties(THREE_SLOW)
    iacta = adjudicate("iacta", "penalties", {"penalties": THREE_SLOW})
    assert ruling["consequences"] == iacta["consequences"]
    assert ruling["consequences"][0]["result"] == GAME_LOSS
    assert ruling["consequences"][0]["rule"] == "905.1"
    assert ruling["citations"] == iacta["citations"]
    assert ruling["tournament_rules"] == "Iacta comprehensive rules, 900-series"
    lead = f"{game.capitalize()} events follow the Iacta comprehensive rules, 900-series: "
    assert ruling["explanation"].startswith(lead)
    assert ruling["explanation"].endswith(iacta["explanation"])


@pytest.mark.parametrize(("game", "package"), ADOPTERS)
def test_an_adopting_game_has_no_sideboard_rule(game, package):
    assert rules_for("iacta").sideboard is not None
    assert rules_for(game).sideboard is None
    with pytest.raises(NoSideboardRules):
        rules_for(game).sideboard_swap({})


@pytest.mark.parametrize(
    ("name", "package"),
    [("superjack-rules.txt", superjack_tournament), ("dataclysm-rules.txt", dataclysm_tournament)],
)
def test_the_adoption_rests_on_what_the_texts_say(name, package):
    """The game's text names no penalty, and every sentence the declaration quotes is in
    the game's text or in Iacta's (the 902 wording it declines)."""
    own = text(name).lower()
    for word in ("penalt", "infraction", "warning", "disqualif", "game loss", "match loss"):
        assert word not in own, word
    assert "judge" not in own and "tournament" not in own
    quoted = re.findall(r'"([^"]+)"', package.__doc__)
    assert len(quoted) >= 4
    sources = " ".join((text(name) + text("iacta-comprehensive-rules.txt")).split())
    for sentence in quoted:
        assert " ".join(sentence.split()) in sources, sentence


def test_adoption_is_not_a_new_question_in_the_public_catalogue():
    """The adjudication contract is unchanged: only Iacta answers ``penalties``."""
    for game in ("superjack", "dataclysm"):
        slugs = [q.slug for q in rules_engine.questions(game)]
        assert "penalties" not in slugs and "sideboard-swap" not in slugs
    assert "penalties" in [q.slug for q in rules_engine.questions("iacta")]


def test_every_infraction_is_the_union_in_the_games_order():
    assert every_infraction() == {k: rule for k, (rule, _) in iacta_tournament.INFRACTIONS.items()}


def test_an_unknown_game_has_no_tournament_rules():
    with pytest.raises(UnknownGame):
        rules_for("chess")


def test_rules_leading_to_a_consequence_the_site_cannot_apply_are_refused():
    with pytest.raises(ValueError, match="unknown consequences"):
        TournamentRules(
            game="fake",
            source="Fake rules",
            infractions={"tardiness": ("F1", ("banishment",))},
            escalation=lambda payload: {},
        )
