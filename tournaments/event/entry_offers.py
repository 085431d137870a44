"""An entry reaches an account only with its holder's consent (issue 28).

An organiser *offers* a walk-in entry (one entered by name) to a username; the account
holder accepts or declines it from their "My events" page; only acceptance merges the
entry into the account (:func:`merge_walk_in`). Until then the organiser learns nothing
of the account: the offer is made, listed and withdrawn the same way whether an account
has that name or not, and every conflict is checked at acceptance and told to the
player. Site staff may link an entry directly (:func:`link_walk_in`), which is logged.

No entry of a draft is offered or merged: a draft is its organiser's alone, so nothing
done in one may reach anyone else's record. Every change is a service here, locked and
written to the event's log; :func:`merge_walk_in` is called from this module only.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.event.roles import ORGANISER, has_role
from tournaments.models import EntryOffer, Event, EventLog, Registration
from web.errors import ServiceError
from web.inputs import limited

USERNAME_LIMIT = 150


def is_site_staff(user) -> bool:
    """Site staff (``is_staff`` or superuser): the people who may link entries directly."""
    return bool(user.is_authenticated and (user.is_staff or user.is_superuser))


def refuse_draft(event: Event, what: str) -> None:
    """A draft takes no late entries and no merges: the refusal names the event and why."""
    if event.status == Event.Status.DRAFT:
        raise ServiceError(
            _(
                "%(event)s is a draft: %(what)s waits until the event is published "
                "(open for registration), because nothing done in a draft may reach "
                "anyone else's account."
            )
            % {"event": event.name, "what": what},
            field="event",
        )


def account_named(username: str):
    """The account with this name (any case), or None. Never shown to an organiser."""
    return get_user_model().objects.filter(username__iexact=username.strip()).first()


def _checked_username(username: str) -> str:
    typed = username.strip()
    limited("username", typed, USERNAME_LIMIT)
    if not typed:
        raise ServiceError(_("Type the player's username."), field="username")
    return typed


def _log(registration: Registration, actor, action: str, offer: EntryOffer) -> None:
    EventLog.objects.create(
        event_id=registration.event_id,
        actor=actor,
        action=action,
        data={
            "player": registration.display_name,
            "registration": registration.pk,
            "offer": offer.pk,
            "username": offer.username,
        },
    )


def _walk_in(registration: Registration) -> Registration:
    """The entry, locked, refused unless it is a walk-in of a published event."""
    event = Event.objects.select_for_update().get(pk=registration.event_id)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.user_id is not None:
        raise ServiceError(
            _(
                "%(player)s already plays with an account: only a walk-in "
                "entry can be merged into one."
            )
            % {"player": registration.display_name},
            field="registration",
        )
    refuse_draft(event, _("linking an entry to an account"))
    return registration


def make_offer(registration: Registration, username: str, actor) -> EntryOffer:
    """The offer row and its log line, for a walk-in already locked and checked; the
    same whatever ``username`` names (the account is looked up, never reported)."""
    if EntryOffer.objects.filter(
        registration=registration, state=EntryOffer.State.PENDING
    ).exists():
        raise ServiceError(
            _(
                "%(player)s's entry is already offered to an account: withdraw that "
                "offer before making another."
            )
            % {"player": registration.display_name},
            field="registration",
        )
    offer = EntryOffer.objects.create(
        registration=registration,
        username=username,
        account=account_named(username),
        offered_by=actor,
    )
    _log(registration, actor, "entry_offered", offer)
    return offer


@transaction.atomic
def offer_entry(registration: Registration, username: str, actor) -> EntryOffer:
    """The event's organiser offers a walk-in entry to the account called ``username``."""
    typed = _checked_username(username)
    registration = _walk_in(registration)
    if not has_role(actor, registration.event, ORGANISER):
        raise ServiceError(
            _("Only the organisers of %(event)s can offer its entries.")
            % {"event": registration.event.name},
            field="registration",
        )
    return make_offer(registration, typed, actor)


def _pending(offer: EntryOffer) -> EntryOffer:
    """The offer locked, and open. Its event is locked first, as every service here
    does, so an answer and a staff link on one entry wait for each other."""
    event_id = Registration.objects.values_list("event_id", flat=True).get(pk=offer.registration_id)
    Event.objects.select_for_update().get(pk=event_id)
    offer = EntryOffer.objects.select_for_update().get(pk=offer.pk)
    if offer.state != EntryOffer.State.PENDING:
        raise ServiceError(
            _("This offer is no longer open (%(state)s).") % {"state": offer.get_state_display()},
            field="offer",
        )
    return offer


def _decide(offer: EntryOffer, state: str, who) -> EntryOffer:
    offer.state = state
    offer.decided_by = who
    offer.decided_at = timezone.now()
    offer.save(update_fields=["state", "decided_by", "decided_at"])
    return offer


def _own(offer: EntryOffer, user) -> EntryOffer:
    """The offer, locked and open, when it was made to ``user``; the same refusal otherwise."""
    offer = _pending(offer)
    if offer.account_id is None or offer.account_id != user.pk:
        raise ServiceError(_("This offer is not yours to answer."), field="offer")
    return offer


