"""Penalties and what they escalate to, applied to results, standings and pairings."""

import pytest

from judging.models import Penalty
from judging.penalties import issue_penalty, preview_penalty, void_penalty
from tests.conftest import make_event, play_out, refused
from tournaments.models import EventLog, Match, Registration, ResultChange
from tournaments.record.history import standings_rows
from tournaments.record.match_games import GameWinner, Score
from tournaments.results import services as results
from tournaments.results.penalties import NOT_ASKED, JudgeSays
from tournaments.rounds import services as rounds
from web.errors import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(organiser):
    """Round 1 of a 4-player best-of-three event: the first table."""
    event = make_event(organiser, 4)
    round_ = rounds.pair_next_round(event, organiser)
    return round_.matches.order_by("table").first()


def warn(match, player, judge, times=1, infraction="slow_play", game=1, says=NOT_ASKED):
    return [
        issue_penalty(player, infraction, judge, game=game, match=match, says=says)
        for _ in range(times)
    ]


def results_of(penalty):
    return [(c["result"], c.get("game"), c["rule"]) for c in penalty.consequences]


def test_third_slow_play_warning_in_a_game_is_a_game_loss_905_1(table, judge):
    a = table.player_a
    first, second = warn(table, a, judge, 2, game=2)
    preview = preview_penalty(a, "slow_play", 2, table)
    assert [(c["result"], c["game"], c["rule"]) for c in preview.consequences] == [
        ("game_loss", 2, "905.1")
    ]
    third = issue_penalty(a, "slow_play", judge, game=2, match=table)
    assert results_of(first) == results_of(second) == []
    assert results_of(third) == [("game_loss", 2, "905.1")]
    table.refresh_from_db()
    assert table.forced_games == [{"game": 2, "winner": table.player_b_id, "penalty": third.pk}]


def test_a_reported_result_must_count_the_game_loss(table, judge):
    a, b = table.player_a, table.player_b
    warn(table, a, judge, 3, game=1)
    with refused("Game 1 was a Game Loss for"):
        results.report_result(table, a, Score(2, 0), a.user)
    assert results.report_result(table, b, Score(2, 1), b.user).status == Match.Status.REPORTED


def test_slow_play_spread_over_games_is_no_game_loss_until_the_fifth_is_a_match_loss(table, judge):
    a = table.player_a
    for game in (1, 1, 2, 2):
        assert results_of(issue_penalty(a, "slow_play", judge, game=game, match=table)) == []
    fifth = issue_penalty(a, "slow_play", judge, game=3, match=table)
    assert results_of(fifth) == [("match_loss", 3, "905.2")]
    table.refresh_from_db()
    assert table.status == Match.Status.FINAL
    assert table.games == [table.player_b_id, table.player_b_id]


def test_three_rule_violation_warnings_are_a_match_loss_907_3c(table, judge):
    *_, third = warn(table, table.player_b, judge, 3, infraction="rule_violation")
    assert results_of(third) == [("match_loss", 1, "907.3c")]


def test_unsporting_conduct_warning_is_a_match_loss_905_2(table, judge):
    (penalty,) = warn(table, table.player_a, judge, infraction="unsporting_conduct_warning")
    assert results_of(penalty) == [("match_loss", 1, "905.2")]


@pytest.mark.parametrize(
    ("infraction", "rule"), [("illegal_deck", "203.1"), ("sleeves_not_replaced", "903.1b")]
)
def test_illegal_deck_and_sleeves_are_game_losses(table, judge, infraction, rule):
    (penalty,) = warn(table, table.player_a, judge, infraction=infraction, game=2)
    assert results_of(penalty) == [("game_loss", 2, rule)]


@pytest.mark.parametrize(
    ("infraction", "rule"),
    [
        ("stalling", "906.2"),
        ("abusive_language", "906.3"),
        ("assault", "906.4"),
        ("cheating", "906.5"),
        ("theft_or_damage", "906.6"),
        ("refused_acknowledgement", "906.7c"),
        ("hate_symbols", "903.1c"),
        ("hidden_trigger", "907.4"),
    ],
)
def test_each_906_offence_disqualifies(table, judge, infraction, rule):
    (penalty,) = warn(table, table.player_a, judge, infraction=infraction)
    assert results_of(penalty) == [("disqualification", 1, rule)]
    player = Registration.objects.get(pk=table.player_a_id)
    assert player.disqualified and player.status == Registration.Status.DROPPED
    table.refresh_from_db()
    assert table.status == Match.Status.FINAL  # the unfinished match is lost


