"""State changes of events and registrations, each in one transaction.

Views and API endpoints call these and never change rows themselves (design.md,
Conventions); rounds are in ``rounds``, match results in ``results``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments import signals
from tournaments.event import entry_offers, local_time
from tournaments.event.check_in import self_check_in_closed
from tournaments.models import DecklistPolicy, Event, EventLog, EventRole, Registration
from tournaments.record.standings import results_changed
from web.errors import FieldError, ServiceError
from web.inputs import limited, too_long

MAX_TABLE = 2_147_483_647  # the table pin's column ceiling (the API documents it)
# The rules as sentences: the constants are the English (the API's docs and the tests read
# them); a refusal says them in the active language (table_pin_rule(), _(TOP_CUT_RULE)).
_TABLE_PIN_RULE = gettext_noop(
    "A table pin is a table number from 1 to %(limit)s, or empty to clear it."
)
TABLE_PIN_RULE = _TABLE_PIN_RULE % {"limit": f"{MAX_TABLE:,}"}
TOP_CUT_RULE = gettext_noop("The top cut must be 0 or a power of two (2, 4, 8, …).")


def table_pin_rule() -> str:
    """:data:`TABLE_PIN_RULE` in the active language."""
    return _(_TABLE_PIN_RULE) % {"limit": f"{MAX_TABLE:,}"}


EDITABLE_EVENT_FIELDS = (
    "name",
    "game",
    "date",
    "venue",
    "time_zone",
    "status",
    "match_format",
    "swiss_rounds",
    "top_cut",
    "round_minutes",
    "first_round_at",
    "break_minutes",
    "registration_cap",
    "registration_deadline",
    "decklist_deadline",
    "self_check_in_opens",
    "decklist_policy",
    "decklists_public",
    "print_paper",
)


EVENT_TEXT_FIELDS = ("name", "venue")
# A new event warns about missing decklists unless its creator chooses otherwise (the
# creation page's and the API's default; the model's stays "none" for older rows).
NEW_EVENT_DECKLIST_POLICY = DecklistPolicy.WARN


def _text_problems(fields: dict[str, Any]) -> list[FieldError]:
    """Every text field past its column's length, each naming itself and the limit."""
    problems = []
    for name in EVENT_TEXT_FIELDS:
        value = fields.get(name)
        limit = Event._meta.get_field(name).max_length
        if isinstance(value, str) and len(value) > limit:
            problems.append(FieldError(field=name, message=too_long(name, value, limit)))
    return problems


@transaction.atomic
def create_event(organiser, **fields) -> Event:
    """A new event whose creator is its first organiser.

    Its texts are measured here, whatever sent them (the page's form, an import, a
    script): a name past its limit is refused naming the field, before the database."""
    problems = _text_problems(fields)
    if problems:
        raise ServiceError.of(problems)
    if not fields.get("time_zone"):
        fields["time_zone"] = local_time.new_event_zone(organiser)
    event = Event.objects.create(created_by=organiser, **fields)
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    return event


def check_top_cut(cut: int) -> None:
    """A single-elimination bracket needs a power of two players (or no cut at all)."""
    if cut and cut & (cut - 1):
        raise ServiceError(_(TOP_CUT_RULE), field="top_cut")


