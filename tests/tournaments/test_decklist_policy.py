"""The event's decklist policy at round 1 (issue 17, point 1): the organiser sees who has
no legal submitted list, can e-mail or drop them, and pairing round 1 says how many are
missing and asks to confirm; the round records which policy applied."""

import pytest
from django.core import mail

from arbiter.worlds import submit_demo_decklists
from decks import services as decks
from decks.cardpool import load_demo_pools
from tests.conftest import play_out, refused
from tournaments.models import EventLog, Registration
from tournaments.rounds import services as rounds
from tournaments.rounds.decklist_gate import MissingDecklists

pytestmark = pytest.mark.django_db


@pytest.fixture
def six(make_world):
    """Six players: the first three submitted legal lists, the fourth a draft, two none."""
    load_demo_pools()

    def build(policy: str):
        world = make_world(6, paired=False, decklist_policy=policy)
        players = list(world.event.registrations.order_by("pk"))
        submit_demo_decklists(players[:3])
        decks.save_decklist(players[3], "4 Ember Tithe", submit=False, actor=None)
        return world.event, players

    return build


def manage(client, organiser, event):
    client.force_login(organiser)
    return client.get(f"/events/{event.pk}/manage/").content.decode()


def test_the_dashboard_lists_who_has_no_legal_list_with_message_and_drop(client, organiser, six):
    event, players = six("warn")
    body = manage(client, organiser, event)
    assert "3 of 6 players have no legal submitted decklist" in body
    for player in players[3:]:
        assert player.display_name in body
    assert "a draft, not submitted" in body
    assert body.count("e-mail a reminder") == 3
    assert f"/events/{event.pk}/players/{players[4].pk}/drop/" in body


def test_warn_refuses_until_confirmed_then_pairs_everyone_and_records_it(organiser, six):
    event, players = six("warn")
    with refused("3 of 6 players have no legal submitted decklist") as caught:
        rounds.pair_next_round(event, organiser)
    assert players[5].display_name in str(caught.value)
    round_ = rounds.pair_next_round(
        event, organiser, confirm_missing_decklists=[p.pk for p in players[3:]]
    )
    assert round_.matches.count() == 3
    assert round_.pairing_stats["decklist_policy"] == "warn"
    assert round_.pairing_stats["decklists_missing"] == 3
    logged = EventLog.objects.get(event=event, action="pair")
    assert logged.data["decklist_policy"] == "warn"


def test_a_confirmation_that_missed_someone_asks_again(organiser, six):
    event, players = six("warn")
    with refused("3 of 6"):
        rounds.pair_next_round(event, organiser, confirm_missing_decklists=[players[3].pk])


def test_require_drops_the_confirmed_players_and_pairs_the_rest(organiser, six):
    event, players = six("require")
    with refused("confirm to drop them"):
        rounds.pair_next_round(event, organiser)
    round_ = rounds.pair_next_round(event, organiser, confirm_missing_decklists=True)
    seated = {m.player_a_id for m in round_.matches.all()} | {
        m.player_b_id for m in round_.matches.all()
    }
    assert seated - {None} == {p.pk for p in players[:3]}  # one table and a bye
    for player in players[3:]:
        player.refresh_from_db()
        assert player.status == Registration.Status.DROPPED
    assert EventLog.objects.filter(event=event, action="drop").count() == 3
    assert round_.pairing_stats["dropped_without_decklist"] == [p.display_name for p in players[3:]]


def test_none_pairs_as_before(organiser, six):
    event, _ = six("none")
    assert rounds.pair_next_round(event, organiser).matches.count() == 3


def test_the_pair_button_asks_and_the_confirmed_pairing_shows_the_policy(client, organiser, six):
    event, players = six("warn")
    body = manage(client, organiser, event)
    assert 'id="confirm-missing-decklists"' in body
    assert "Pair round 1 anyway" in body
    client.post(f"/events/{event.pk}/next/", {"action": "pair"})
    assert not event.rounds.exists()
    page = client.get(f"/events/{event.pk}/manage/").content.decode()
    assert "have no legal submitted decklist" in page and "confirm to pair them anyway" in page
    missing = ",".join(str(p.pk) for p in players[3:])
    client.post(f"/events/{event.pk}/next/", {"action": "pair", "missing": missing})
    assert event.rounds.count() == 1
    page = client.get(f"/events/{event.pk}/manage/").content.decode()
    assert "paired with 3 players without a legal submitted list" in page


