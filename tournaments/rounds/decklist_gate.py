"""The event's decklist policy at round 1: who has no legal submitted list, reminding
them, and what pairing round 1 does about them.

The policy (``Event.decklist_policy``) is the organiser's: ``none`` pairs as before;
``warn`` pairs them only once the organiser has confirmed, having read how many and who;
``require`` drops them (through the drop service, logged) once confirmed, and pairs the
rest. A player left unpaired but still registered would take a silent loss and stay in
the standings; a drop is visible, logged, and the player can still be entered late.

The decklist rows are the decks app's; this module reads them through the registration's
``decklist`` relation only, so tournaments never imports decks.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import DecklistPolicy, Event, EventLog, Game, Registration
from web.errors import ServiceError

SUBMITTED = "submitted"  # decks.models.Decklist.Status.SUBMITTED
DROP_REASON = "No legal decklist submitted before round 1 (decklists are required)."


def needs_decklists(event: Event) -> bool:
    """Superjack decks are the standard 40 cards: no list to submit, nothing to check."""
    return event.game != Game.SUPERJACK and event.decklist_policy != DecklistPolicy.NONE


@dataclass(frozen=True)
class Missing:
    """A player without a legal submitted list, and what they have instead."""

    registration: Registration
    state: str  # "none", "draft" or "not_legal" (submitted, then found illegal)

    @property
    def label(self) -> str:
        return {
            "none": "no decklist",
            "draft": "a draft, not submitted",
            "not_legal": "submitted, but no longer legal",
        }[self.state]


def missing_decklists(event: Event, players: Iterable[Registration] | None = None) -> list[Missing]:
    """The registered players (or ``players``) without a legal submitted decklist."""
    if players is None:
        players = event.registrations.filter(status=Registration.Status.REGISTERED).order_by(
            "name", "pk"
        )
    players = list(players)
    lists = {
        pk: (status, legal)
        for pk, status, legal in Registration.objects.filter(
            pk__in=[p.pk for p in players], decklist__isnull=False
        ).values_list("pk", "decklist__status", "decklist__legal")
    }
    missing = []
    for player in players:
        status, legal = lists.get(player.pk, (None, False))
        if status == SUBMITTED and legal:
            continue
        state = "none" if status is None else ("not_legal" if status == SUBMITTED else "draft")
        missing.append(Missing(player, state))
    return missing


class MissingDecklists(ServiceError):
    """Round 1 would pair players without a legal list: the organiser confirms first."""

    def __init__(self, event: Event, missing: list[Missing], total: int):
        self.missing = missing
        names = ", ".join(m.registration.display_name for m in missing)
        if event.decklist_policy == DecklistPolicy.REQUIRE:
            then = _("confirm to drop them and pair the rest, or wait for their lists")
        else:
            then = _("confirm to pair them anyway, or message or drop them first")
        count = len(missing)
        players = ngettext(
            "%(count)s of %(total)s player", "%(count)s of %(total)s players", total
        ) % {"count": count, "total": total}
        said = ngettext(
            "%(players)s has no legal submitted decklist (%(names)s): %(then)s.",
            "%(players)s have no legal submitted decklist (%(names)s): %(then)s.",
            count,
        ) % {"players": players, "names": names, "then": then}
        super().__init__(said, field="confirm_missing_decklists")


def gate_round_one(
    event: Event, players: list[Registration], actor, confirmed: bool | Collection[int]
) -> dict:
    """Apply the policy before round 1 is paired; what applied, for the round's record.

    ``confirmed`` is True (an API client confirmed whoever is missing) or the ids of the
    players the organiser saw listed: someone missing whom they did not see is asked
    about again. Under ``require`` the confirmed players are dropped here.
    """
    if not needs_decklists(event):
        return {"decklist_policy": DecklistPolicy.NONE}
    missing = missing_decklists(event, players)
    seen = confirmed is True or {m.registration.pk for m in missing} <= set(confirmed or ())
    if missing and not seen:
        raise MissingDecklists(event, missing, len(players))
    record = {
        "decklist_policy": event.decklist_policy,
        "decklists_missing": len(missing),
    }
    if event.decklist_policy == DecklistPolicy.REQUIRE and missing:
        from tournaments.event.services import drop_player

        for item in missing:
            drop_player(event, item.registration, actor, DROP_REASON)
        record["dropped_without_decklist"] = [m.registration.display_name for m in missing]
    return record


def describe(stats: dict | None) -> str:
    """The policy a round-1 pairing applied, as the dashboard says it ('' for none)."""
    stats = stats or {}
    policy = stats.get("decklist_policy")
    if policy not in (DecklistPolicy.WARN, DecklistPolicy.REQUIRE):
        return ""
    missing = stats.get("decklists_missing", 0)
    if policy == DecklistPolicy.REQUIRE:
        dropped = stats.get("dropped_without_decklist") or []
        if not dropped:
            return _("Decklists required: every player had a legal submitted list.")
        return _("Decklists required: dropped without a legal list: %(names)s.") % {
            "names": ", ".join(dropped)
        }
    if not missing:
        return _("Decklist check (warn): every player had a legal submitted list.")
    return ngettext(
        "Decklist check (warn): paired with %(count)s player without a legal submitted list, "
        "as confirmed.",
        "Decklist check (warn): paired with %(count)s players without a legal submitted list, "
        "as confirmed.",
        missing,
    ) % {"count": missing}


def _language_of(user) -> str:
    """The language the player chose for the site (their account's saved choice, read
    through the user), else the site's: a reminder speaks the reader's language, not the
    organiser's who sent it."""
    try:
        return user.language_preference.language
    except ObjectDoesNotExist:
        return settings.LANGUAGE_CODE


def remind(event: Event, players: Iterable[Registration], actor) -> tuple[list[str], list[str]]:
    """E-mail each player a reminder to submit a legal list; (sent to, no address for).

    Logged in the event log, so the organiser (and a co-organiser) sees it was sent.
    """
    sent, unreachable = [], []
    link = settings.SITE_URL + reverse("decks:my_deck", args=[event.pk])
    for player in players:
        address = player.user.email if player.user_id else ""
        if not address:
            unreachable.append(player.display_name)
            continue
        context = {"event": event, "player": player, "link": link}
        with translation.override(_language_of(player.user)):
            send_mail(
                _("Your decklist for %(event)s") % {"event": event.name},
                render_to_string("tournaments/decklist_reminder_email.txt", context),
                None,
                [address],
            )
        sent.append(player.display_name)
    if sent:
        EventLog.objects.create(
            event=event, actor=actor, action="decklist_reminder", data={"players": sent}
        )
    return sent, unreachable


def remind_missing(event: Event, chosen: Collection[int], actor) -> tuple[list[str], list[str]]:
    """The dashboard's (and the API's) reminder: the players without a legal list among
    the registration ids ``chosen``, or all of them when none are chosen; as :func:`remind`.
    Ids of players who have a legal list (or are not in the event) are passed over."""
    missing = missing_decklists(event)
    players = [m.registration for m in missing if not chosen or m.registration.pk in chosen]
    return remind(event, players, actor)
