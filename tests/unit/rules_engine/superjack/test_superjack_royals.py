"""§6.5 Royal Sacrifice and its Appendix A rulings."""

import pytest

from rules_engine import PayloadError, adjudicate


def sacrifice(jack, queen, king):
    return adjudicate("superjack", "royal-sacrifice", {"jack": jack, "queen": queen, "king": king})


def royal(card, tapped=False, **extra):
    return {"card": card, "tapped": tapped, **extra}


def test_contract_example_and_appendix_a_untrained_royals_may_be_tapped():
    """Appendix A: Royal Sacrifice - Untrained Royals."""
    result = sacrifice(
        royal("JH", stacked=False, fresh=True), royal("QH", fresh=False), royal("KH")
    )
    assert result["legal"] is True
    assert result["tap"] == ["JH", "QH", "KH"] and result["sacrificed"] == "JH"
    assert "Appendix A: Royal Sacrifice - Untrained Royals" in result["citations"]


def test_appendix_a_suit_requirement_same_colour_is_not_enough():
    """Appendix A: Royal Sacrifice - Suit Requirement."""
    result = sacrifice(royal("JH", stacked=False), royal("QD"), royal("KH"))
    assert result["legal"] is False
    assert "Appendix A: Royal Sacrifice - Suit Requirement" in result["citations"]
    assert result["violations"][0]["rule"] == "§6.5 Royal Sacrifice"


def test_appendix_a_royal_sacrifice_and_stacked_jacks():
    """Appendix A: Royal Sacrifice and Stacked Jacks: only a single, unstacked Jack."""
    result = sacrifice(royal("JS", stacked=True), royal("QS"), royal("KS"))
    assert result["legal"] is False and result["sacrificed"] is None
    assert "Appendix A: Royal Sacrifice and Stacked Jacks" in result["citations"]


def test_s6_5_every_failed_requirement_is_listed():
    result = sacrifice(
        royal("JC", stacked=True), royal("QS", tapped=True), royal("KC", tapped=True)
    )
    assert len(result["violations"]) == 3
    assert "QS, KC must be untapped" in result["violations"][1]["message"]


def test_payload_error_names_a_royal_of_the_wrong_rank():
    with pytest.raises(PayloadError) as caught:
        sacrifice(royal("QH", stacked=False), royal("KH"), royal("KH"))
    assert {e["field"] for e in caught.value.errors} == {"jack.card", "queen.card"}
