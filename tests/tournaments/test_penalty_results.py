"""The result services penalties use: each refuses what cannot be, and then changes nothing."""

import pytest

from tests.tournaments.test_round_lifecycle import make_event
from tournaments.models import EventLog, Match, ResultChange
from tournaments.results import penalties as penalty_results
from tournaments.results.penalties import Cause, Left
from tournaments.rounds import services as rounds
from web.errors import ServiceError

pytestmark = pytest.mark.django_db

CAUSE = Cause(penalty=41, reason="Game Loss in game 1 (905.1) for P01: Slow Play Warning")


@pytest.fixture
def round_one(organiser):
    """Round 1 of a 5-player event: two tables and a bye."""
    return rounds.pair_next_round(make_event(organiser, 5), organiser)


def unchanged(match):
    match.refresh_from_db()
    return (
        match.games,
        match.forced_games,
        match.status,
        ResultChange.objects.count(),
        EventLog.objects.count(),
    )


def test_a_penalty_for_someone_else_at_the_table_is_refused(round_one, judge):
    first, second = round_one.matches.filter(is_bye=False).order_by("table")
    before = unchanged(first)
    with pytest.raises(ServiceError, match="is not a player of table"):
        penalty_results.force_game_loss(first, second.player_a, 1, judge, CAUSE)
    with pytest.raises(ServiceError, match="is not a player of table"):
        penalty_results.force_match_loss(first, second.player_a, judge, CAUSE)
    assert unchanged(first) == before


def test_a_bye_has_no_result_to_change(round_one, judge):
    bye = round_one.matches.get(is_bye=True)
    before = unchanged(bye)
    with pytest.raises(ServiceError, match="A bye"):
        penalty_results.force_match_loss(bye, bye.player_a, judge, CAUSE)
    assert unchanged(bye) == before


def test_a_game_loss_already_given_to_the_opponent_changes_no_result(round_one, judge, organiser):
    table = round_one.matches.filter(is_bye=False).first()
    b = table.player_b
    table.games, table.status = [b.pk, b.pk], Match.Status.FINAL  # as a staff entry leaves it
    table.save()
    not_in_result = penalty_results.JudgeSays(in_result=False)  # game 1 of a 0-2 is b's
    penalty_results.force_game_loss(table, table.player_a, 1, judge, CAUSE, not_in_result)
    assert not ResultChange.objects.filter(source=CAUSE.source).exists()
    assert EventLog.objects.get(data__source=CAUSE.source).action == "game_loss"


def test_a_reinstated_player_missed_the_rounds_paired_meanwhile(round_one, judge, organiser):
    table = round_one.matches.filter(is_bye=False).first()
    undo = penalty_results.disqualify(table.player_a, table, judge, CAUSE)
    for match in round_one.matches.filter(is_bye=False).exclude(pk=table.pk):
        penalty_results.force_match_loss(match, match.player_b, judge, CAUSE)
    rounds.close_round(round_one, organiser)
    rounds.pair_next_round(round_one.event, organiser)
    left = penalty_results.undo_disqualification(table.player_a, table, undo, judge, CAUSE)
    assert [item.kind for item in left] == [Left.MATCH_LOSS_STANDS, Left.MISSED_ROUNDS]
    table.refresh_from_db()
    assert table.status == Match.Status.FINAL  # round 2 was paired from it
