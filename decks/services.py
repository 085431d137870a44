"""Decklists: typed or pasted text → resolved against the pool → judged by the rules engine.

Who may see a decklist, when it locks, and deck checks live here too; views and the
API only call these functions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from decks import decklist as text_lists
from decks.models import Card, DeckCheck, Decklist
from metagame.archetypes import iacta_archetype
from rules_engine import NoSideboardRules, PayloadError, adjudicate, rules_for
from tournaments.event.local_time import stamped
from tournaments.event.roles import JUDGE, ORGANISER, has_role
from tournaments.models import Event, EventLog, Match, Registration, Round
from web.errors import FieldError, ServiceError
from web.inputs import limited

DECK_GAMES = ("iacta", "dataclysm")  # Superjack decks are the standard 40 cards


@dataclass
class DeckReport:
    """Everything the player sees after typing: entries, unknown names, legality."""

    main: list[dict] = field(default_factory=list)
    sideboard: list[dict] = field(default_factory=list)
    problems: list[dict] = field(default_factory=list)  # lines that could not be read
    unknown: list[dict] = field(default_factory=list)  # names not in the pool + suggestions
    legal: bool = False
    violations: list[dict] = field(default_factory=list)
    text: str = ""

    @property
    def ready(self) -> bool:
        return not self.problems and not self.unknown

    @property
    def lines_to_fix(self) -> int:
        """Lines not read or naming no card in the pool: shown next to the card count."""
        return len(self.problems) + len(self.unknown)

    @property
    def main_count(self) -> int:
        return sum(entry["count"] for entry in self.main)

    @property
    def sideboard_count(self) -> int:
        return sum(entry["count"] for entry in self.sideboard)


def _pool_version(game: str) -> tuple:
    latest = Card.objects.filter(game=game).aggregate(latest=Max("updated_at"))["latest"]
    return (game, Card.objects.filter(game=game).count(), latest)


@lru_cache(maxsize=8)
def _pool_for(version: tuple) -> tuple[text_lists.PoolIndex, dict[str, dict]]:
    """The pool's name index and rules data, rebuilt only when the pool changes."""
    game = version[0]
    cards = list(Card.objects.filter(game=game))
    index = text_lists.PoolIndex([c.name for c in cards])
    data = {c.name: _card_data(c) for c in cards}
    return index, data


def pool(game: str) -> tuple[text_lists.PoolIndex, dict[str, dict]]:
    return _pool_for(_pool_version(game))


def _card_data(card: Card) -> dict:
    if card.game == "iacta":
        data = {"syndicate": card.syndicate or None, "tier": card.tier}
        if card.max_copies:
            data["max_copies"] = card.max_copies
        return data
    return {"gpu": card.gpu, "type": card.card_type}


def archetype_key(game: str, main: list[dict]) -> str:
    """What a submitted deck is, kept with it: Iacta's by rule 202
    (``metagame.archetypes.iacta_archetype``); "" for a game whose rules give no grouping
    (its decks are grouped by the cards they share when the metagame is read)."""
    if game != "iacta":
        return ""
    _, data = pool(game)
    return iacta_archetype(main, data).key


def check_text(event: Event, text: str) -> DeckReport:
    """Read the text, match names to the pool, and ask the rules engine about legality."""
    if event.game not in DECK_GAMES:
        raise ServiceError(_("Superjack needs no decklist: every deck is the standard 40 cards."))
    index, data = pool(event.game)
    parsed = text_lists.parse(text)
    resolved = text_lists.resolve(parsed, index)
    report = DeckReport(
        main=text_lists.to_payload(resolved.main),
        sideboard=text_lists.to_payload(resolved.sideboard),
        problems=[{"line": p.line, "text": p.text, "message": p.message} for p in parsed.problems],
        unknown=[
            {"line": u.line, "name": u.name, "suggestions": list(u.suggestions)}
            for u in resolved.unknown
        ],
        text=text,
    )
    report.legal, report.violations = legality(event.game, report.main, report.sideboard, data)
    if not report.ready or not report.main:
        report.legal = False
        report.violations = _while_lines_are_unread(report)
    return report


