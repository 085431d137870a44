"""Decklist registration, legality, locks, privacy and deck checks."""

import datetime
import html
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from arbiter.worlds import demo_decklist, submit_demo_decklists
from decks import services
from decks.cardpool import load_demo_pools
from decks.models import Decklist
from judging.models import Penalty
from tests.conftest import make_event, refused
from tests.unit.decks.decklist_exports import EXPORTS
from tests.unit.decks.decklist_exports import MAIN as EXPORT_MAIN
from tests.unit.decks.decklist_exports import SIDEBOARD as EXPORT_SIDEBOARD
from tournaments.models import EventLog
from tournaments.rounds import services as rounds
from web.errors import ServiceError

pytestmark = pytest.mark.django_db


BULLETED_CHATTER = "My Ember list for Saturday, feedback welcome:"


def legal() -> str:
    """A legal 44+6 list from the demo pool (the pool must be loaded)."""
    return demo_decklist(0)


@pytest.fixture
def hall(make_world):
    """A 4-player Iacta event with the demo pool; jude judges it."""
    load_demo_pools()
    return make_world(4, paired=False).event


def player_of(event, index=0):
    return event.registrations.order_by("pk")[index]


def test_a_legal_list_is_submitted(hall):
    registration = player_of(hall)
    decklist, report = services.save_decklist(registration, legal(), submit=True, actor=None)
    assert report.legal and report.violations == []
    assert decklist.status == Decklist.Status.SUBMITTED and decklist.main_count == 44


def test_every_violation_is_listed_with_its_rule(hall):
    report = services.check_text(hall, "5 Ember Tithe")  # a fifth copy, and 5 cards in all
    messages = [v["message"] for v in report.violations if v["rule"] == "201.1"]
    assert len(messages) >= 2  # too few cards and too many copies, both reported
    assert not report.legal


def test_an_illegal_list_can_be_saved_as_a_draft_but_not_submitted(hall):
    registration = player_of(hall)
    with pytest.raises(services.NotSubmitted, match=r"not legal yet.*kept as your draft"):
        services.save_decklist(registration, "4 Ember Tithe", submit=True, actor=None)
    kept = Decklist.objects.get(registration=registration)  # refused, yet not lost
    assert kept.status == Decklist.Status.DRAFT and kept.raw_text == "4 Ember Tithe"
    decklist, _ = services.save_decklist(registration, "4 Ember Tithe", submit=False, actor=None)
    assert decklist.status == Decklist.Status.DRAFT and not decklist.legal


def test_misspelt_names_get_did_you_mean(hall):
    report = services.check_text(hall, "4 Embr Tithe")
    assert report.unknown[0]["name"] == "Embr Tithe"
    assert report.unknown[0]["suggestions"][0] == "Ember Tithe"
    assert not report.legal


@pytest.mark.parametrize("style", ["{n}x {name}", "{n}\t{name}", "{n},{name}", "{name} x{n}"])
def test_paste_formats_all_read_the_same(hall, style):
    lines = []
    for line in legal().splitlines():
        if line and line[0].isdigit():
            count, name = line.split(" ", 1)
            lines.append(style.format(n=count.rstrip("x"), name=name))
        else:
            lines.append(line)
    assert services.check_text(hall, "\n".join(lines)).legal


def test_deadline_is_enforced(hall):
    hall.decklist_deadline = timezone.now() - datetime.timedelta(minutes=1)
    hall.save()
    with refused("deadline"):
        services.save_decklist(player_of(hall), legal(), submit=True, actor=None)


def test_lists_lock_when_round_one_starts_and_an_organiser_may_unlock_one(hall, organiser):
    registration = player_of(hall)
    decklist, _ = services.save_decklist(registration, legal(), submit=True, actor=None)
    round_ = rounds.pair_next_round(hall, organiser)
    services.save_decklist(registration, legal(), submit=True, actor=None)  # paired, not started
    rounds.start_round(round_, organiser)
    with refused("locked when round 1 started"):
        services.save_decklist(registration, legal(), submit=True, actor=None)
    with refused("reason"):
        services.unlock_decklist(decklist, organiser, "")
    services.unlock_decklist(decklist, organiser, "wrong card count typed")
    assert EventLog.objects.get(action="unlock_decklist").reason == "wrong card count typed"
    decklist, _ = services.save_decklist(registration, legal(), submit=True, actor=None)
    assert not decklist.unlocked  # locked again once resubmitted
    with refused("locked"):
        services.save_decklist(registration, legal(), submit=True, actor=None)