@transaction.atomic
def accept_offer(offer: EntryOffer, user) -> Registration:
    """The account holder takes the entry: it becomes theirs (``merge_walk_in``). A
    conflict (they also played in that event) is refused and told to them."""
    offer = _own(offer, user)
    registration = _walk_in(offer.registration)
    merged = merge_walk_in(registration, user, user, consent="accepted")
    _decide(offer, EntryOffer.State.ACCEPTED, user)
    _log(merged, user, "entry_offer_accepted", offer)
    return merged


@transaction.atomic
def decline_offer(offer: EntryOffer, user) -> EntryOffer:
    """The account holder says no: the entry stays a walk-in."""
    offer = _own(offer, user)
    _decide(offer, EntryOffer.State.DECLINED, user)
    _log(offer.registration, user, "entry_offer_declined", offer)
    return offer


@transaction.atomic
def withdraw_offer(offer: EntryOffer, actor) -> EntryOffer:
    """The event's organiser (or site staff) takes back an offer nobody answered yet."""
    offer = _pending(offer)
    event = offer.registration.event
    if not (is_site_staff(actor) or has_role(actor, event, ORGANISER)):
        raise ServiceError(
            _("Only the organisers of %(event)s can withdraw its offers.") % {"event": event.name},
            field="offer",
        )
    _decide(offer, EntryOffer.State.WITHDRAWN, actor)
    _log(offer.registration, actor, "entry_offer_withdrawn", offer)
    return offer


@transaction.atomic
def link_walk_in(registration: Registration, username: str, actor) -> Registration:
    """Site staff link a walk-in entry to an account without asking (they settle
    disputes and duplicates); kept as a ``linked`` offer and logged as theirs."""
    if not is_site_staff(actor):
        raise ServiceError(
            _("Only site staff can link an entry without the player's consent."),
            field="username",
        )
    typed = _checked_username(username)
    account = account_named(typed)
    if account is None:
        raise ServiceError(
            _("No account is called %(username)s.") % {"username": repr(typed)},
            field="username",
        )
    registration = _walk_in(registration)
    for open_offer in EntryOffer.objects.select_for_update().filter(
        registration=registration, state=EntryOffer.State.PENDING
    ):
        _decide(open_offer, EntryOffer.State.WITHDRAWN, actor)
        _log(registration, actor, "entry_offer_withdrawn", open_offer)
    merged = merge_walk_in(registration, account, actor, consent="staff")
    linked = EntryOffer.objects.create(
        registration=merged, username=account.username, account=account, offered_by=actor
    )
    _decide(linked, EntryOffer.State.LINKED, actor)
    return merged


def merge_walk_in(registration: Registration, account, actor, *, consent: str) -> Registration:
    """A walk-in entry becomes ``account``'s, so its results follow them across events
    and series. Logged in the event, with how the holder consented (``accepted``, or
    ``staff`` for a link by site staff). Only this module calls it, inside its locks.

    Refused when the account already played in that event: one person cannot hold two
    seats in one event, and which results are theirs would be a guess."""
    event = registration.event
    if Registration.objects.filter(event=event, user=account).exists():
        raise ServiceError(
            _(
                "%(username)s also played in %(event)s: one person cannot hold both "
                "entries, so nothing was merged."
            )
            % {"username": account.username, "event": event.name},
            field="username",
        )
    registration.user = account
    registration.save(update_fields=["user"])
    EventLog.objects.create(
        event=event,
        actor=actor,
        action="merge_walk_in",
        data={
            "player": registration.display_name,
            "registration": registration.pk,
            "account": account.username,
            "consent": consent,
        },
    )
    return registration


def offers_waiting_for(user) -> QuerySet[EntryOffer]:
    """The open offers made to ``user``, for their own page."""
    return (
        EntryOffer.objects.filter(account=user, state=EntryOffer.State.PENDING)
        .select_related("registration__event", "offered_by")
        .order_by("offered_at", "pk")
    )


def open_offers_in(event: Event) -> QuerySet[EntryOffer]:
    """The event's walk-ins offered and not yet answered, for its organiser's dashboard."""
    return (
        EntryOffer.objects.filter(registration__event=event, state=EntryOffer.State.PENDING)
        .select_related("registration")
        .order_by("offered_at", "pk")
    )


def offers_of(registrations) -> dict[int, EntryOffer]:
    """The open offer of each walk-in entry, by registration id, for its organiser's page:
    the name as typed and when, nothing about any account."""
    return {
        offer.registration_id: offer
        for offer in EntryOffer.objects.filter(
            registration__in=registrations, state=EntryOffer.State.PENDING
        )
    }


def offered_to(registration: Registration) -> str | None:
    """The username an entry is offered to, as typed, while the offer is open."""
    offer = registration.entry_offers.filter(state=EntryOffer.State.PENDING).first()
    return offer.username if offer is not None else None
