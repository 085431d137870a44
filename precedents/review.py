"""Precedents read against the rules text they were ruled under (issue 35).

A precedent keeps the text of every rule it cites as it was when the ruling was kept
(``rule_texts``). When a game's rules file is updated, :func:`flag_changed_rules` compares
those texts with the file's current ones and flags each precedent resting on a rule that
changed or is gone (``review``: ``{citation: {"old": ..., "new": ... or None}}``), so no
judge follows a ruling made under words the rules no longer say. It runs after every
``migrate`` (deploys migrate after shipping new rules files: :func:`after_migrate`) and as
``manage.py review_precedents``.

A head judge then reads the ruling against the new text (:func:`accept_review`): it still
holds, or it is no longer to be followed. Either way the current texts become the kept
ones and the flag goes.

Who may review: the organisers and the head judge of the ruling's event
(``judging.roster.may_manage``), as for marking it; site staff for a precedent that has no
event here (imported from another site, or its event deleted).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils.translation import gettext as _

from judging.roster import may_manage
from precedents import extract, index
from precedents.models import Precedent
from precedents.services import NotAllowed, checked_note, names_in_event, rule_texts
from precedents.signals import precedent_changed
from rules_engine.reference import rule_text
from tournaments.models import EventLog
from tournaments.signals import send_on_commit
from web.errors import ServiceError

HOLDS, AVOID = "holds", "avoid"
OUTCOMES = (HOLDS, AVOID)
BATCH = 500  # rows locked and written per statement
SHARED = 10  # precedents with one review between them that get an UPDATE of their own

Review = dict[str, dict[str, str | None]]


# --- flagging --------------------------------------------------------------------------------


def same_text(old: str | None, new: str | None) -> bool:
    """Whether two rule texts say the same: spacing and line breaks do not count."""
    if old is None or new is None:
        return old is new
    return old.split() == new.split()


def review_for(kept: Any, current: Callable[[str], str | None]) -> Review:
    """Each kept rule whose text is not what ``current`` says now: old and new (None for a
    rule no longer in the rules)."""
    if not isinstance(kept, dict):
        return {}
    changed: Review = {}
    for citation, old in kept.items():
        if not isinstance(old, str):
            continue
        new = current(citation)
        if not same_text(old, new):
            changed[citation] = {"old": old, "new": new}
    return changed


class _CurrentTexts:
    """``rule_text`` asked once per citation in a run (thousands of precedents cite the
    same few hundred rules)."""

    def __init__(self) -> None:
        self.known: dict[str, str | None] = {}

    def __call__(self, citation: str) -> str | None:
        if citation not in self.known:
            self.known[citation] = rule_text(citation)
        return self.known[citation]


def flag_changed_rules() -> int:
    """Flag every precedent citing a rule whose text changed (or is gone), unflag those whose
    texts match again, and return how many are flagged by this run.

    One read of every precedent's kept texts (no per-row query); only the precedents whose
    review changes are locked, read again and written, in batches of 500, in one
    transaction: one UPDATE per review many share, one ``bulk_update`` for the rest.
    ``precedent_changed`` is sent once, on commit, when anything was written (signals.py).
    """
    current = _CurrentTexts()
    due: list[int] = []
    rows = Precedent.objects.order_by().values_list("pk", "rule_texts", "review", "needs_review")
    for pk, kept, review, flagged in rows.iterator(chunk_size=2000):
        wanted = review_for(kept, current)
        if wanted != review or bool(wanted) != flagged:
            due.append(pk)
    if not due:
        return 0
    return _write_reviews(due, current)


@transaction.atomic
def _write_reviews(due: list[int], current: _CurrentTexts) -> int:
    written: list[int] = []
    flagged = 0
    for start in range(0, len(due), BATCH):
        locked = (
            Precedent.objects.select_for_update()
            .filter(pk__in=due[start : start + BATCH])
            .values_list("pk", "rule_texts", "review", "needs_review")
        )
        alike: dict[str, tuple[Review, list[int]]] = {}
        # Read again under the lock: a head judge's review may have landed since.
        for pk, kept, review, needs in locked:
            wanted = review_for(kept, current)
            if wanted == review and bool(wanted) == needs:
                continue
            alike.setdefault(json.dumps(wanted, sort_keys=True), (wanted, []))[1].append(pk)
            flagged += bool(wanted)
        _write_alike(alike.values())
        written += [pk for _, pks in alike.values() for pk in pks]
    if written:
        send_on_commit(
            precedent_changed,
            Precedent,
            precedent_id=None,
            precedent_ids=written,
            count=flagged,
            action="flagged",
        )
    return flagged


def _write_alike(groups: Iterable[tuple[Review, list[int]]]) -> None:
    """One UPDATE for each review many precedents share (a rule's edit flags every
    precedent citing it alike), one ``bulk_update`` for the rest: never more than
    BATCH / SHARED + 1 statements a batch."""
    single: list[Precedent] = []
    for wanted, pks in groups:
        if len(pks) >= SHARED:
            Precedent.objects.filter(pk__in=pks).update(review=wanted, needs_review=bool(wanted))
        else:
            single.append(Precedent(pk=pks[0], review=wanted, needs_review=bool(wanted)))
    Precedent.objects.bulk_update(single, ["review", "needs_review"])


def after_migrate(sender, *, using: str = DEFAULT_DB_ALIAS, apps=None, **kwargs) -> int:
    """post_migrate (connected in apps.py): a deploy ships new rules files and migrates, so
    the precedents are read against them then. Two cheap queries when there is nothing to
    read; nothing at all while the precedents' table or its columns are not there yet (a
    first migrate, or one back to an earlier state)."""
    if using != DEFAULT_DB_ALIAS or not _migrated(apps, using):
        return 0
    if not Precedent.objects.exists():
        return 0
    flagged = flag_changed_rules()
    stdout, verbosity = kwargs.get("stdout"), kwargs.get("verbosity", 1)
    if flagged and stdout is not None and verbosity >= 1:
        stdout.write(f"  Precedents flagged for review (a rule they cite changed): {flagged}.")
    return flagged


def _migrated(apps, using: str) -> bool:
    try:
        model = apps.get_model("precedents", "Precedent") if apps is not None else Precedent
    except LookupError:
        return False
    fields = {field.name for field in model._meta.get_fields()}
    if not {"rule_texts", "review", "needs_review"} <= fields:
        return False
    return Precedent._meta.db_table in connections[using].introspection.table_names()


# --- reviewing ---------------------------------------------------------------------------------


def may_review(user, precedent: Precedent) -> bool:
    """The organisers and head judge of the ruling's event; site staff when it has none."""
    if user is None or not user.is_authenticated:
        return False
    if precedent.event_id is None:
        return bool(user.is_staff or user.is_superuser)
    return may_manage(user, precedent.event)