def test_one_click_e_mails_the_players_without_a_list(client, organiser, six):
    event, players = six("warn")
    client.force_login(organiser)
    client.post(f"/events/{event.pk}/decklist-reminders/", {"players": players[4].pk})
    assert [m.to for m in mail.outbox] == [[players[4].user.email]]
    assert f"/events/{event.pk}/deck/" in mail.outbox[0].body
    client.post(f"/events/{event.pk}/decklist-reminders/")
    assert len(mail.outbox) == 4  # then all three
    assert EventLog.objects.filter(event=event, action="decklist_reminder").count() == 2


def test_the_api_refuses_with_a_confirm_field_and_pairs_once_confirmed(client, organiser, six):
    event, _ = six("require")
    client.force_login(organiser)
    url = f"/api/v1/events/{event.pk}/rounds/"
    refused_answer = client.post(url, {}, content_type="application/json")
    assert refused_answer.status_code == 400
    error = refused_answer.json()["errors"][0]
    assert error["field"] == "confirm_missing_decklists" and "3 of 6" in error["message"]
    paired = client.post(url, {"confirm_missing_decklists": True}, content_type="application/json")
    assert paired.status_code == 201
    stats = paired.json()["stats"]
    assert stats["decklist_policy"] == "require" and "pair_downs" in stats


def test_the_organiser_chooses_the_policy_on_the_event_form(client, organiser, six):
    event, _ = six("none")
    client.force_login(organiser)
    form = client.get("/events/new/").content.decode()
    assert 'value="warn" selected' in form
    page = client.get(f"/events/{event.pk}/edit/").content.decode()
    assert 'name="decklist_policy"' in page


def test_players_are_all_fine_then_no_question(organiser, make_world):
    load_demo_pools()
    world = make_world(4, paired=False, decklist_policy="require")
    submit_demo_decklists(list(world.event.registrations.order_by("pk")))
    round_ = rounds.pair_next_round(world.event, organiser)
    assert round_.pairing_stats["decklists_missing"] == 0


def test_the_refusal_names_the_players(organiser, six):
    event, players = six("warn")
    with pytest.raises(MissingDecklists) as caught:
        rounds.pair_next_round(event, organiser)
    assert [m.registration for m in caught.value.missing] == players[3:]


def test_the_dashboard_shows_the_decklist_record_with_round_1_only(client, organiser, six):
    event, _ = six("warn")
    first = rounds.pair_next_round(event, organiser, confirm_missing_decklists=True)
    page = manage(client, organiser, event)
    assert "Decklist check (warn): paired with 3 players without a legal submitted list" in page
    play_out(first, organiser, "2-0")
    rounds.close_round(first, organiser)
    rounds.pair_next_round(event, organiser)
    assert "Decklist check" not in manage(client, organiser, event)  # round 2's view


def test_a_player_dropped_before_round_1_reads_so_on_the_dashboard(client, organiser, six):
    event, players = six("warn")
    client.force_login(organiser)
    client.post(f"/events/{event.pk}/players/{players[5].pk}/drop/", {"reason": "No list."})
    page = manage(client, organiser, event)
    assert "Dropped before round 1" in page and "after round 0" not in page


def test_a_reminder_speaks_the_players_language_not_the_organisers(client, organiser, six):
    from accounts.models import LanguagePreference

    event, players = six("warn")
    LanguagePreference.objects.create(user=players[4].user, language="de")
    client.force_login(organiser)
    client.post(
        f"/events/{event.pk}/decklist-reminders/",
        {"players": [players[4].pk, players[5].pk]},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert subjects[players[4].user.email] == f"Ihre Deckliste für {event.name}"
    assert subjects[players[5].user.email] == f"Your decklist for {event.name}"