def test_hygiene_not_remedied_is_match_loss_then_disqualification(table, judge):
    (penalty,) = warn(table, table.player_a, judge, infraction="hygiene_not_remedied")
    assert results_of(penalty) == [
        ("match_loss", 1, "906.8"),
        ("disqualification", 1, "906.8"),
    ]


def test_disqualified_player_is_never_paired_again_and_marked_in_standings(table, judge, organiser):
    event = table.round.event
    cheat = table.player_a
    warn(table, cheat, judge, infraction="cheating")
    play_out(table.round, organiser)
    rounds.close_round(table.round, organiser)
    two = rounds.pair_next_round(event, organiser)
    seated = {p for m in two.matches.all() for p in (m.player_a_id, m.player_b_id)}
    assert cheat.pk not in seated
    rows = standings_rows(event)
    assert rows[-1]["registration"] == cheat.pk and rows[-1]["disqualified"] is True


def test_match_loss_shows_in_the_standings(table, judge, organiser):
    warn(table, table.player_a, judge, infraction="unsporting_conduct_warning")
    play_out(table.round, organiser)  # the other table; this one is already final
    rows = {r["registration"]: r for r in standings_rows(table.round.event)}
    assert rows[table.player_a_id]["record"] == "0-1-0"
    assert rows[table.player_b_id]["record"] == "1-0-0"


# --- voiding -----------------------------------------------------------------------------


def test_voiding_the_game_loss_warning_reverses_the_game_loss(table, judge):
    *_, third = warn(table, table.player_a, judge, 3, game=1)
    manual = void_penalty(third, judge, "the clock was wrong")
    assert manual == []
    table.refresh_from_db()
    assert table.forced_games == []
    third.refresh_from_db()
    assert third.is_void and third.void_reason == "the clock was wrong"
    assert third.consequences == []


def test_voiding_an_earlier_warning_takes_back_the_escalation_it_fed(table, judge):
    first, _, third = warn(table, table.player_a, judge, 3, game=1)
    void_penalty(first, judge, "issued to the wrong player")
    third.refresh_from_db()
    table.refresh_from_db()
    assert third.consequences == [] and table.forced_games == []
    fourth = issue_penalty(table.player_a, "slow_play", judge, game=1, match=table)
    assert results_of(fourth) == [("game_loss", 1, "905.1")]


def test_voiding_a_match_loss_restores_the_result_before_it(table, judge, organiser):
    results.enter_result(table, Score(1, 1), organiser)
    (penalty,) = warn(table, table.player_a, judge, infraction="unsporting_conduct_warning")
    table.refresh_from_db()
    assert table.games == [table.player_b_id] * 2
    void_penalty(penalty, judge, "misheard")
    table.refresh_from_db()
    assert table.games == [table.player_a_id, table.player_b_id]
    assert table.status == Match.Status.FINAL


def test_voiding_a_disqualification_reinstates_the_player(table, judge):
    (penalty,) = warn(table, table.player_a, judge, infraction="assault")
    assert void_penalty(penalty, judge, "wrong person") == []
    player = Registration.objects.get(pk=table.player_a_id)
    assert not player.disqualified and player.status == Registration.Status.REGISTERED
    table.refresh_from_db()
    assert table.status == Match.Status.PENDING and table.games == []


def test_voiding_after_the_event_moved_on_says_what_to_fix_by_hand(table, judge, organiser):
    (penalty,) = warn(table, table.player_a, judge, infraction="unsporting_conduct_warning")
    play_out(table.round, organiser)
    rounds.close_round(table.round, organiser)
    rounds.pair_next_round(table.round.event, organiser)
    manual = void_penalty(penalty, judge, "video review")
    assert len(manual) == 1
    assert f"table {table.table} of round 1" in manual[0] and "by hand" in manual[0]
    table.refresh_from_db()
    assert table.games == [table.player_b_id] * 2  # left as it was: pairings depend on it


