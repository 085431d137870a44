"""The metagame of an event, read from its decklists and results, against a hand count.

The event (tests/metagame_site/events.py, HAND_ROUNDS) was laid down by this test's
builder: nine players, two Swiss rounds, a top cut of four. Every number below was
counted by hand from that table, and each interval is computed here from Wilson's
formula, not by the code under test.
"""

from __future__ import annotations

import math

import pytest

from arbiter.worlds import DemoPool
from decks.services import unlock_decklist
from metagame.report import OTHER
from metagame_site import services
from tests.metagame_site.events import hand_event, phased_event, submit
from tournaments.models import Match, Registration
from tournaments.results import services as results

pytestmark = pytest.mark.django_db

A, B, C = "EMB/MTH", "IRN/SLT", "TID/MTH"
Z = 1.959963984540054  # the 97.5th percentile of the standard normal


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's score interval, written out from his 1927 formula."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def proportion(p: dict) -> tuple:
    return (p["k"], p["n"], p["low"], p["high"])


def expect(k: int, n: int) -> tuple:
    return (k, n, *wilson(k, n))


def close(got: tuple, want: tuple) -> bool:
    return got[:2] == want[:2] and all(
        math.isclose(x, y, abs_tol=1e-9) for x, y in zip(got[2:], want[2:], strict=True)
    )


@pytest.fixture
def event(organiser):
    return hand_event(organiser, decklists_public="all")[0]


def report(event, phase=services.ALL) -> dict:
    return services.report(services.Asked(event, phase, services.FULL))


def by_key(data: dict) -> dict:
    return {row["key"]: row for row in data["rows"]}


def cell(data: dict, key: str, opponent: str) -> tuple:
    for c in data["matrix"]:
        if (c["key"], c["opponent"]) == (key, opponent):
            r = c["record"]
            return (r["wins"], r["losses"], r["draws"])
    raise AssertionError(f"no cell {key} v {opponent}")


def test_shares_and_top_cut_conversion_equal_the_hand_count(event):
    data = report(event)
    assert (data["players"], data["with_archetype"], data["folded"]) == (9, 8, 2)
    rows = by_key(data)
    assert list(rows) == [A, B, C, OTHER]
    for key in rows:
        assert rows[key]["players"] == 2
        assert close(proportion(rows[key]["share"]), expect(2, 8))
        top = rows[key]["stages"]["top_cut"]
        assert top["reached"] == 1
        assert close(proportion(top["share"]), expect(1, 4))
        assert close(proportion(top["conversion"]), expect(1, 2))
    assert data["stages"] == ["top_cut"]


def test_win_rates_leave_out_byes_intentional_draws_and_mirrors(event):
    data = report(event)
    rows = by_key(data)
    matches = {
        k: (r["matches"]["wins"], r["matches"]["losses"], r["matches"]["draws"])
        for k, r in rows.items()
    }
    games = {
        k: (r["games"]["wins"], r["games"]["losses"], r["games"]["draws"]) for k, r in rows.items()
    }
    assert matches == {A: (3, 1, 0), B: (0, 2, 1), C: (2, 2, 1), OTHER: (2, 1, 0)}
    assert games == {A: (6, 3, 0), B: (3, 5, 0), C: (5, 6, 0), OTHER: (4, 2, 0)}
    assert close(proportion(rows[A]["matches"]["rate"]), expect(3, 4))
    assert close(proportion(rows[C]["games"]["rate"]), expect(5, 11))
    assert {k: r["mirrors"] for k, r in rows.items()} == {A: 0, B: 1, C: 0, OTHER: 0}
    assert data["excluded"] == {
        "byes": 2,
        "intentional_draws": 1,
        "mirrors": 1,
        "without_archetype": 1,
    }
    assert all(r["matches"]["small"] for r in rows.values())  # fewer than ten matches each


