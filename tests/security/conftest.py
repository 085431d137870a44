"""Engineer B's fixtures for the security tests: one populated event in which every path
parameter of the site resolves to a real object, and a draft event beside it.

Engineer A's tests in this folder do not use these fixtures.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Q
from django.test import override_settings
from django.utils import timezone

from arbiter.worlds import build_event
from decks.models import Card, DeckCheck, Decklist
from judging import calls
from judging.models import JudgeCall, Penalty
from judging.penalties import issue_penalty
from precedents.models import Precedent
from printing.models import PrintJob
from series.models import Series
from series.services import create_series
from tests.conftest import make_user
from tournaments.clock import extensions as clock
from tournaments.event import avoid_pairs, entry_offers
from tournaments.event.services import add_late_entry
from tournaments.models import (
    AvoidPair,
    Event,
    EventRole,
    Match,
    Registration,
    Round,
    TimeExtension,
)
from webhooks.models import Delivery, Subscription

# Card names no page prints unless it shows that player's decklist.
PAT_MAIN, PAT_SIDE = "Quillmark Vesper", "Saffron Lattice"
RIVAL_MAIN, RIVAL_SIDE = "Obsidian Harrow", "Verdigris Chime"
THIRD_MAIN, THIRD_SIDE = "Lantern of Ysolde", "Marrowind Sigil"
DECK_CARDS = {
    "pat": (PAT_MAIN, PAT_SIDE),
    "rival": (RIVAL_MAIN, RIVAL_SIDE),
    "third": (THIRD_MAIN, THIRD_SIDE),
}


@dataclass
class World:
    """Everything the URL walk needs, named by what it is to the four roles."""

    organiser: User
    judge: User
    player: User  # pat: registered, seated at ``my_match``; not staff
    rival: User  # pat's opponent
    third: User  # plays at the other table
    fourth: User
    outsider: User  # an account with no part in the event
    event: Event  # running: round 1 started, decklists locked
    draft: Event  # the same people, but the organiser moved it back to draft
    draft_registration: Registration  # pat's, with a list, "published" to all
    registration: Registration  # pat's
    rival_registration: Registration
    third_registration: Registration
    round: Round
    my_match: Match
    other_match: Match
    penalty: Penalty
    call: JudgeCall
    extension: TimeExtension  # granted at ``my_match``
    deck_check: DeckCheck
    print_job: PrintJob  # a finished print of the decklists
    card: Card
    judge_grant: EventRole
    avoid_pair: AvoidPair  # pat and the third player, kept apart by the organiser
    series: Series  # the organiser's, of ``event``
    webhook: Subscription  # the organiser's, of ``event``
    webhook_delivery: Delivery  # one logged delivery of ``webhook``
    precedent: Precedent  # a ruling of ``event``, flagged: a rule it cites changed
    foreign: dict[str, int]  # ids of another event's objects (organised by otto)

    def user(self, role: str) -> User | None:
        """The account acting in ``role`` (None for anonymous)."""
        return {
            "anonymous": None,
            "player": self.player,
            "judge": self.judge,
            "organiser": self.organiser,
            "rival": self.rival,
            "third": self.third,
            "outsider": self.outsider,
        }[role]


def _card(name: str) -> Card:
    return Card.objects.create(
        game="iacta", name=name, tier=Card.Tier.NEUTRAL, text=f"{name} does something."
    )


def _decklist(registration: Registration, main_card: str, side_card: str) -> Decklist:
    """A submitted list with one distinctive card in the main deck and one in the sideboard."""
    return Decklist.objects.create(
        registration=registration,
        main=[{"name": main_card, "count": 4}, {"name": "Ember Tithe", "count": 4}],
        sideboard=[{"name": side_card, "count": 2}],
        raw_text=f"4 {main_card}\n4 Ember Tithe\n\nSideboard\n2 {side_card}",
        status=Decklist.Status.SUBMITTED,
        legal=True,
        submitted_at=timezone.now(),
    )


def _seat(round_: Round, registration: Registration) -> Match:
    return round_.matches.get(Q(player_a=registration) | Q(player_b=registration))


def _opponent(match: Match, registration: Registration) -> Registration:
    return match.player_b if match.player_a_id == registration.pk else match.player_a


def _webhook(owner: User, event: Event) -> Delivery:
    """A webhook of ``event`` with one delivery logged (written as rows: the URL is never
    sent to, so it need not resolve)."""
    hook = Subscription.objects.create(
        owner=owner, event=event, url="https://example.org/hooks", secret="whsec_c2VjcmV0"
    )
    return Delivery.objects.create(
        subscription=hook,
        message_id=f"msg_security_{event.pk}",
        kind="webhook.test",
        payload={"type": "webhook.test", "data": {}},
        outcome=Delivery.Outcome.DELIVERED,
        attempts=1,
    )


def _flagged_precedent(event: Event) -> Precedent:
    """A precedent of ``event`` whose cited rule reads differently now (written as a row:
    what flags it is tested in tests/precedents/test_review.py)."""
    return Precedent.objects.create(
        event=event,
        event_name=event.name,
        ruled_on=timezone.localdate(),
        game="iacta",
        question="deck-legality",
        decision=Precedent.Decision.UPHELD,
        rules=["202.1"],
        rule_texts={"202.1": "202.1 A Deck names one Syndicate."},
        review={"202.1": {"old": "202.1 A Deck names one Syndicate.", "new": None}},
        needs_review=True,
    )


def _foreign_event(outsider: User) -> dict[str, int]:
    """Another running event, none of the four roles' business: the ids of its objects,
    keyed by the path parameter they would fill."""
    world = build_event(["xena", "yuri"], name="Elsewhere Open", organiser=outsider, judge="zed")
    event, players, registrations = world.event, world.users, world.registrations
    grant = EventRole.objects.get(event=event, role=EventRole.Role.JUDGE)
    match = world.table(1)
    _decklist(registrations[0], "Ember Tithe", "Ember Tithe")
    delivery = _webhook(outsider, event)
    return {
        "webhook_id": delivery.subscription_id,
        "delivery_id": delivery.pk,
        "match_id": match.pk,
        "registration_id": registrations[0].pk,
        "who": registrations[0].pk,
        "user_id": players[0].pk,
        "grant_id": grant.pk,
        "penalty_id": issue_penalty(registrations[0], "slow_play", outsider, match=match).pk,
        "call_id": calls.open_call(event, outsider, question="Which die?", match=match).pk,
        "extension_id": clock.grant_extension(match, 3, "Spilled drink", outsider).pk,
        "check_id": DeckCheck.objects.create(event=event, registration=registrations[0]).pk,
        "job_id": PrintJob.objects.create(event=event, kind="standings", fingerprint="x").pk,
        # otto's walk-in offered to pat: only pat may answer it, only otto withdraw it.
        "pair_id": avoid_pairs.add_pair(event, registrations[0], registrations[1], outsider).pk,
        "offer_id": entry_offers.offer_entry(
            add_late_entry(event, outsider, name="Walk-in Wanda"), "pat", outsider
        ).pk,
    }


def build_world() -> World:
    organiser = make_user("olive", first_name="Olive")
    judge = make_user("jude", first_name="Jude")
    player = make_user("pat", first_name="Patience")
    others = [make_user(n, first_name=n.title()) for n in ("ravi", "tess", "finn")]
    outsider = make_user("otto")
    world = build_event(
        [player, *others],
        name="Security Open",
        organiser=organiser,
        judge=judge,
        started=True,
        swiss_rounds=1,
        top_cut=2,
    )
    event, round_, registrations = world.event, world.round, world.registrations
    grant = EventRole.objects.get(event=event, user=judge, role=EventRole.Role.JUDGE)
    mine = _seat(round_, registrations[0])
    rival = _opponent(mine, registrations[0])
    other = round_.matches.exclude(pk=mine.pk).get()
    third = other.player_a
    for card in (*DECK_CARDS["pat"], *DECK_CARDS["rival"], *DECK_CARDS["third"], "Ember Tithe"):
        _card(card)
    _decklist(registrations[0], *DECK_CARDS["pat"])
    _decklist(rival, *DECK_CARDS["rival"])
    _decklist(third, *DECK_CARDS["third"])
    penalty = issue_penalty(registrations[0], "slow_play", judge, match=mine, notes="Slow.")
    call = calls.open_call(event, judge, question="Who rolls first?", match=mine, judge=judge)
    extension = clock.grant_extension(mine, 5, "Deck check", judge)
    deck_check = DeckCheck.objects.create(
        event=event,
        round=round_,
        match=mine,
        registration=registrations[0],
        judge=judge,
        presented_main=[{"name": PAT_MAIN, "count": 4}],
    )
    job = PrintJob.objects.create(
        event=event,
        kind="decklists",
        requested_by=organiser,
        status=PrintJob.Status.DONE,
        fingerprint="security-test",
        pages=1,
    )
    job.file.save(f"decklists-{event.pk}.pdf", ContentFile(b"%PDF-1.4\n% security test\n"))
    hidden = build_event(
        [player],
        name="Hidden Draft Cup",
        organiser=organiser,
        judge=judge,
        checked_in=False,
        paired=False,
        decklists_public="all",
    )
    draft, draft_registration = hidden.event, hidden.registrations[0]
    _decklist(draft_registration, "Ember Tithe", "Ember Tithe")
    Event.objects.filter(pk=draft.pk).update(status=Event.Status.DRAFT)
    draft.refresh_from_db()
    delivery = _webhook(organiser, event)
    return World(
        organiser=organiser,
        judge=judge,
        player=player,
        rival=rival.user,
        third=third.user,
        fourth=other.player_b.user,
        outsider=outsider,
        event=event,
        draft=draft,
        draft_registration=draft_registration,
        registration=registrations[0],
        rival_registration=rival,
        third_registration=third,
        round=round_,
        my_match=mine,
        other_match=other,
        penalty=penalty,
        call=call,
        extension=extension,
        deck_check=deck_check,
        print_job=job,
        card=Card.objects.get(name=PAT_MAIN),
        judge_grant=grant,
        avoid_pair=avoid_pairs.add_pair(event, registrations[0], third, organiser, "family"),
        series=create_series(organiser, [event], name="Security League", placing_points="1: 3"),
        webhook=delivery.subscription,
        webhook_delivery=delivery,
        precedent=_flagged_precedent(event),
        foreign=_foreign_event(outsider),
    )


@pytest.fixture(scope="module")
def shared_world(django_db_setup, django_db_blocker, tmp_path_factory):
    """One world for a whole module, inside a transaction rolled back at its end; each
    test runs in its own savepoint inside it, so whatever a request changes is undone."""
    media = tmp_path_factory.mktemp("media")
    fast = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with override_settings(MEDIA_ROOT=media, PASSWORD_HASHERS=fast), django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield build_world()
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def w(shared_world, db) -> World:
    """The module's world, for a test running in its own savepoint."""
    return shared_world
