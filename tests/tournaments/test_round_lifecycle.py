"""The organiser's core loop and its guards: pair, start, results, close, pair again."""

import pytest

from tests.conftest import make_event, make_user, play_out, refused
from tournaments.event import services
from tournaments.models import Event, EventLog, Match, Registration, ResultChange, Round
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db


def test_round_one_pairs_every_checked_in_player_once(organiser):
    event = make_event(organiser, 8)
    round_ = rounds.pair_next_round(event, organiser)
    seated = [p for m in round_.matches.all() for p in (m.player_a_id, m.player_b_id)]
    assert sorted(seated) == sorted(event.registrations.values_list("pk", flat=True))
    assert [m.table for m in round_.matches.order_by("table")] == [1, 2, 3, 4]
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def test_odd_count_gives_one_bye_counted_as_a_two_nil_win(organiser):
    event = make_event(organiser, 7)
    round_ = rounds.pair_next_round(event, organiser)
    byes = round_.matches.filter(is_bye=True)
    assert byes.count() == 1
    bye = byes.get()
    assert bye.has_result and bye.table is None and bye.games == [bye.player_a_id] * 2


def test_only_checked_in_players_are_paired_in_round_one(organiser):
    event = make_event(organiser, 4)
    late = make_user("sleepy")
    services.register_player(event, late)
    # Round 1 asks first (issue 30): the organiser confirms pairing without them.
    round_ = rounds.pair_next_round(event, organiser, confirm_not_checked_in=True)
    assert not round_.matches.filter(player_a__user=late).exists()
    assert not round_.matches.filter(player_b__user=late).exists()


def test_next_round_cannot_be_paired_before_the_current_one_closes(organiser):
    event = make_event(organiser, 4)
    rounds.pair_next_round(event, organiser)
    with refused("Round 1 is not closed"):
        rounds.pair_next_round(event, organiser)


def test_round_cannot_close_with_missing_results(organiser):
    event = make_event(organiser, 4)
    round_ = rounds.pair_next_round(event, organiser)
    first = round_.matches.order_by("table").first()
    results.enter_result(first, Score(2, 1), organiser)
    with refused(r"1 table has no confirmed result \(2\)"):
        rounds.close_round(round_, organiser)
    play_out(round_, organiser)
    assert rounds.close_round(round_, organiser).status == Round.Status.CLOSED


def test_no_rematches_and_winners_meet_in_round_two(organiser):
    event = make_event(organiser, 8)
    one = rounds.pair_next_round(event, organiser)
    play_out(one, organiser)
    rounds.close_round(one, organiser)
    two = rounds.pair_next_round(event, organiser)
    met = {frozenset((m.player_a_id, m.player_b_id)) for m in one.matches.all()}
    winners = {m.player_a_id for m in one.matches.all()}
    for match in two.matches.all():
        assert frozenset((match.player_a_id, match.player_b_id)) not in met
        assert (match.player_a_id in winners) == (match.player_b_id in winners)
    # Best records at the lowest tables.
    assert {m.player_a_id for m in two.matches.filter(table__in=[1, 2])} <= winners


def test_swiss_rounds_stop_at_the_event_setting(organiser):
    event = make_event(organiser, 4, swiss_rounds=1)
    one = rounds.pair_next_round(event, organiser)
    play_out(one, organiser)
    rounds.close_round(one, organiser)
    assert rounds.next_step(event) == ("finish", "Finish the event")
    with refused("All 1 Swiss rounds are played"):
        rounds.pair_next_round(event, organiser)


def test_start_round_sets_the_clock_once(organiser):
    event = make_event(organiser, 4)
    round_ = rounds.pair_next_round(event, organiser)
    started = rounds.start_round(round_, organiser)
    assert started.ends_at is not None
    with refused("already started"):
        rounds.start_round(round_, organiser)


# --- results: report, confirm, dispute, staff corrections --------------------------------


@pytest.fixture
def table(make_world):
    return make_world(2, judge=None).table(1)


def test_report_then_opponent_confirms(table):
    a, b = table.player_a, table.player_b
    results.report_result(table, a, Score(2, 1), a.user)
    confirmed = results.confirm_result(table, b, b.user)
    assert confirmed.status == Match.Status.CONFIRMED
    assert confirmed.games.count(a.pk) == 2 and confirmed.games.count(b.pk) == 1


def test_same_report_from_both_players_confirms(table):
    a, b = table.player_a, table.player_b
    results.report_result(table, a, Score(2, 0), a.user)
    assert results.report_result(table, b, Score(0, 2), b.user).status == Match.Status.CONFIRMED


def test_different_reports_go_to_the_judges(table):
    a, b = table.player_a, table.player_b
    results.report_result(table, a, Score(2, 0), a.user)
    assert results.report_result(table, b, Score(2, 0), b.user).status == Match.Status.DISPUTED


def test_reporter_cannot_confirm_their_own_report(table):
    a = table.player_a
    results.report_result(table, a, Score(2, 0), a.user)
    with refused("opponent must confirm"):
        results.confirm_result(table, a, a.user)


def test_outsider_cannot_report(table, organiser):
    stranger = Registration.objects.create(event=table.round.event, name="Stranger")
    with refused("Only the two players"):
        results.report_result(table, stranger, Score(2, 0), organiser)