def test_the_matrix_equals_the_hand_count_and_is_antisymmetric(event):
    data = report(event)
    want = {
        (A, B): (1, 0, 0),
        (A, C): (1, 1, 0),
        (A, OTHER): (1, 0, 0),
        (B, C): (0, 1, 1),
        (B, OTHER): (0, 0, 0),
        (C, OTHER): (0, 1, 0),
    }
    for (key, opponent), (won, lost, drew) in want.items():
        assert cell(data, key, opponent) == (won, lost, drew)
        assert cell(data, opponent, key) == (lost, won, drew)
    assert len(data["matrix"]) == 4 * 3
    for c in data["matrix"]:
        r = c["record"]
        if r["n"]:
            assert close(proportion(r["rate"]), expect(r["wins"], r["n"]))


def test_each_phase_counts_its_own_matches(event):
    swiss = by_key(report(event, "swiss"))
    assert swiss[A]["matches"]["wins"] == 2 and swiss[A]["matches"]["losses"] == 1
    assert swiss[A]["stages"]["top_cut"]["reached"] == 1
    top = report(event, "top_cut")
    # A phase names what the event names: one player of A in the top cut keeps A's name.
    assert [row["key"] for row in top["rows"]] == [A, B, C, OTHER]
    assert cell(top, A, OTHER) == (1, 0, 0)
    assert cell(top, C, B) == (1, 0, 0)
    assert top["stages"] == []


def test_an_unplayed_phase_is_refused_naming_the_field(event):
    with pytest.raises(services.ServiceError) as refused:
        report(event, "day2")
    assert refused.value.field == "phase"


def test_a_list_submitted_or_a_result_corrected_shows_on_the_next_read(organiser):
    """The report is cached: what moves its key must be what changes it."""
    event, entries = hand_event(organiser, decklists_public="all")
    before = by_key(report(event))
    d1 = entries["d1"]  # the only EMB/SLT: in Other
    unlock_decklist(d1.decklist, organiser, "a typo in the list")
    submit(d1, DemoPool.load(), 0)  # EMB/MTH now
    listed = by_key(report(event))
    assert listed[A]["players"] == before[A]["players"] + 1
    a1_v_b1 = Match.objects.get(round__event=event, round__number=1, player_a=entries["a1"])
    results.enter_result(a1_v_b1, results.Score(0, 2), organiser, reason="slip misread")
    event.refresh_from_db()
    corrected = by_key(report(event))
    assert corrected[A]["matches"]["wins"] == listed[A]["matches"]["wins"] - 1


def test_the_organisers_names_merges_and_moves_change_the_counts(event, organiser):
    services.name_archetype(event, organiser, key=A, name="Ember Control")
    services.merge_archetypes(event, organiser, key=C, into=B)
    d1 = Registration.objects.get(event=event, user__username="d1")
    f1 = Registration.objects.get(event=event, user__username="f1")
    services.move_deck(event, organiser, registration=d1.pk, key="Rogue")
    services.move_deck(event, organiser, registration=f1.pk, key="Rogue")
    rows = by_key(report(event))
    assert rows[A]["name"] == "Ember Control"
    assert rows[B]["players"] == 4 and C not in rows
    assert rows["Rogue"]["players"] == 2 and OTHER not in rows
    # B and C merged: the B v C matches are mirrors now.
    assert rows[B]["mirrors"] == 1 + 2


def test_a_merge_in_a_circle_and_an_unknown_key_are_refused(event, organiser):
    services.merge_archetypes(event, organiser, key=C, into=B)
    with pytest.raises(services.ServiceError) as circle:
        services.merge_archetypes(event, organiser, key=B, into=C)
    assert circle.value.field == "into"
    with pytest.raises(services.ServiceError) as unknown:
        services.name_archetype(event, organiser, key="NOPE", name="x")
    assert unknown.value.field == "key"


def test_only_organisers_change_archetypes(event, judge):
    with pytest.raises(services.NotAllowed):
        services.name_archetype(event, judge, key=A, name="Mine")