@transaction.atomic
def accept_review(
    precedent: Precedent, actor, note: str = "", *, outcome: str = HOLDS
) -> Precedent:
    """A head judge has read the ruling against the changed rules: it still holds
    (``outcome="holds"``) or it is no longer to be followed (``"avoid"``, status AVOID).

    The rules' current texts become the kept ones and the flag is cleared; a note is added
    to the precedent's own note (players' names taken out), so later judges read why.
    """
    precedent = (
        Precedent.objects.select_for_update(of=("self",))
        .select_related("event")
        .get(pk=precedent.pk)
    )
    if not may_review(actor, precedent):
        raise NotAllowed(
            _(
                "Only the organisers and the head judge of the ruling's event review it; "
                "site staff review precedents that have no event here."
            )
        )
    if outcome not in OUTCOMES:
        raise ServiceError(_("Say whether the ruling still holds under the new text."), "outcome")
    note = checked_note(note, "note")
    if not precedent.needs_review:
        raise ServiceError(_("This precedent has no changed rule to review: it was reviewed."))
    reviewed = sorted(precedent.review)
    precedent.rule_texts = rule_texts(precedent.rules)
    precedent.review, precedent.needs_review = {}, False
    fields = ["rule_texts", "review", "needs_review", "marked_at"]
    if outcome == AVOID:
        precedent.status = Precedent.Status.AVOID
        fields.append("status")
    if note:
        hidden = _anonymised(precedent, note)
        precedent.note = f"{precedent.note}\n\n{hidden}".strip()
        fields.append("note")
    precedent.save(update_fields=fields)
    if note:
        index.refresh(precedent)  # the note is searched by its words
    if precedent.event is not None:
        EventLog.objects.create(
            event=precedent.event,
            round_number=precedent.round_number,
            actor=actor,
            action="precedent_review",
            reason=note,
            data={"precedent": str(precedent.uid), "outcome": outcome, "rules": reviewed},
        )
    send_on_commit(precedent_changed, Precedent, precedent_id=precedent.pk, action="reviewed")
    return precedent


def _anonymised(precedent: Precedent, text: str) -> str:
    if precedent.event is None:
        return text
    return extract.Anonymiser(names_in_event(precedent.event)).text(text)


# --- showing a change --------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """A run of a rule's text, and whether it is what changed."""

    text: str
    changed: bool


_TOKEN = re.compile(r"\S+\s*")


def word_diff(old: str, new: str | None) -> tuple[list[Piece], list[Piece]]:
    """The old and the new text cut into pieces, the changed words marked on each side
    (compared word by word, spacing aside). A rule gone: the whole old text is changed."""
    if new is None:
        return [Piece(old, True)], []
    before, after = _TOKEN.findall(old), _TOKEN.findall(new)
    matcher = difflib.SequenceMatcher(
        None, [t.strip() for t in before], [t.strip() for t in after], autojunk=False
    )
    left: list[Piece] = []
    right: list[Piece] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        _add(left, before[i1:i2], tag != "equal")
        _add(right, after[j1:j2], tag != "equal")
    return _lead(old, left), _lead(new, right)


def _add(pieces: list[Piece], tokens: Iterable[str], changed: bool) -> None:
    text = "".join(tokens)
    words = text.rstrip() if changed else text
    for part, marked in ((words, changed), (text[len(words) :], False)):  # spaces unmarked
        if not part:
            continue
        if pieces and pieces[-1].changed == marked:
            pieces[-1] = Piece(pieces[-1].text + part, marked)
        else:
            pieces.append(Piece(part, marked))


def _lead(text: str, pieces: list[Piece]) -> list[Piece]:
    """The text's leading spaces are no token's: put them back in front."""
    lead = text[: len(text) - len(text.lstrip())]
    return [Piece(lead, False), *pieces] if lead else pieces
