"""The rules reference (an anchor per rule, search) and the judge's ruling page."""

import json

import pytest

from rules_engine.reference import locate, parts


def test_every_iacta_rule_number_has_an_anchor_on_the_page(client):
    page = client.get("/rules/iacta/").content.decode()
    for rule in ("101.1", "102.2", "201.1", "503.3", "904.4", "905.1", "906.8", "907.4"):
        assert f'id="{rule}"' in page
    assert "three Slow Play Warnings within a single game" in page


def test_each_game_has_a_reference_page(client):
    for game, words in (("superjack", "Royal Charge"), ("dataclysm", "Curse")):
        response = client.get(f"/rules/{game}/")
        assert response.status_code == 200
        assert words in response.content.decode()
    assert client.get("/rules/chess/").status_code == 404


def test_search_finds_rules_and_links_to_their_anchors(client):
    page = client.get("/rules/iacta/", {"q": "slow play warning"}).content.decode()
    assert 'href="#905.1"' in page and 'href="#905.2"' in page


def test_live_search_returns_only_the_results_fragment(client):
    response = client.get("/rules/iacta/", {"q": "sideboard"}, HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert text.lstrip().startswith('<div id="search-results"')
    assert 'href="#902.1"' in text


def test_search_with_no_hits_says_so(client):
    text = client.get("/rules/iacta/", {"q": "xylophone"}).content.decode()
    assert "No rule mentions" in text


def test_citation_strings_locate_their_rules():
    assert locate("905.1") == ("iacta", "905.1")
    assert locate("Quick-start: Scoring Combinations") == ("iacta", "qs-scoring-combinations")
    assert locate("§6.4 Royal Charge") == ("superjack", "6.4")
    assert locate("Appendix A: Stacking and Marked Damage") == (
        "superjack",
        "appendix-a-stacking-and-marked-damage",
    )
    assert locate("999.9") is None


def test_reference_anchors_are_unique():
    for game in ("iacta", "superjack", "dataclysm"):
        found = [b.anchor for part in parts(game) for b in part.blocks if b.anchor]
        assert len(found) == len(set(found))


@pytest.mark.django_db
def test_ruling_page_is_for_judges(client, event, judge, player):
    assert client.get("/judge/rule/")["Location"] == "/accounts/login/?next=/judge/rule/"
    client.force_login(player)
    refused = client.get("/judge/rule/")
    assert refused.status_code == 403
    assert "The ruling page is for the judges and organisers" in refused.content.decode()
    assert 'id="rules-catalogue"' not in refused.content.decode()
    client.force_login(judge)
    page = client.get("/judge/rule/").content.decode()
    assert 'id="rules-catalogue"' in page


@pytest.mark.django_db
def test_ruling_fragment_shows_explanation_and_linked_citations(client, event, judge):
    client.force_login(judge)
    response = client.post(
        "/judge/rule/iacta/penalties/",
        json.dumps({"penalties": [{"player": "A", "infraction": "slow_play", "game": 2}] * 3}),
        content_type="application/json",
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert 'data-status="ok"' in text
    assert 'href="/rules/iacta/#905.1"' in text


@pytest.mark.django_db
def test_ruling_fragment_lists_payload_problems(client, event, judge):
    client.force_login(judge)
    response = client.post(
        "/judge/rule/iacta/flush-score/", json.dumps({"dice": [0]}), content_type="application/json"
    )
    text = response.content.decode()
    assert 'data-status="error"' in text and 'data-field="dice[0]"' in text


def _heading_text(game: str, anchor: str) -> str:
    return next(b.text for part in parts(game) for b in part.blocks if b.anchor == anchor)


def test_every_superjack_citation_links_to_its_own_heading():
    """A citation such as '§4.2 Damage Resolution' opens that heading, not just §4.2."""
    import rules_engine.superjack.refs as refs

    citations = [
        value
        for value in vars(refs).values()
        if isinstance(value, str) and value.startswith(("§", "Appendix"))
    ]
    assert citations
    for citation in citations:
        found = locate(citation)
        assert found is not None, citation
        name = citation.split(":", 1)[1] if ":" in citation else citation.split(" ", 1)[1]
        assert name.strip().split(" (")[0] in _heading_text("superjack", found[1]), citation


def test_every_dataclysm_topic_links_to_its_sentence():
    from rules_engine.dataclysm.refs import SENTENCES

    for citation, sentences in SENTENCES.items():
        found = locate(citation)
        assert found is not None, citation
        assert sentences[0] in _heading_text("dataclysm", found[1])


def test_shipped_rules_texts_match_the_published_ones():
    """The site ships copies of ../shared/rules; a changed publication must be re-copied."""
    from pathlib import Path

    shipped = Path(__file__).resolve().parents[2] / "rules_engine" / "texts"
    published = shipped.parents[2] / "shared" / "rules"
    if not published.is_dir():
        pytest.skip(f"no published rules at {published} to compare with")
    for text in published.glob("*.txt"):
        assert (shipped / text.name).read_bytes() == text.read_bytes(), text.name