def test_privacy_follows_the_decklist_policy(organiser, judge, player):
    from django.contrib.auth.models import AnonymousUser

    from tournaments.models import EventRole

    event, _entries = hand_event(organiser)  # decklists private
    EventRole.objects.create(event=event, user=judge, role=EventRole.Role.JUDGE)
    assert services.access(AnonymousUser(), event) == services.NOTHING
    assert services.access(player, event) == services.NOTHING
    assert services.access(judge, event) == services.FULL
    services.set_sharing(event, organiser, allowed=True)
    assert services.access(AnonymousUser(), event) == services.NOTHING  # not finished yet
    event.status = event.Status.FINISHED
    event.save()
    assert services.access(AnonymousUser(), event) == services.SHARES
    shares = services.report(services.Asked(event, services.ALL, services.SHARES))
    assert shares["matrix"] == [] and shares["stages"] == []
    assert set(shares["rows"][0]) == {"key", "name", "players", "share"}
    event.decklists_public = "all"
    event.save()
    assert services.access(AnonymousUser(), event) == services.FULL


def test_a_two_phase_event_reads_day1_day2_and_the_top_cut_as_one_players_record(organiser):
    main = phased_event(organiser)
    data = report(main)
    assert data["phases"] == [services.ALL, "day1", "day2", "top_cut"]
    assert data["stages"] == ["day2", "top_cut"]
    assert data["players"] == 16  # Day 2 entries are the same players, not new ones
    assert data["with_archetype"] == 14
    day2 = sum(row["stages"]["day2"]["reached"] for row in data["rows"])
    top = sum(row["stages"]["top_cut"]["reached"] for row in data["rows"])
    day2_listed = Registration.objects.filter(
        event=main, carried_from__decklist__status="submitted"
    ).count()
    assert day2 == day2_listed
    assert top <= 4
    # Every counted match is in exactly one phase: the phases add up to the whole.
    whole = {row["key"]: row["matches"]["n"] for row in data["rows"]}
    parts = [by_key(report(main, p)) for p in ("day1", "day2", "top_cut")]
    for key, n in whole.items():
        assert n == sum(part[key]["matches"]["n"] for part in parts if key in part)
    played = Match.objects.filter(round__event__in=[main, *main.flights.all()], is_bye=False)
    assert sum(r["matches"]["n"] for r in data["rows"]) <= 2 * played.count()
    for c in data["matrix"]:
        back = cell(data, c["opponent"], c["key"])
        r = c["record"]
        assert (r["wins"], r["losses"], r["draws"]) == (back[1], back[0], back[2])


def test_a_card_revision_that_moves_an_archetype_reaches_the_cached_report(event):
    """The report is cached; a revision that changes a card's syndicate recomputes the
    lists' archetypes (decks.services.revalidate_event), and the report follows."""
    from decks.models import Card
    from decks.services import revalidate_event

    before = by_key(report(event))
    assert C in before
    for card in Card.objects.filter(game="iacta", syndicate="TID"):
        card.syndicate = "VOX"
        card.save()
    revalidate_event(event)
    after = by_key(report(event))
    assert C not in after and "VOX/MTH" in after


def test_each_change_is_logged_and_announced_once_on_commit(
    event, organiser, django_capture_on_commit_callbacks
):
    from metagame_site.signals import metagame_changed
    from tournaments.models import EventLog

    heard = []

    def listener(sender, **kwargs):
        heard.append(kwargs)

    metagame_changed.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            services.name_archetype(event, organiser, key=A, name="Ember Control")
        assert heard == []  # nothing before the commit
        for callback in callbacks:
            callback()
    finally:
        metagame_changed.disconnect(listener)
    assert heard == [{"event_id": event.pk, "action": "name", "signal": metagame_changed}]
    log = EventLog.objects.get(event=event, action="metagame")
    assert log.data == {"change": "name", "key": A, "name": "Ember Control"}
    assert log.actor == organiser