@pytest.mark.parametrize(
    ("score", "words"),
    [
        ("3-0", "nobody wins more than 2"),
        ("2-2", "Both players cannot have won"),
        ("x", "not a score"),
    ],
)
def test_impossible_scores_are_refused(table, score, words):
    with refused(words):
        results.report_result(
            table, table.player_a, results.parse_score(score), table.player_a.user
        )


def test_staff_correction_is_kept_with_before_and_after(table, organiser):
    a, b = table.player_a, table.player_b
    results.report_result(table, a, Score(2, 0), a.user)
    results.confirm_result(table, b, b.user)
    results.enter_result(table, Score(1, 2), organiser, "slip was misread")
    change = ResultChange.objects.filter(match=table).last()
    assert change.changed_by == organiser
    assert change.before["score"] == "2-0" and change.after["score"] == "1-2"
    assert [c.action for c in ResultChange.objects.filter(match=table)] == [
        "report",
        "confirm",
        "correct",
    ]


def test_correcting_a_closed_round_needs_a_reason(table, organiser):
    results.enter_result(table, Score(2, 0), organiser)
    rounds.close_round(table.round, organiser)
    with refused("give a reason"):
        results.enter_result(table, Score(0, 2), organiser)
    assert results.enter_result(table, Score(0, 2), organiser, "wrong slip").status == "final"


# --- drops and late entries --------------------------------------------------------------


def test_drop_takes_effect_from_the_next_round(organiser):
    event = make_event(organiser, 6)
    one = rounds.pair_next_round(event, organiser)
    leaver = one.matches.first().player_a
    services.drop_player(event, leaver, organiser)
    play_out(one, organiser)
    rounds.close_round(one, organiser)
    two = rounds.pair_next_round(event, organiser)
    assert leaver.pk not in {p for m in two.matches.all() for p in (m.player_a_id, m.player_b_id)}
    assert EventLog.objects.filter(event=event, action="drop").exists()


def test_late_entry_joins_next_round_with_losses_for_missed_rounds(organiser):
    event = make_event(organiser, 4)
    one = rounds.pair_next_round(event, organiser)
    late = services.add_late_entry(event, organiser, name="Late Larry")
    assert late.joined_round == 2
    play_out(one, organiser)
    rounds.close_round(one, organiser)
    two = rounds.pair_next_round(event, organiser)
    seated = {p for m in two.matches.all() for p in (m.player_a_id, m.player_b_id)}
    assert late.pk in seated
    from tournaments.record.history import EventHistory, standings_rows

    entries = {p.id: p for p in EventHistory.read(event).swiss_players(2)}
    assert entries[late.public_id].points == event.points_loss
    rows = {row["registration"]: row for row in standings_rows(event, through_round=1)}
    assert rows[late.pk]["record"] == "0-1-0"  # round 1, missed, is a loss


# --- re-pair and swap --------------------------------------------------------------------


def test_repair_needs_a_reason_and_no_results_and_is_logged(organiser):
    event = make_event(organiser, 8)
    round_ = rounds.pair_next_round(event, organiser)
    with refused("reason"):
        rounds.repair_round(round_, organiser, " ")
    rounds.repair_round(round_, organiser, "wrong player list")
    log = EventLog.objects.get(event=event, action="repair")
    assert log.reason == "wrong player list" and log.data["before"] and log.data["after"]
    results.enter_result(round_.matches.first(), Score(2, 0), organiser)
    with refused("already has results"):
        rounds.repair_round(round_, organiser, "again")


def test_swap_two_players_between_tables_is_logged(organiser):
    event = make_event(organiser, 8)
    round_ = rounds.pair_next_round(event, organiser)
    one, two = round_.matches.order_by("table")[:2]
    x, y = one.player_a, two.player_a
    rounds.swap_players(round_, x, y, organiser, "seating mix-up")
    one.refresh_from_db()
    two.refresh_from_db()
    assert (one.player_a_id, two.player_a_id) == (y.pk, x.pk)
    assert EventLog.objects.get(event=event, action="swap").reason == "seating mix-up"


def test_table_pin_seats_the_player_at_that_table(organiser):
    event = make_event(organiser, 8)
    pinned = event.registrations.order_by("pk").last()
    pinned.table_pin = 3
    pinned.save()
    round_ = rounds.pair_next_round(event, organiser)
    match = round_.matches.get(table=3)
    assert pinned.pk in (match.player_a_id, match.player_b_id)


# --- top cut -----------------------------------------------------------------------------


def test_top_cut_is_seeded_from_the_standings_and_runs_to_a_winner(organiser):
    from tournaments.record.history import standings_rows

    event = make_event(organiser, 8, swiss_rounds=3, top_cut=4)
    for _ in range(3):
        round_ = rounds.pair_next_round(event, organiser)
        play_out(round_, organiser)
        rounds.close_round(round_, organiser)
    top = [row["registration"] for row in standings_rows(event)[:4]]
    semis = rounds.start_top_cut(event, organiser)
    pairs = [(m.player_a_id, m.player_b_id) for m in semis.matches.order_by("table")]
    assert pairs == [(top[0], top[3]), (top[1], top[2])]
    with refused("needs a winner"):
        results.enter_result(semis.matches.first(), Score(1, 1), organiser)
    play_out(semis, organiser)
    rounds.close_round(semis, organiser)
    final = rounds.advance_top_cut(event, organiser)
    assert final.matches.count() == 1
    play_out(final, organiser)
    rounds.close_round(final, organiser)
    assert rounds.advance_top_cut(event, organiser) is None
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