# --- privacy through pages and the API ---------------------------------------------------


@pytest.fixture
def submitted(hall):
    registration = player_of(hall)
    services.save_decklist(registration, legal(), submit=True, actor=None)
    return registration


@pytest.mark.parametrize(
    ("who", "page", "api"),
    [
        ("owner", 200, 200),
        ("other_player", 403, 403),
        ("judge", 200, 200),
        ("organiser", 200, 200),
        ("anonymous", 302, 403),
    ],
)
def test_a_decklist_is_private_until_published(
    client, hall, submitted, judge, organiser, who, page, api
):
    users = {
        "owner": submitted.user,
        "other_player": player_of(hall, 1).user,
        "judge": judge,
        "organiser": organiser,
    }
    if who in users:
        client.force_login(users[who])
    url = f"/events/{hall.pk}/decklists/{submitted.pk}/"
    shown = client.get(url)
    assert shown.status_code == page
    read = client.get(f"/api/v1/events/{hall.pk}/decklists/{submitted.pk}/")
    assert read.status_code == api
    card = submitted.decklist.main[0]["name"]  # the list itself: only where it may be read
    assert (card in shown.content.decode()) == (page == 200)
    assert (card in read.content.decode()) == (api == 200)


def test_published_decklists_are_public(client, hall, submitted):
    hall.decklists_public = "all"
    hall.save()
    assert client.get(f"/events/{hall.pk}/decklists/{submitted.pk}/").status_code == 200
    body = client.get(f"/api/v1/events/{hall.pk}/decklists/{submitted.pk}/").json()
    assert body["legal"] is True and sum(e["count"] for e in body["main"]) == 44


def test_publishing_shows_submitted_lists_but_never_a_draft(client, hall, submitted):
    drafting = player_of(hall, 1)
    services.save_decklist(drafting, legal(), submit=False, actor=None)
    hall.decklists_public = "all"
    hall.save()
    client.force_login(player_of(hall, 2).user)
    index = client.get(f"/events/{hall.pk}/decklists/").content.decode()
    assert f"/decklists/{submitted.pk}/" in index
    assert f"/decklists/{drafting.pk}/" not in index
    page = client.get(f"/events/{hall.pk}/decklists/{drafting.pk}/")
    assert page.status_code == 403
    assert "private until the organiser publishes it" in page.content.decode()
    api = client.get(f"/api/v1/events/{hall.pk}/decklists/{drafting.pk}/")
    assert api.status_code == 403
    assert "private until the organiser publishes it" in api.json()["errors"][0]["message"]
    assert '"main"' not in api.content.decode()