def test_a_penalty_is_voided_once_and_needs_a_reason(table, judge):
    (penalty,) = warn(table, table.player_a, judge)
    with refused("reason"):
        void_penalty(penalty, judge, "")
    void_penalty(penalty, judge, "duplicate")
    with refused("already void"):
        void_penalty(penalty, judge, "again")


def test_penalty_for_someone_not_at_the_table_is_refused(table, judge):
    other = table.round.matches.order_by("table").last().player_a
    with refused("is not a player of table"):
        issue_penalty(other, "slow_play", judge, match=table)


def test_game_number_must_fit_the_format(table, judge):
    with refused("Game 9 is not a game"):
        issue_penalty(table.player_a, "slow_play", judge, game=9, match=table)


# --- the result log ----------------------------------------------------------------------


def penalty_changes(penalty):
    return list(ResultChange.objects.filter(source=f"penalty:{penalty.pk}"))


def penalty_log(penalty):
    return list(EventLog.objects.filter(data__source=f"penalty:{penalty.pk}").order_by("pk"))


def confirmed(table, score):
    a, b = table.player_a, table.player_b
    results.report_result(table, a, Score.parse(score), a.user)
    return results.confirm_result(table, b, b.user)


def everything(table):
    """What a refused or reversed change must leave as it was."""
    table.refresh_from_db()
    return (
        table.games,
        table.forced_games,
        table.status,
        list(Registration.objects.order_by("pk").values_list("status", "disqualified")),
        ResultChange.objects.count(),
        EventLog.objects.count(),
        list(Penalty.objects.order_by("pk").values_list("consequences", "voided_at")),
    )


def test_a_game_loss_in_a_confirmed_match_is_one_result_change_and_its_void_another(table, judge):
    a, b = table.player_a, table.player_b
    confirmed(table, "2-1")
    reported = ResultChange.objects.filter(match=table).count()
    # A score alone cannot tell who won game 2: the judge says (a); not in the result yet.
    said = JudgeSays(in_result=False, winner=GameWinner(True, a.pk))
    *_, third = warn(table, a, judge, 3, game=2, says=said)
    (change,) = ResultChange.objects.filter(match=table)[reported:]
    assert change.source == f"penalty:{third.pk}" and change.action == "game_loss"
    assert change.changed_by == judge and change.rule == "905.1"
    assert change.reason == f"Game Loss in game 2 for {a.display_name}: Slow Play Warning"
    assert (change.before["score"], change.after["score"]) == ("2-1", "1-2")
    assert change.after["games"] == [a.pk, b.pk, b.pk]

    assert void_penalty(third, judge, "the clock was wrong") == []
    first, second = ResultChange.objects.filter(match=table)[reported:]
    assert first == change and second.source == f"penalty:{third.pk}"
    assert second.action == "undo_game_loss" and second.rule == "905.1"
    assert second.reason == (
        f"Game Loss in game 2 for {a.display_name} taken back, "
        "Slow Play Warning voided: the clock was wrong"
    )
    assert (second.before["score"], second.after["score"]) == ("1-2", "2-1")
    table.refresh_from_db()
    assert table.games == [a.pk, a.pk, b.pk] and table.forced_games == []
    assert table.status == Match.Status.CONFIRMED


def test_a_game_loss_before_any_result_changes_no_result_and_is_in_the_event_log(table, judge):
    *_, third = warn(table, table.player_a, judge, 3, game=1)
    assert penalty_changes(third) == []
    (entry,) = penalty_log(third)
    assert entry.action == "game_loss" and entry.actor == judge
    assert entry.data == {
        "table": table.table,
        "player": table.player_a.display_name,
        "game": 1,
        "source": f"penalty:{third.pk}",
    }