def _while_lines_are_unread(report: DeckReport) -> list[dict]:
    """The violations worth showing next to unread lines and unknown names, or for no cards.

    The Main Syndicate is worked out from the cards (202.1: the Major Syndicate with the
    most Deck cards): with no Deck cards there is nothing to work it out from, and while
    some lines are unread it cannot be judged, as they may hold its cards. With every line
    to fix and none read, "0 cards" too only restates what the lines to fix say.
    """
    if not report.ready and not report.main and not report.sideboard:
        return []
    return [v for v in report.violations if v["rule"] != "202.1"]


def _main_syndicate_as_chosen_here(violation: dict, data: dict[str, dict]) -> dict:
    """A 202.1 violation worded for a decklist, which designates no syndicate: Arbiter takes
    the Major Syndicate with the most Deck cards, so asking to "designate" one is no help."""
    message = violation["message"]
    if violation["rule"] != "202.1" or "designate" not in message:
        return violation
    if message.startswith("No Main Syndicate"):
        majors = sorted({c["syndicate"] for c in data.values() if c.get("tier") == "major"})
        listed = f" ({', '.join(majors)})" if majors else ""
        message = (
            f"No Main Syndicate: no card in the Deck belongs to a Major Syndicate{listed}. "
            "The Main Syndicate is the Major Syndicate with the most cards in the Deck, so "
            "the Deck needs cards of one."
        )
    else:  # a tie: "EMB and TID tie for the most Deck cards (8 each); designate one ..."
        message = message.split("; designate", 1)[0] + (
            "; the Main Syndicate is the Major Syndicate with the most cards in the Deck, so "
            "one of them needs more cards than the other."
        )
    return {**violation, "message": message}


def legality(
    game: str, main: list[dict], sideboard: list[dict], data: dict[str, dict]
) -> tuple[bool, list[dict]]:
    """Every violation with its rule, from the rules engine's deck-legality question."""
    if game == "iacta":
        cards = {e["name"]: data[e["name"]] for e in [*main, *sideboard] if e["name"] in data}
        payload = {"main": main, "sideboard": sideboard, "cards": cards}
    else:
        payload = {
            "cards": [
                {
                    "name": e["name"],
                    "count": e["count"],
                    "gpu": data.get(e["name"], {}).get("gpu", False),
                }
                for e in main
            ]
        }
    ruling = adjudicate(game, "deck-legality", payload)
    violations = ruling["violations"]
    if game == "iacta":
        violations = [_main_syndicate_as_chosen_here(v, data) for v in violations]
    return ruling["legal"], violations


def check_sideboard_swap(decklist: Decklist, proposed_text: str, *, new_match: bool) -> dict:
    """The ruling of the event's game on a configuration between games (Iacta: 902.2-902.5).

    ``proposed_text`` is the configuration as the player presents it; the registered
    list is the decklist's. Refused with a message when the game's tournament rules have
    no Sideboard rule (``has_sideboard_rules``), a card is not in the pool, or the engine
    cannot read the payload.
    """
    event = decklist.registration.event
    if not has_sideboard_rules(event):
        raise ServiceError(_("Sideboard checks follow Iacta's 902 rules."))
    index, data = pool(event.game)
    proposed = text_lists.resolve(text_lists.parse(proposed_text), index)
    if proposed.unknown:
        unknown = ", ".join(u.name for u in proposed.unknown)
        raise ServiceError(
            _("Not in the card pool: %(names)s") % {"names": unknown}, field="proposed"
        )
    registered = {"main": decklist.main, "sideboard": decklist.sideboard}
    named = {e["name"] for zone in registered.values() for e in zone}
    named |= {e.name for e in [*proposed.main, *proposed.sideboard]}
    payload = {
        "registered": registered,
        # Arbiter keeps no per-game configuration, so the last game's is the registered one.
        "previous": registered,
        "proposed": text_lists.deck_payload(proposed),
        "new_match": new_match,
        "cards": {name: data[name] for name in data if name in named},
    }
    try:
        return rules_for(event.game).sideboard_swap(payload)
    except NoSideboardRules:  # checked above; kept so the refusal never becomes a 500
        raise ServiceError(_("Sideboard checks follow Iacta's 902 rules.")) from None
    except PayloadError as exc:
        problems = [FieldError(field="proposed", message=e["message"]) for e in exc.errors]
        message = "; ".join(e["message"] for e in problems)
        raise ServiceError(message, "proposed", problems) from None


