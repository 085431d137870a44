"""arbiter.worlds: one builder, through the services, the same event from the same arguments."""

import pytest
from django.contrib.auth.models import User

from arbiter import worlds
from decks.models import Decklist
from judging.models import Penalty
from tournaments.models import Event, EventLog, Match, Registration, ResultChange, Round
from web.errors import ServiceError

pytestmark = pytest.mark.django_db


def pairings(world: worlds.World) -> list[tuple]:
    """Every match as (round, table, usernames, games as usernames, status)."""
    name = {r.pk: r.display_name for r in world.registrations}
    return [
        (
            m.round.number,
            m.table,
            name[m.player_a_id],
            name.get(m.player_b_id),
            [name.get(g) for g in m.games],
            m.status,
        )
        for m in Match.objects.filter(round__event=world.event).select_related("round")
    ]


def test_the_same_arguments_build_the_same_event():
    first = worlds.build_event(10, rounds_played=2, name="First", organiser="olive")
    second = worlds.build_event(10, rounds_played=2, name="Second", organiser="olive")
    assert pairings(first) == pairings(second)
    assert len(pairings(first)) == 3 * 5  # two rounds played and the third paired
    assert [r.user.username for r in first.registrations] == [f"p{i:02d}" for i in range(1, 11)]
    assert User.objects.filter(username__startswith="p").count() == 10  # found, not duplicated


def test_every_step_goes_through_the_services_and_is_logged():
    world = worlds.build_event(8, rounds_played=1, started=True, organiser="olive", judge="jude")
    logged = list(EventLog.objects.filter(event=world.event).values_list("action", flat=True))
    assert sorted(logged) == sorted(["check_in", "pair", "start", "close", "pair", "start"])
    assert world.event.roles.filter(user=world.judge, role="judge").exists()
    assert [r.status for r in world.rounds] == [Round.Status.CLOSED, Round.Status.RUNNING]
    one = world.rounds[0].matches.all()
    assert all(m.status == Match.Status.FINAL for m in one)
    assert ResultChange.objects.filter(match__round=world.rounds[0], action="enter").count() == 4
    assert world.event.status == Event.Status.RUNNING
    assert all(r.checked_in for r in world.registrations)


def test_players_can_report_and_confirm_their_own_results():
    world = worlds.build_event(4, rounds_played=1, paired=False, reported_by_players=True)
    actions = ResultChange.objects.filter(match__round=world.round).values_list("action")
    assert sorted(a for (a,) in actions) == ["confirm", "confirm", "report", "report"]
    assert set(world.round.matches.values_list("status", flat=True)) == {Match.Status.CONFIRMED}


def test_best_of_one_results_fit_the_format():
    world = worlds.build_event(8, rounds_played=2, paired=False, match_format="bo1")
    for match in Match.objects.filter(round__event=world.event):
        assert len(match.games) == 1


def test_decklists_and_penalties():
    world = worlds.build_event(6, decklists=True, penalties=2)
    lists = Decklist.objects.filter(registration__event=world.event)
    assert lists.count() == 6 and all(d.legal and d.status == "submitted" for d in lists)
    given = Penalty.objects.filter(event=world.event).order_by("match__table")
    assert [p.player_id for p in given] == [world.table(1).player_a_id, world.table(2).player_a_id]
    assert {p.infraction for p in given} == {"slow_play"} and given[0].judge == world.judge


def test_walk_ins_have_names_and_no_accounts():
    world = worlds.build_event(["山田太郎", "Ana García", "Zoë Müller"], accounts=False)
    assert [r.display_name for r in world.registrations] == ["山田太郎", "Ana García", "Zoë Müller"]
    assert world.users == [None, None, None]
    assert not User.objects.exclude(username__in=["organiser", "judge"]).exists()
    assert world.round.matches.filter(is_bye=True).count() == 1


def test_named_players_and_existing_users_keep_their_order():
    ada = User.objects.create(username="ada", first_name="Ada")
    world = worlds.build_event(["Bea", ada, "Cy"], paired=False, checked_in=False)
    assert [u.username for u in world.users] == ["bea", "ada", "cy"]
    assert [r.user_id for r in world.registrations] == [u.pk for u in world.users]
    assert not any(r.checked_in for r in world.registrations)
    assert world.round is None


def test_one_password_hash_serves_every_new_account():
    world = worlds.build_event(3, paired=False, password="a-long-test-password")
    hashes = {u.password for u in User.objects.filter(pk__in=[u.pk for u in world.users])}
    assert len(hashes) == 1 and world.users[0].check_password("a-long-test-password")
    unusable = worlds.build_event(["zed"], paired=False, organiser="otto", judge=None)
    assert not unusable.users[0].has_usable_password()


def test_a_refused_step_leaves_nothing_half_built():
    before = (Event.objects.count(), Registration.objects.count(), User.objects.count())
    with pytest.raises(ServiceError, match="at least two active players"):
        worlds.build_event(1, name="Too Small")
    assert (Event.objects.count(), Registration.objects.count(), User.objects.count()) == before
    with pytest.raises(ValueError, match="Iacta only"):
        worlds.build_event(2, decklists=True, game="superjack")
    with pytest.raises(ValueError, match="fewer tables than 2"):
        worlds.build_event(2, penalties=2)
    assert Event.objects.count() == before[0]


def test_demo_decklist_is_the_demo_pools_legal_list():
    from decks.cardpool import load_demo_pools
    from decks.services import check_text

    load_demo_pools()
    world = worlds.build_event(2, paired=False)
    texts = [worlds.demo_decklist(i) for i in range(6)]
    assert len(set(texts)) == 6
    assert all(check_text(world.event, text).legal for text in texts)