def _model_problems(event: Event, fields: list[str]) -> list[FieldError]:
    """What the model's own rules (lengths, choices, bounds) say of the given fields."""
    others = [f.name for f in Event._meta.fields if f.name not in fields]
    try:
        event.full_clean(exclude=others, validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        return [
            FieldError(field=name, message=f"{name}: {message}")
            for name, messages in exc.message_dict.items()
            for message in messages
        ]
    return []


@transaction.atomic
def update_event(event: Event, actor, **fields: Any) -> Event:
    """Change an event's details; the log names the fields that changed.

    Only the details an organiser edits (``EDITABLE_EVENT_FIELDS``) may change here:
    the seed, the points and the tiebreakers belong to the event's history.
    """
    unknown = sorted(set(fields) - set(EDITABLE_EVENT_FIELDS))
    if unknown:
        raise ServiceError.of(
            FieldError(field=name, message=_("%(field)s cannot be changed here.") % {"field": name})
            for name in unknown
        )
    event = Event.objects.select_for_update().get(pk=event.pk)
    changed = sorted(name for name, value in fields.items() if getattr(event, name) != value)
    for name in changed:
        setattr(event, name, fields[name])
    problems = _model_problems(event, changed)
    if "top_cut" in changed and not problems:
        try:
            check_top_cut(event.top_cut)
        except ServiceError as exc:
            problems.extend(exc.errors)
    if problems:
        raise ServiceError.of(problems)
    if changed:
        event.save(update_fields=changed)
        EventLog.objects.create(event=event, actor=actor, action="edit", data={"fields": changed})
    return event


@transaction.atomic
def register_player(event: Event, user) -> Registration:
    """Register ``user``; past the cap they join the waiting list instead."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.flights.exists():
        raise ServiceError(_("Players register for one of this event's Day 1 flights."))
    if not event.registration_open:
        raise ServiceError(_("Registration for this event is closed."))
    existing = Registration.objects.filter(event=event, user=user).first()
    if existing and existing.status != Registration.Status.DROPPED:
        raise ServiceError(_("You are already registered for this event."))
    taken = event.registrations.filter(status=Registration.Status.REGISTERED).count()
    full = event.registration_cap is not None and taken >= event.registration_cap
    status = Registration.Status.WAITLISTED if full else Registration.Status.REGISTERED
    results_changed(event)  # a new player is a new row (once rounds exist)
    if existing:
        existing.status = status
        existing.save(update_fields=["status"])
        registration = existing
    else:
        registration = Registration.objects.create(event=event, user=user, status=status)
    _announce_entry(registration, signals.ENTERED)
    return registration


@transaction.atomic
def withdraw_player(event: Event, user) -> None:
    """Before the event starts a withdrawal frees the seat for the waiting list."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    registration = Registration.objects.filter(event=event, user=user).first()
    if registration is None or registration.status == Registration.Status.DROPPED:
        raise ServiceError(_("You are not registered for this event."))
    if event.status not in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        raise ServiceError(_("The event has started: ask the organiser to drop you."))
    was_seated = registration.status == Registration.Status.REGISTERED
    registration.delete()
    results_changed(event)
    if was_seated:
        _promote_from_waiting_list(event)


def _promote_from_waiting_list(event: Event) -> None:
    nxt = event.registrations.filter(status=Registration.Status.WAITLISTED).first()
    if nxt is not None:
        nxt.status = Registration.Status.REGISTERED
        nxt.save(update_fields=["status"])


def _account_called(username: str):
    """The account with this name (any case), or a refusal naming the field."""
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise ServiceError(
            _("No account is called %(username)s.") % {"username": repr(username.strip())},
            field="username",
        )
    return user


@transaction.atomic
def grant_role(event: Event, username: str, role: str) -> EventRole:
    """Make an existing user an organiser or judge of ``event``."""
    if role not in EventRole.Role.values:
        raise ServiceError(_("Unknown role %(role)s.") % {"role": repr(role)})
    user = _account_called(username)
    grant, created = EventRole.objects.get_or_create(event=event, user=user, role=role)
    if not created:
        # The English has always read "a organiser".
        already = {
            EventRole.Role.ORGANISER: _("%(username)s is already a organiser."),
            EventRole.Role.JUDGE: _("%(username)s is already a judge."),
        }
        raise ServiceError(already[grant.role] % {"username": user.username})
    return grant


@transaction.atomic
def revoke_role(event: Event, grant_id: int) -> None:
    grant = EventRole.objects.select_for_update().filter(event=event, pk=grant_id).first()
    if grant is None:
        raise ServiceError(_("That role grant no longer exists."))
    organisers = EventRole.objects.filter(event=event, role=EventRole.Role.ORGANISER)
    if grant.role == EventRole.Role.ORGANISER and organisers.count() == 1:
        raise ServiceError(_("An event needs at least one organiser."))
    grant.delete()


def _last_round_number(event: Event) -> int:
    last = event.rounds.order_by("-number").values_list("number", flat=True).first()
    return last or 0


@transaction.atomic
def check_in(event: Event, registration_ids: list[int], actor) -> int:
    """Mark players present; returns how many were newly checked in."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    arriving = event.registrations.filter(
        pk__in=registration_ids, status=Registration.Status.REGISTERED, checked_in=False
    )
    arrived = list(arriving.values_list("pk", flat=True))
    changed = arriving.update(checked_in=True)
    for registration_id in arrived:
        signals.send_on_commit(
            signals.entry_changed,
            Registration,
            event_id=event.pk,
            registration_id=registration_id,
            what=signals.CHECKED_IN,
        )
    if changed:
        EventLog.objects.create(
            event=event, actor=actor, action="check_in", data={"players": changed}
        )
    return changed


@transaction.atomic
def check_in_everyone(event: Event, actor) -> int:
    """The organiser's "Check in everyone": every registered player not yet checked in, in
    one call (one ``entry_changed`` and one log line per player, as :func:`check_in`)."""
    waiting = event.registrations.filter(status=Registration.Status.REGISTERED, checked_in=False)
    return check_in(event, list(waiting.values_list("pk", flat=True)), actor)


@transaction.atomic
def self_check_in(event: Event, user) -> Registration:
    """A player checks themself in while the event's self check-in is open
    (``check_in.self_check_in_closed``): only their own registration, through
    :func:`check_in`, so it is logged and announced like the organiser's."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    registration = Registration.objects.filter(event=event, user=user).first()
    if registration is None or registration.status == Registration.Status.DROPPED:
        raise ServiceError(_("You are not registered for this event."))
    if registration.status == Registration.Status.WAITLISTED:
        raise ServiceError(_("You are on the waiting list: only registered players check in."))
    if registration.checked_in:
        return registration
    closed = self_check_in_closed(event)
    if closed is not None:
        raise ServiceError(closed)
    check_in(event, [registration.pk], user)
    registration.refresh_from_db()
    return registration


@transaction.atomic
def drop_player(event: Event, registration: Registration, actor, reason: str = "") -> Registration:
    """Drop a player from the next round on: a round already paired is still theirs to play."""
    limited("reason", reason)
    event = Event.objects.select_for_update().get(pk=event.pk)
    registration = Registration.objects.select_for_update().get(pk=registration.pk, event=event)
    if registration.status == Registration.Status.DROPPED:
        raise ServiceError(
            _("%(player)s has already dropped.") % {"player": registration.display_name}
        )
    registration.status = Registration.Status.DROPPED
    registration.dropped_after_round = _last_round_number(event)
    registration.save(update_fields=["status", "dropped_after_round"])
    results_changed(event)
    EventLog.objects.create(
        event=event,
        round_number=registration.dropped_after_round or None,
        actor=actor,
        action="drop",
        reason=reason,
        data={"player": registration.display_name, "after_round": registration.dropped_after_round},
    )
    _announce_entry(registration, signals.DROPPED)
    return registration


@transaction.atomic
def add_late_entry(event: Event, actor, *, username: str = "", name: str = "") -> Registration:
    """Seat a player after registration closed: rounds already paired count as losses.

    A draft takes none (``entry_offers.refuse_draft``). An account on this event's
    waiting list (its holder asked to play) is seated; any other entry is a walk-in under
    ``name`` (or the username typed), and a username makes it an offer to that account,
    which becomes theirs only when they accept: the organiser is told the same whether
    an account has that name or not (issue 28)."""
    typed = username.strip()
    limited("username", typed, get_user_model()._meta.get_field("username").max_length)
    limited("name", name.strip(), Registration._meta.get_field("name").max_length)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if not typed and not name.strip():
        raise ServiceError(_("Give the late player's account or name."))
    entry_offers.refuse_draft(event, _("a late entry"))
    joined = _last_round_number(event) + 1
    fields = {
        "status": Registration.Status.REGISTERED,
        "checked_in": True,
        "joined_round": joined,
    }
    registration = _waiting_entry(event, typed)
    if registration is not None:
        for key, value in fields.items():
            setattr(registration, key, value)
        registration.save(update_fields=list(fields))
    else:
        registration = Registration.objects.create(
            event=event, name=name.strip() or typed, **fields
        )
        if typed:
            entry_offers.make_offer(registration, typed, actor)
    results_changed(event)
    EventLog.objects.create(
        event=event,
        actor=actor,
        action="late_entry",
        data={"player": registration.display_name, "joined_round": joined},
    )
    _announce_entry(registration, signals.ENTERED)
    return registration


def _waiting_entry(event: Event, username: str) -> Registration | None:
    """The entry of the account called ``username`` when it is on this event's waiting list
    (its holder asked to play here). One already seated is refused: the organiser sees this
    event's own players anyway, so saying so tells them nothing new."""
    if not username:
        return None
    entry = (
        Registration.objects.select_for_update()
        .filter(event=event, user__username__iexact=username)
        .first()
    )
    if entry is None or entry.status == Registration.Status.WAITLISTED:
        return entry
    raise ServiceError(
        _("%(username)s is already in this event.") % {"username": entry.user.username},
        field="username",
    )


def entry_added_text(registration: Registration) -> str:
    """What the organiser is told of an entry just added, and of the offer that went with
    it (the same words whether an account has the name typed or not)."""
    seated = _seated_text(registration)
    username = entry_offers.offered_to(registration)
    if username is None:
        return seated
    return _(
        "%(seated)s The entry is offered to the account %(username)s: it becomes theirs "
        "only if they accept it."
    ) % {"seated": seated, "username": username}


def _seated_text(registration: Registration) -> str:
    """Before round 1 an entry simply plays from round 1; later, the rounds it missed
    count as losses (and say which)."""
    name = registration.display_name
    joined = registration.joined_round
    if joined <= 1:
        return _("%(player)s is entered and checked in for round 1.") % {"player": name}
    if joined == 2:
        return _("%(player)s joins from round 2; round 1 counts as a loss.") % {"player": name}
    if joined == 3:
        return _("%(player)s joins from round 3; rounds 1 and 2 count as losses.") % {
            "player": name
        }
    return _("%(player)s joins from round %(round)s; rounds 1 to %(last)s count as losses.") % {
        "player": name,
        "round": joined,
        "last": joined - 1,
    }


def check_table_pin(table: int | None) -> None:
    """A pin is a table number the column can hold; None clears it."""
    if table is None:
        return
    if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= MAX_TABLE:
        raise ServiceError(table_pin_rule(), field="table")


@transaction.atomic
def pin_table(event: Event, registration: Registration, table: int | None, actor) -> Registration:
    """Always seat a player at one table (accessibility), or clear the pin; logged."""
    check_table_pin(table)
    event = Event.objects.select_for_update().get(pk=event.pk)
    registration = (
        Registration.objects.select_for_update().filter(pk=registration.pk, event=event).first()
    )
    if registration is None:
        raise ServiceError(_("No such registration in this event."), field="registration")
    registration.table_pin = table
    registration.save(update_fields=["table_pin"])
    EventLog.objects.create(
        event=event,
        actor=actor,
        action="pin",
        data={"player": registration.display_name, "table": table},
    )
    return registration


MAX_AWARDED_BYES = 3


def awarded_byes_rule() -> str:
    return _("Awarded byes are a whole number from 0 to %(most)s.") % {"most": MAX_AWARDED_BYES}


@transaction.atomic
def award_byes(event: Event, registration: Registration, byes: int, actor) -> Registration:
    """Give a player 0-3 byes before round 1 (invitations for ranked players); logged.

    Each is a won round without a match, in rounds 1, 2, 3: refused once round 1 is
    paired, since a bye can no longer be given in a round already paired."""
    if isinstance(byes, bool) or not isinstance(byes, int) or not 0 <= byes <= MAX_AWARDED_BYES:
        raise ServiceError(awarded_byes_rule(), field="byes")
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.rounds.exists():
        raise ServiceError(
            _("Byes are awarded before round 1 is paired: round 1 is paired."), field="byes"
        )
    registration = (
        Registration.objects.select_for_update().filter(pk=registration.pk, event=event).first()
    )
    if registration is None:
        raise ServiceError(_("No such registration in this event."), field="registration")
    if registration.awarded_byes == byes:
        return registration
    registration.awarded_byes = byes
    registration.save(update_fields=["awarded_byes"])
    EventLog.objects.create(
        event=event,
        actor=actor,
        action="byes",
        data={"player": registration.display_name, "byes": byes},
    )
    return registration


@transaction.atomic
def merge_accounts(duplicate, kept, actor) -> int:
    """Every entry of ``duplicate`` (a second account of one person) moves to ``kept``.

    Refused, with nothing moved, when both accounts played one event: the events are
    named, so site staff can settle them first. Returns the number of entries moved."""
    if duplicate.pk == kept.pk:
        raise ServiceError(_("Choose two different accounts."), field="username")
    moving = list(Registration.objects.select_for_update().filter(user=duplicate))
    shared = Event.objects.filter(
        registrations__user=kept, pk__in=[r.event_id for r in moving]
    ).order_by("date", "pk")
    if shared.exists():
        names = ", ".join(event.name for event in shared[:5])
        raise ServiceError(
            _(
                "%(first)s and %(second)s both played in %(events)s: an event "
                "cannot have one person twice, so nothing was merged."
            )
            % {"first": duplicate.username, "second": kept.username, "events": names},
            field="username",
        )
    for registration in moving:
        registration.user = kept
        registration.save(update_fields=["user"])
        EventLog.objects.create(
            event_id=registration.event_id,
            actor=actor,
            action="merge_accounts",
            data={"registration": registration.pk, "from": duplicate.username, "to": kept.username},
        )
    return len(moving)


def _announce_entry(registration: Registration, what: str) -> None:
    """Tell the other apps, once this commits, that a player entered or dropped."""
    signals.send_on_commit(
        signals.entry_changed,
        Registration,
        event_id=registration.event_id,
        registration_id=registration.pk,
        what=what,
    )