def test_a_match_loss_is_logged_and_its_void_restores_the_result_exactly(table, judge, organiser):
    results.enter_result(table, Score(1, 1), organiser)
    before = everything(table)
    (penalty,) = warn(table, table.player_a, judge, infraction="unsporting_conduct_warning")
    (change,) = penalty_changes(penalty)
    assert change.action == "match_loss" and change.after["score"] == "0-2"
    void_penalty(penalty, judge, "misheard")
    assert [c.action for c in penalty_changes(penalty)] == ["match_loss", "undo_match_loss"]
    assert [e.action for e in penalty_log(penalty)] == ["match_loss", "undo_match_loss"]
    games, forced, status, players, *_ = everything(table)
    assert (games, forced, status, players) == before[:4]


def test_a_disqualification_logs_the_drop_and_the_match_loss(table, judge):
    cheat = table.player_a
    (penalty,) = warn(table, cheat, judge, infraction="cheating")
    drop, loss = penalty_log(penalty)
    assert drop.action == "drop" and drop.round_number == 1 and drop.actor == judge
    assert drop.data == {
        "player": cheat.display_name,
        "after_round": 1,
        "disqualified": True,
        "source": f"penalty:{penalty.pk}",
    }
    assert drop.reason == f"Disqualification for {cheat.display_name}: Cheating (906.5)"
    assert loss.action == "match_loss"
    (change,) = penalty_changes(penalty)
    assert change.action == "match_loss" and change.before["status"] == Match.Status.PENDING
    assert change.after == {
        "status": Match.Status.FINAL,
        "games": [table.player_b_id] * 2,
        "score": "0-2",
    }


def test_voiding_a_disqualification_restores_player_and_match_exactly(table, judge):
    before = everything(table)
    (penalty,) = warn(table, table.player_a, judge, infraction="assault")
    assert void_penalty(penalty, judge, "wrong person") == []
    assert [e.action for e in penalty_log(penalty)] == [
        "drop",
        "match_loss",
        "reinstate",
        "undo_match_loss",
    ]
    assert [c.action for c in penalty_changes(penalty)] == ["match_loss", "undo_match_loss"]
    games, forced, status, players, *_ = everything(table)
    assert (games, forced, status, players) == before[:4]


def test_refused_void_changes_nothing(table, judge):
    *_, third = warn(table, table.player_a, judge, 3, game=1)
    before = everything(table)
    with pytest.raises(ServiceError, match="reason"):
        void_penalty(third, judge, "  ")
    assert everything(table) == before


def test_a_void_once_the_event_moved_on_leaves_the_result_and_its_log_alone(
    table, judge, organiser
):
    (penalty,) = warn(table, table.player_a, judge, infraction="unsporting_conduct_warning")
    play_out(table.round, organiser)
    rounds.close_round(table.round, organiser)
    rounds.pair_next_round(table.round.event, organiser)
    changes = ResultChange.objects.count()
    assert len(void_penalty(penalty, judge, "video review")) == 1
    assert ResultChange.objects.count() == changes
    assert [e.action for e in penalty_log(penalty)] == ["match_loss"]


def test_refused_penalties_change_nothing(table, judge):
    before = everything(table)
    other = table.round.matches.order_by("table").last().player_a
    with pytest.raises(ServiceError):
        issue_penalty(other, "cheating", judge, match=table)
    with pytest.raises(ServiceError):
        issue_penalty(table.player_a, "cheating", judge, game=9, match=table)
    with pytest.raises(ServiceError):
        issue_penalty(table.player_a, "no_such_infraction", judge, match=table)
    assert everything(table) == before


def test_voiding_a_game_loss_counted_by_a_later_report_asks_for_a_check(table, judge):
    a, b = table.player_a, table.player_b
    *_, third = warn(table, a, judge, 3, game=1)
    results.report_result(table, b, Score(2, 1), b.user)
    manual = void_penalty(third, judge, "wrong table")
    assert len(manual) == 1 and "was reported after the Game Loss" in manual[0]
    table.refresh_from_db()
    assert table.forced_games == [] and table.games == [a.pk, b.pk, b.pk]
    assert [e.action for e in penalty_log(third)] == ["game_loss", "undo_game_loss"]
    assert penalty_changes(third) == []  # the result itself did not change