def has_sideboard_rules(event: Event) -> bool:
    """Whether the event's game's tournament rules check a between-games configuration
    (only Iacta's 902 does: Superjack and Dataclysm adopt Iacta's penalties, not its 902)."""
    return rules_for(event.game).sideboard is not None


def decklist_locked(decklist: Decklist | None, event: Event) -> str | None:
    """Why the decklist cannot change now, or None when it can."""
    if decklist is not None and decklist.unlocked:
        return None
    started = event.rounds.filter(number=1).exclude(status=Round.Status.PAIRED).exists()
    if started:
        return _("Decklists locked when round 1 started: ask the organiser to unlock yours.")
    if event.decklist_deadline and timezone.now() > event.decklist_deadline:
        deadline = stamped(event.decklist_deadline, event)
        return _("The decklist deadline (%(deadline)s, %(zone)s) has passed.") % {
            "deadline": deadline,
            "zone": event.time_zone,
        }
    return None


class NotSubmitted(ServiceError):
    """A list sent for submission that is not legal: refused, and kept as the draft.

    Raised after the draft is committed, so the typed text and its problems survive the
    refusal; ``decklist`` holds that draft and ``report`` says what is wrong. A list
    already submitted stays submitted: the refused text is kept beside it.
    """

    def __init__(self, decklist: Decklist, report: DeckReport):
        self.decklist, self.report = decklist, report
        refusal = _(
            "This list is not legal yet, so it is not submitted: it is kept as your draft. "
            "Fix what is listed below and submit again."
        )
        if decklist.status == Decklist.Status.SUBMITTED:
            refusal += " " + _(
                "Your earlier submitted list still stands until you submit a legal one."
            )
        super().__init__(
            refusal, "text", errors=[{"field": "text", "message": refusal}, *why_not_legal(report)]
        )


def save_decklist(registration: Registration, text: str, *, submit: bool, actor) -> tuple:
    """Save the list as a draft, or submit it (only a legal list is submitted).

    A list sent for submission that is not legal is never lost: it is stored as the
    player's draft, with its violations, and then refused (``NotSubmitted``).
    """
    decklist, report, refused = _store_decklist(registration, text, submit=submit)
    if refused:
        raise NotSubmitted(decklist, report)
    return decklist, report


@transaction.atomic
def _store_decklist(
    registration: Registration, text: str, *, submit: bool
) -> tuple[Decklist, DeckReport, bool]:
    """Store the text: submitted when asked and legal, a draft otherwise.

    The third value says whether a submission was refused. A refused list never
    replaces a submitted one (the player would lose a legal registration by trying an
    edit): it is kept as ``draft_text`` beside it.
    """
    registration = (
        Registration.objects.select_for_update().select_related("event").get(pk=registration.pk)
    )
    event = registration.event
    decklist = Decklist.objects.filter(registration=registration).first()
    reason = decklist_locked(decklist, event)
    if reason:
        raise ServiceError(reason)
    text = text.replace("\r\n", "\n")[:20000]  # a browser sends a form's lines with CRLF
    report = check_text(event, text)
    refused = submit and not report.legal
    if refused and decklist is not None and decklist.status == Decklist.Status.SUBMITTED:
        decklist.draft_text = text
        decklist.save(update_fields=["draft_text", "updated_at"])
        return decklist, report, True
    decklist = decklist or Decklist(registration=registration)
    decklist.main, decklist.sideboard = report.main, report.sideboard
    decklist.raw_text, decklist.draft_text = text, ""
    decklist.legal, decklist.violations = report.legal, report.violations
    if submit and report.legal:
        decklist.status = Decklist.Status.SUBMITTED
        decklist.submitted_at = timezone.now()
        decklist.unlocked = False
        decklist.archetype = archetype_key(event.game, report.main)
    else:  # an edited list is a draft again until it is submitted (and checked) anew
        decklist.status = Decklist.Status.DRAFT
        decklist.submitted_at = None
        decklist.archetype = ""
    decklist.save()
    return decklist, report, refused


@dataclass(frozen=True)
class ListState:
    """A player's decklist as their event page states it."""

    state: str  # "none", "draft", "submitted" (legal) or "not_legal" (submitted, illegal)
    problems: int = 0
    decklist: Decklist | None = None
    # Why it can no longer change: "finished", "started" (round 1), "deadline", or "".
    locked: str = ""