def test_top_cut_publication_shows_only_top_cut_lists(client, hall, submitted):
    hall.decklists_public = "top_cut"
    hall.save()
    response = client.get(f"/events/{hall.pk}/decklists/{submitted.pk}/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    api = client.get(f"/api/v1/events/{hall.pk}/decklists/{submitted.pk}/")
    assert api.status_code == 403
    assert "private until the organiser publishes it" in api.json()["errors"][0]["message"]


def test_player_submits_through_the_api_and_reads_their_own(client, hall):
    registration = player_of(hall, 2)
    client.force_login(registration.user)
    url = f"/api/v1/events/{hall.pk}/decklists/mine/"
    response = client.put(url, {"text": legal(), "submit": True}, content_type="application/json")
    assert response.status_code == 200 and response.json()["status"] == "submitted"
    assert client.get(url).json()["legal"] is True
    other = player_of(hall, 3)
    response = client.put(
        f"/api/v1/events/{hall.pk}/decklists/{other.pk}/",
        {"text": legal()},
        content_type="application/json",
    )
    assert response.status_code == 403
    assert response.json()["errors"] and not Decklist.objects.filter(registration=other).exists()


def test_legality_report_api_lists_violations(client, hall):
    response = client.post(
        "/api/v1/decklists/legality/",
        {"event": hall.pk, "text": "4 Embr Tithe"},
        content_type="application/json",
    )
    body = response.json()
    assert response.status_code == 200 and body["legal"] is False
    assert body["unknown"][0]["suggestions"][0] == "Ember Tithe"


def test_card_search_api(client, hall):
    names = [
        c["name"] for c in client.get("/api/v1/cards/", {"game": "iacta", "q": "tithe"}).json()
    ]
    assert "Ember Tithe" in names
    unknown = client.get("/api/v1/cards/", {"game": "chess"})
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["field"] == "game"


def test_player_deck_page_shows_the_live_report(client, hall):
    registration = player_of(hall)
    client.force_login(registration.user)
    assert client.get(f"/events/{hall.pk}/deck/").status_code == 200
    fragment = client.post(f"/events/{hall.pk}/deck/check/", {"decklist": "4 Embr Tithe"})
    text = fragment.content.decode()
    assert 'data-to="Ember Tithe"' in text and "Not legal yet" in text
    response = client.post(
        f"/events/{hall.pk}/deck/", {"decklist": legal(), "action": "submit"}, follow=True
    )
    assert "Decklist submitted" in response.content.decode()


def test_superjack_events_need_no_decklist(client, organiser):
    event = make_event(organiser, 2, game="superjack")
    client.force_login(event.registrations.first().user)
    assert "No decklist needed" in client.get(f"/events/{event.pk}/deck/").content.decode()


# --- deck checks and sideboard checks ----------------------------------------------------


@pytest.fixture
def checked_round(hall, organiser):
    """Round 1 paired after all four submitted ``demo_decklist(i)``, in registration order."""
    submit_demo_decklists(list(hall.registrations.order_by("pk")))
    return rounds.pair_next_round(hall, organiser)


def test_pick_tables_puts_already_checked_players_last(checked_round, judge):
    matches = list(checked_round.matches.filter(is_bye=False))
    first = matches[0]
    services.record_deck_check(
        first.player_a,
        demo_decklist(list(first.round.event.registrations.order_by("pk")).index(first.player_a)),
        judge,
        first,
    )
    for seed in range(5):
        assert services.pick_tables(checked_round, 2, seed=seed)[-1] == first


def test_deck_check_finds_every_difference_and_raises_the_game_loss(checked_round, judge):
    match = checked_round.matches.filter(is_bye=False).order_by("table").first()
    player = match.player_a
    registered = Decklist.objects.get(registration=player)
    name = registered.main[0]["name"]
    presented = demo_decklist(
        list(checked_round.event.registrations.order_by("pk")).index(player)
    ).replace(f"4 {name}", f"3 {name}", 1)
    check = services.record_deck_check(player, presented, judge, match)
    assert check.differences == [
        {"zone": "main", "name": name, "registered": 4, "presented": 3, "delta": -1}
    ]
    penalty = services.penalise_deck_check(check, judge, game=1)
    assert penalty.infraction == "illegal_deck"
    assert [c["rule"] for c in penalty.consequences] == ["203.1"]
    with pytest.raises(ServiceError, match="already raised"):
        services.penalise_deck_check(check, judge)
    assert Penalty.objects.count() == 1


def test_a_deck_check_game_loss_shows_the_result_change_before_it_is_confirmed(
    client, checked_round, judge
):
    from tournaments.record.match_games import Score
    from tournaments.results import services as results

    match = checked_round.matches.filter(is_bye=False).order_by("table").first()
    a, b = match.player_a, match.player_b
    results.report_result(match, a, Score(2, 1), a.user)
    results.confirm_result(match, b, b.user)
    presented = demo_decklist(
        list(checked_round.event.registrations.order_by("pk")).index(a)
    ).split("\n", 1)[1]  # a card short
    check = services.record_deck_check(a, presented, judge, match)
    url = f"/events/{checked_round.event.pk}/deck-checks/{check.pk}/"
    client.force_login(judge)

    # Issue 30: on a result already in, the judge says first whether the players' result
    # includes the Game Loss and, a score alone not telling, who won game 2.
    asked = client.post(url, {"game": "2"})
    assert asked.status_code == 400
    assert "Does the players' result already include this Game Loss?" in asked.content.decode()
    answers = {"game": "2", "in_result": "no", "game_winner": str(a.pk)}
    first = client.post(url, answers)
    assert first.status_code == 400
    text = first.content.decode()
    sentence = (
        f"This penalty makes game 2 a Game Loss for {a.display_name} (203.1): "
        "the confirmed result 2-1 becomes 1-2."
    )
    assert sentence in html.unescape(text)
    assert Penalty.objects.count() == 0 and match.changes.count() == 2
    token = re.search(r'name="confirm_change" value="([^"]+)"', text).group(1)

    client.post(url, {**answers, "confirm_change": token})
    match.refresh_from_db()
    assert Penalty.objects.get().infraction == "illegal_deck"
    assert results.games_of(match).score_text() == "1-2"
    assert match.changes.last().source == f"penalty:{Penalty.objects.get().pk}"


def test_deck_check_pages_for_judges_only(client, hall, checked_round, judge):
    client.force_login(player_of(hall).user)
    refused_page = client.get(f"/events/{hall.pk}/deck-checks/")
    assert refused_page.status_code == 403
    assert "organiser or judges may open this page" in refused_page.content.decode()
    client.force_login(judge)
    page = client.get(f"/events/{hall.pk}/deck-checks/", {"pick": 1, "count": 1})
    assert "Table " in page.content.decode()


def test_sideboard_check_from_the_deck_page(client, hall, submitted, judge):
    client.force_login(judge)
    response = client.post(
        f"/events/{hall.pk}/decklists/{submitted.pk}/sideboard/",
        {"proposed": legal()},
        follow=True,
    )
    assert response.status_code == 200
    assert "flash-success" in response.content.decode()


def test_validate_decks_command_rechecks_every_list(hall, submitted):
    Decklist.objects.filter(pk=submitted.decklist.pk).update(legal=False)
    out = StringIO()
    call_command("validate_decks", hall.pk, stdout=out)
    assert "1 decklists checked" in out.getvalue() and "1 legal" in out.getvalue()
    submitted.decklist.refresh_from_db()
    assert submitted.decklist.legal


def test_decklist_index_is_private_to_staff(client, hall, submitted, judge):
    client.force_login(player_of(hall, 1).user)
    refused_page = client.get(f"/events/{hall.pk}/decklists/")
    assert refused_page.status_code == 403
    assert "Decklists are private until the organiser" in refused_page.content.decode()
    assert submitted.display_name not in refused_page.content.decode()
    client.force_login(judge)
    assert submitted.display_name in client.get(f"/events/{hall.pk}/decklists/").content.decode()


def test_an_illegal_submission_over_the_api_names_each_broken_rule(client, hall):
    registration = player_of(hall, 2)
    client.force_login(registration.user)
    first = legal().splitlines()[0]  # "4 <name>": a fifth copy breaks 201.1
    text = legal() + "\n1 " + first.split(" ", 1)[1]
    response = client.put(
        f"/api/v1/events/{hall.pk}/decklists/mine/",
        {"text": text, "submit": True},
        content_type="application/json",
    )
    assert response.status_code == 400
    messages = [e["message"] for e in response.json()["errors"]]
    assert any(m.startswith("201.1: ") for m in messages), messages
    kept = Decklist.objects.get(registration=registration)  # refused, and kept as the draft
    assert kept.status == Decklist.Status.DRAFT and not kept.legal


def test_saving_a_draft_over_a_submitted_list_makes_it_a_draft_again(hall):
    registration = player_of(hall)
    services.save_decklist(registration, legal(), submit=True, actor=None)
    decklist, report = services.save_decklist(registration, "4 Nothing", submit=False, actor=None)
    assert not report.legal
    assert decklist.status == Decklist.Status.DRAFT and decklist.submitted_at is None


# --- pasted exports through the deck page ------------------------------------------------


@pytest.mark.parametrize("kind", sorted(EXPORTS))
def test_each_common_export_submits_as_a_legal_list_from_the_deck_page(client, hall, kind):
    """Set codes, bullets, SB: lines, headings, counts after names: the same 44 + 6 cards."""
    registration = player_of(hall)
    client.force_login(registration.user)
    text = EXPORTS[kind].replace(BULLETED_CHATTER, "")  # the forum post's opening sentence
    fragment = client.post(f"/events/{hall.pk}/deck/check/", {"decklist": text}).content.decode()
    assert 'data-legal="true"' in fragment and "44 cards, sideboard 6" in fragment
    response = client.post(
        f"/events/{hall.pk}/deck/", {"decklist": text, "action": "submit"}, follow=True
    )
    assert "Decklist submitted" in response.content.decode()
    decklist = Decklist.objects.get(registration=registration)
    assert [(e["name"], e["count"]) for e in decklist.main] == EXPORT_MAIN
    assert [(e["name"], e["count"]) for e in decklist.sideboard] == EXPORT_SIDEBOARD
    assert decklist.legal and decklist.status == Decklist.Status.SUBMITTED


def test_the_pastes_seen_refused_now_read_their_cards(hall):
    report = services.check_text(hall, "4x Ember Tithe (EMB) 10\n\u2022 4 ember tithe")
    assert report.problems == [] and report.unknown == []
    assert report.main == [{"name": "Ember Tithe", "count": 8}]


def test_a_list_that_could_not_be_read_does_not_claim_it_has_no_main_syndicate(client, hall):
    """The Main Syndicate is worked out from the cards: unread lines may hold them."""
    client.force_login(player_of(hall).user)
    text = "4 Embr Tithe\n4 Kindlng Offer\n4 Quiet Ledger\nEmber Tith x\n"
    report = services.check_text(hall, text)
    assert [u["name"] for u in report.unknown] == ["Embr Tithe", "Kindlng Offer"]
    assert report.problems[0]["line"] == 4
    assert not any("Main Syndicate" in v["message"] for v in report.violations)
    fragment = client.post(f"/events/{hall.pk}/deck/check/", {"decklist": text}).content.decode()
    assert "Main Syndicate" not in fragment and "designate" not in fragment
    assert "Embr Tithe" in fragment and "no count after the" in html.unescape(fragment)
    assert "4 cards, sideboard 0 · 3 lines to fix below" in fragment
    nothing_read = services.check_text(hall, "4 Embr Tithe\n4 Kindlng Offer")
    assert nothing_read.violations == []  # "0 cards" and "no Main Syndicate" say nothing new
    empty = services.check_text(hall, "\n# my list\n")
    assert [v["rule"] for v in empty.violations] == ["201.1"] and not empty.legal


def test_a_deck_without_major_cards_is_told_how_its_main_syndicate_is_chosen(hall):
    """The deck page has no way to designate a syndicate: the message must not ask for one."""
    neutrals = ["Quiet Ledger", "Fresh Dice", "Second Opinion", "Table Talk", "Steady Hand"]
    neutrals += ["House Rules", "Dealer's Cut", "Pit Boss", "Cold Dice", "Counterweight"]
    report = services.check_text(hall, "\n".join(f"4 {name}" for name in neutrals))
    assert report.ready and not report.legal
    (message,) = [v["message"] for v in report.violations if v["rule"] == "202.1"]
    assert "designate" not in message
    assert "no card in the Deck belongs to a Major Syndicate (EMB, IRN, TID)" in message
    assert "the Major Syndicate with the most cards in the Deck" in message
    ember = ["Ember Tithe", "Kindling Offer", "Furnace Oath", "Cinder Runner", "Backdraft"]
    tide = ["Undertow", "Slack Water", "Harbour Toll", "Brine Ledger", "Ebb"]
    tied = services.check_text(hall, "\n".join(f"4 {name}" for name in ember + tide))
    (message,) = [v["message"] for v in tied.violations if v["rule"] == "202.1"]
    assert message.startswith("EMB and TID tie for the most Deck cards (20 each); the Main")
    assert "designate" not in message


def test_a_submitted_list_keeps_its_archetype_by_rule_202(hall):
    """Demo list 0 is EMB's majors with a splash of MTH; list 1 is IRN's with SLT."""
    first, second = player_of(hall, 0), player_of(hall, 1)
    decklist, _ = services.save_decklist(first, demo_decklist(0), submit=True, actor=None)
    assert decklist.archetype == "EMB/MTH"
    decklist, _ = services.save_decklist(second, demo_decklist(1), submit=False, actor=None)
    assert decklist.archetype == ""  # a draft is nothing yet
    decklist, _ = services.save_decklist(second, demo_decklist(1), submit=True, actor=None)
    assert Decklist.objects.get(pk=decklist.pk).archetype == "IRN/SLT"


def test_revalidating_after_a_card_revision_recomputes_the_archetype(hall):
    from decks.models import Card

    decklist, _ = services.save_decklist(player_of(hall), demo_decklist(0), submit=True, actor=None)
    Decklist.objects.filter(pk=decklist.pk).update(archetype="")  # as stored before issue 36
    services.revalidate_event(hall)
    assert Decklist.objects.get(pk=decklist.pk).archetype == "EMB/MTH"
    assert Card.objects.filter(game="iacta", syndicate="MTH").exists()
