"""Sharing precedents between sites: a set exported as JSON and imported elsewhere (issue 35).

A set is the committed format ``docs/schemas/precedent-set.schema.json``: the precedents
as later judges read them, players' names already replaced, with no database id and no
account. :func:`export_set` writes what the reader may see (``search.visible_to``, the one
rule), never a ruling of a draft event. :func:`import_set` adds the precedents the site
lacks, named by ``uid``, and never overwrites a decision made here: a precedent already
here with other content is reported as a conflict and kept as it is; one already here
with the same content is left alone, so importing a file twice adds nothing. The whole
import is one transaction, and a file that does not fit changes nothing.

Who may import: site staff (``is_staff`` or superusers), and the site's operator through
``manage.py import_precedents`` (:data:`SITE`).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from datetime import date
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from precedents import index, set_schema
from precedents.models import Precedent
from precedents.search import visible_to
from precedents.services import NotAllowed
from precedents.signals import precedent_changed
from rules_engine import GAMES
from tournaments.models import Event
from tournaments.signals import send_on_commit
from web.errors import FieldError, ServiceError
from web.inputs import unusable_at

logger = logging.getLogger(__name__)

# Every field of a precedent in a set but its uid: what "the same content" compares.
CONTENT = tuple(name for name in set_schema.FIELDS if name != "uid")
MAX_DEPTH = 32  # how deeply a payload or an answer may nest (the rules engine's are shallow)
CHUNK = 500


class Site:
    """The site's operator, acting through ``manage.py``: reads every precedent and may
    import, and is no account (what it imports is marked by nobody)."""

    is_authenticated = True
    is_staff = True
    is_superuser = True

    def __repr__(self) -> str:
        return "<the site>"


SITE = Site()


class InvalidSet(ServiceError):
    """A file that is not a precedent set this site reads: every problem, at its path."""


class ImportClash(ServiceError):
    """Another import added some of the same precedents meanwhile; nothing was written."""

    status = 409


def may_import(user) -> bool:
    """Site staff bring precedents in from elsewhere: an import speaks for the whole site."""
    if user is SITE:
        return True
    return bool(getattr(user, "is_authenticated", False) and (user.is_staff or user.is_superuser))


def check_may_import(user) -> None:
    if not may_import(user):
        raise NotAllowed(_("Only site staff import precedent sets."))


def site_name() -> str:
    """How this site names itself in the sets it exports (each import keeps it as origin)."""
    return (settings.SITE_URL or "Arbiter").strip()[: set_schema.MAX_SITE]


# --- export ------------------------------------------------------------------------------


def precedent_json(precedent: Precedent) -> dict[str, Any]:
    """One precedent as a set holds it (and as the API's search answers it)."""
    ruled_on = precedent.ruled_on
    return {
        "uid": str(precedent.uid),
        "game": precedent.game,
        "question": precedent.question,
        "payload": precedent.payload,
        "answer": precedent.answer,
        "asked": precedent.asked,
        "cards": precedent.cards,
        "rules": precedent.rules,
        "rule_texts": precedent.rule_texts,
        "decision": precedent.decision,
        "note": precedent.note,
        "status": precedent.status,
        "visibility": precedent.visibility,
        "appeal": precedent.appeal,
        "appeal_upheld": precedent.appeal_upheld,
        "event_name": precedent.event_name,
        "round_number": precedent.round_number,
        "ruled_on": ruled_on.isoformat() if isinstance(ruled_on, date) else str(ruled_on),
        "ruled_by": precedent.ruled_by,
    }


def checked_game(game: str | None) -> str:
    """``game`` when Arbiter has it ("" for every game), else a refusal naming ``game``."""
    game = (game or "").strip()
    if game and game not in GAMES:
        raise ServiceError(
            _("Arbiter has no game %(game)s: use one of %(games)s.")
            % {"game": repr(game[:40]), "games": ", ".join(GAMES)},
            "game",
        )
    return game


def exportable(user, game: str = "") -> QuerySet[Precedent]:
    """What ``user`` may take away: what they may read, less every draft event's rulings
    (even its own staff export none: a set leaves the event)."""
    rows = visible_to(user).filter(Q(event__isnull=True) | ~Q(event__status=Event.Status.DRAFT))
    if game:
        rows = rows.filter(game=game)
    return rows.order_by("-ruled_on", "-pk")


def export_set(user, game: str | None = None, *, site: str | None = None) -> dict[str, Any]:
    """The precedents ``user`` may read (of ``game``, or of every game) as a set."""
    game = checked_game(game)
    return {
        "format": set_schema.FORMAT,
        "version": set_schema.VERSION,
        "site": (site or site_name())[: set_schema.MAX_SITE],
        "exported_at": timezone.now().isoformat(timespec="seconds"),
        "precedents": [
            precedent_json(p) for p in exportable(user, game).iterator(chunk_size=CHUNK)
        ],
    }


# --- import ------------------------------------------------------------------------------


def import_set(data: Any, actor) -> dict[str, Any]:
    """Add the set's precedents this site lacks; report those it has with other content.

    ``{"added": n, "unchanged": n, "conflicts": [{"uid", "fields", "message"}]}``. Each
    precedent added has ``origin`` the set's ``site``, no event and no call, is marked by
    ``actor`` (nobody for :data:`SITE`) and is indexed for search at once.
    """
    check_may_import(actor)
    incoming = read_set(data)
    site = data["site"].strip()
    try:
        with transaction.atomic():
            report = _merge(incoming, site, None if actor is SITE else actor)
    except IntegrityError:
        raise ImportClash(
            _(
                "Another import was adding some of these precedents at the same moment; "
                "nothing was written: import the file again."
            )
        ) from None
    logger.info(
        "Precedent set from %s imported: %s added, %s unchanged, %s conflicts",
        site,
        report["added"],
        report["unchanged"],
        len(report["conflicts"]),
    )
    return report


def read_set(data: Any) -> list[dict[str, Any]]:
    """The set's precedents, checked (InvalidSet listing every problem at its path) and
    with their uids written one way."""
    unusable = unusable_at(data)
    if unusable is not None:
        raise InvalidSet(unusable["message"], unusable["field"])
    found = set_schema.problems(data)
    if found:
        raise InvalidSet.of(found)
    problems: list[FieldError] = []
    first_at: dict[str, str] = {}
    precedents = []
    for number, item in enumerate(data["precedents"]):
        path = f"precedents[{number}]"
        uid = str(uuid.UUID(item["uid"]))
        if uid in first_at:
            message = _(
                "%(path)s: the uid %(uid)s is also at %(first)s; a set holds a precedent once."
            )
            problems.append(
                FieldError(
                    field=f"{path}.uid",
                    message=message % {"path": f"{path}.uid", "uid": uid, "first": first_at[uid]},
                )
            )
        first_at.setdefault(uid, path)
        for key in ("payload", "answer"):
            if _deeper_than(item[key], MAX_DEPTH):
                message = _("%(path)s is nested more than %(limit)s levels deep.")
                where = f"{path}.{key}"
                problems.append(
                    FieldError(field=where, message=message % {"path": where, "limit": MAX_DEPTH})
                )
        precedents.append({"uid": uid, **{name: item[name] for name in CONTENT}})
    if problems:
        raise InvalidSet.of(problems[: set_schema.MAX_REPORTED])
    return precedents


def _deeper_than(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return False


def _merge(incoming: list[dict[str, Any]], site: str, marked_by) -> dict[str, Any]:
    here = _precedents_here([item["uid"] for item in incoming])
    new: list[Precedent] = []
    unchanged = 0
    conflicts = []
    # A set lists the newest first: added last to first, the precedents of one day keep
    # their order (a search shows them newest added first), as on the site they came from.
    for item in reversed(incoming):
        local = here.get(item["uid"])
        if local is None:
            new.append(_new_precedent(item, site, marked_by))
            continue
        differing = differing_fields(precedent_json(local), item)
        if differing:
            conflicts.append(_conflict(item["uid"], differing))
        else:
            unchanged += 1
    for precedent in new:
        precedent.stood = precedent.ruling_stood()
    added = Precedent.objects.bulk_create(new, batch_size=CHUNK)
    for precedent in added:
        index.refresh(precedent)
        send_on_commit(precedent_changed, Precedent, precedent_id=precedent.pk, action="imported")
    conflicts.reverse()  # in the set's order
    return {"added": len(added), "unchanged": unchanged, "conflicts": conflicts}


def _precedents_here(uids: list[str]) -> dict[str, Precedent]:
    found: dict[str, Precedent] = {}
    for some in chunks(uids):
        for precedent in Precedent.objects.filter(uid__in=some):
            found[str(precedent.uid)] = precedent
    return found


def _new_precedent(item: dict[str, Any], site: str, marked_by) -> Precedent:
    fields = {name: item[name] for name in CONTENT}
    fields["ruled_on"] = date.fromisoformat(item["ruled_on"])
    return Precedent(
        uid=uuid.UUID(item["uid"]),
        call=None,
        event=None,
        origin=site,
        marked_by=marked_by,
        **fields,
    )


def _conflict(uid: str, fields: list[str]) -> dict[str, Any]:
    message = _(
        "A precedent with this uid is here already with another %(fields)s; the one here was kept."
    ) % {"fields": ", ".join(fields)}
    return {"uid": uid, "fields": fields, "message": message}


def differing_fields(local: dict[str, Any], incoming: dict[str, Any]) -> list[str]:
    """The content fields (in the set's order) whose values differ."""
    return [name for name in CONTENT if not same_json(local.get(name), incoming.get(name))]


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values: numbers by value (a database may write 2.0 back as 2), but
    true is not 1, and objects compare key by key."""
    pending: list[tuple[Any, Any]] = [(a, b)]
    while pending:
        left, right = pending.pop()
        if isinstance(left, bool) or isinstance(right, bool):
            if type(left) is not type(right) or left != right:
                return False
        elif isinstance(left, dict):
            if not isinstance(right, dict) or left.keys() != right.keys():
                return False
            pending.extend((left[key], right[key]) for key in left)
        elif isinstance(left, list):
            if not isinstance(right, list) or len(left) != len(right):
                return False
            pending.extend(zip(left, right, strict=True))
        elif isinstance(right, dict | list) or left != right:
            return False
    return True


def chunks(items: list, size: int = CHUNK) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