def lock_of(decklist: Decklist | None, event: Event) -> str:
    """Why the player's list can no longer change, as the event page words it: the event
    is over, round 1 started, or the deadline passed ("" while it can change)."""
    if event.status == Event.Status.FINISHED:
        return "finished"
    if decklist_locked(decklist, event) is None:
        return ""
    started = event.rounds.filter(number=1).exclude(status=Round.Status.PAIRED).exists()
    return "started" if started else "deadline"


def list_state(event: Event, registration: Registration | None) -> ListState | None:
    """None for an event without decklists (Superjack) or a visitor who does not play."""
    if registration is None or event.game not in DECK_GAMES:
        return None
    decklist = Decklist.objects.filter(registration=registration).first()
    locked = lock_of(decklist, event)
    if decklist is None:
        return ListState("none", locked=locked)
    if decklist.status == Decklist.Status.SUBMITTED:
        state = "submitted" if decklist.legal else "not_legal"
        return ListState(state, 0, decklist, locked)
    report = check_text(event, decklist.raw_text)
    return ListState("draft", len(why_not_legal(report)), decklist, locked)


def why_not_legal(report: DeckReport) -> list[dict]:
    """Each reason a list cannot be submitted, as API errors (line numbers and rules named)."""
    errors = [
        {
            "field": "text",
            "message": _('Line %(line)s "%(text)s": %(problem)s')
            % {"line": p["line"], "text": p["text"], "problem": p["message"]},
        }
        for p in report.problems
    ]
    errors += [
        {
            "field": "text",
            "message": _("Line %(line)s: no card is called %(name)s.")
            % {"line": u["line"], "name": repr(u["name"])},
        }
        for u in report.unknown
    ]
    errors += [
        {"field": "text", "message": f"{v['rule']}: {v['message']}"} for v in report.violations
    ]
    return errors


@transaction.atomic
def unlock_decklist(decklist: Decklist, actor, reason: str) -> Decklist:
    limited("reason", reason)
    if not reason.strip():
        raise ServiceError(_("Give a reason for unlocking the decklist: it is logged."))
    decklist = Decklist.objects.select_for_update().get(pk=decklist.pk)
    decklist.unlocked = True
    decklist.save(update_fields=["unlocked"])
    EventLog.objects.create(
        event=decklist.registration.event,
        actor=actor,
        action="unlock_decklist",
        reason=reason.strip(),
        data={"player": decklist.registration.display_name},
    )
    return decklist


def made_top_cut(registration: Registration) -> bool:
    return Match.objects.filter(
        Q(player_a=registration) | Q(player_b=registration),
        round__kind=Round.Kind.TOP_CUT,
        round__event=registration.event_id,
    ).exists()


def may_view_decklist(user, registration: Registration) -> bool:
    """The player, the event's organisers and judges; everyone once it is published.

    Publishing shows submitted lists only: a draft was never registered for play.
    """
    event = registration.event
    if user.is_authenticated and (
        registration.user_id == user.pk or has_role(user, event, ORGANISER, JUDGE)
    ):
        return True
    if not Decklist.objects.filter(
        registration=registration, status=Decklist.Status.SUBMITTED
    ).exists():
        return False
    if event.decklists_public == "all":
        return True
    return event.decklists_public == "top_cut" and made_top_cut(registration)


# --- deck checks ---------------------------------------------------------------------


def pick_tables(round_: Round, count: int, seed: int | None = None) -> list[Match]:
    """N random tables; tables whose players were already checked this event come last."""
    matches = list(round_.matches.filter(is_bye=False).select_related("player_a", "player_b"))
    checked = set(
        DeckCheck.objects.filter(event=round_.event_id).values_list("registration_id", flat=True)
    )
    rng = random.Random(seed)
    rng.shuffle(matches)
    matches.sort(key=lambda m: (m.player_a_id in checked) + (m.player_b_id in checked))
    return matches[: max(0, count)]


@transaction.atomic
def record_deck_check(
    registration: Registration, presented_text: str, judge, match: Match | None = None
) -> DeckCheck:
    """What the player presented, against what they registered: every difference."""
    decklist = Decklist.objects.filter(registration=registration).first()
    if decklist is None or decklist.status != Decklist.Status.SUBMITTED:
        raise ServiceError(
            _("%(player)s has no submitted decklist to check.")
            % {"player": registration.display_name}
        )
    index, _data = pool(registration.event.game)
    presented = text_lists.resolve(text_lists.parse(presented_text), index)
    if presented.unknown:
        names = ", ".join(u.name for u in presented.unknown)
        raise ServiceError(
            _("Not in the card pool: %(names)s. Check the spelling.") % {"names": names}
        )
    main = text_lists.to_payload(presented.main)
    side = text_lists.to_payload(presented.sideboard)
    if not main and not side:
        # An empty form is a slip of the judge's hand, not a deck with every card missing.
        raise ServiceError(_("Type the cards the player presented: the list is empty."))
    differences = text_lists.difference(
        {"main": decklist.main, "sideboard": decklist.sideboard},
        {"main": main, "sideboard": side},
    )
    return DeckCheck.objects.create(
        event=registration.event,
        round=match.round if match else None,
        match=match,
        registration=registration,
        judge=judge,
        presented_main=main,
        presented_sideboard=side,
        differences=differences,
    )


@transaction.atomic
def penalise_deck_check(
    check: DeckCheck, judge, game: int = 1, confirmed: str | None = None, says: Any = None
) -> Any:
    """The penalty a deck that differs from its registration gets: a game loss (203.1).

    ``confirmed`` is the result change the judge read and confirmed, as for any penalty
    (``judging.penalties.issue_penalty``): a game loss that would change a result the
    match already has is refused until they have.
    """
    from judging.penalties import issue_penalty

    check = DeckCheck.objects.select_for_update().get(pk=check.pk)
    if not check.differences:
        raise ServiceError(_("The deck matches its registration: there is nothing to penalise."))
    if check.penalty_id:
        raise ServiceError(_("This deck check already raised its penalty."))
    penalty = issue_penalty(
        check.registration,
        "illegal_deck",
        judge,
        game=game,
        match=check.match,
        notes=f"Deck check {check.pk}: differs from the registered decklist.",
        confirmed=confirmed,
        **({"says": says} if says is not None else {}),
    )
    check.penalty = penalty
    check.save(update_fields=["penalty"])
    return penalty


def _gone_from_pool(name: str) -> str:
    """The violation a stored list gets for a card no longer in the pool. Kept in English,
    like the rules engine's violations it is stored beside (``Decklist.violations``): a
    stored text is not in the language of whoever happened to revalidate the event."""
    return f"{name} is no longer in the card pool."


def revalidate_event(event: Event) -> dict[str, int]:
    """Check every stored decklist of an event again (after a card revision, say).

    Works from the stored lists, not the pasted text: one pool index, one rules-engine
    call per list, one bulk update.
    """
    if event.game not in DECK_GAMES:
        return {"checked": 0, "legal": 0, "changed": 0}
    index, data = pool(event.game)
    decklists = list(Decklist.objects.filter(registration__event=event))
    changed = []
    now = timezone.now()
    for decklist in decklists:
        resolved = index.resolve(
            {"main": decklist.main, "sideboard": decklist.sideboard}, suggest=False
        )
        main = text_lists.to_payload(resolved.main)
        side = text_lists.to_payload(resolved.sideboard)
        legal, violations = legality(event.game, main, side, data)
        if resolved.unknown:
            legal = False
            violations = [
                *violations,
                *({"rule": "101.4", "message": _gone_from_pool(u.name)} for u in resolved.unknown),
            ]
        archetype = decklist.archetype
        if decklist.status == Decklist.Status.SUBMITTED:  # a revision may move a card's syndicate
            archetype = archetype_key(event.game, main)
        if (legal, violations, archetype) != (
            decklist.legal,
            decklist.violations,
            decklist.archetype,
        ):
            decklist.legal, decklist.violations, decklist.archetype = legal, violations, archetype
            decklist.updated_at = now  # what the cached metagame of the event is keyed on
            changed.append(decklist)
    Decklist.objects.bulk_update(
        changed, ["legal", "violations", "archetype", "updated_at"], batch_size=500
    )
    return {
        "checked": len(decklists),
        "legal": sum(1 for d in decklists if d.legal),
        "changed": len(changed),
    }
