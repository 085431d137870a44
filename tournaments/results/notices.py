"""What a player is told when someone other than the two players changed their result.

A judge's penalty, a staff entry or correction, a settled dispute: each is a
``ResultChange`` that was not a player's report, confirmation or dispute, and each
becomes one sentence on the player's pages, the score read from the player's own side
(their wins first). ``notice_sentence`` is pure; ``notices_for`` only reads the rows.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.models import EventRole, Match, Registration, ResultChange
from tournaments.record.match_games import InvalidResult, Score

PLAYER_ACTIONS = ("report", "confirm", "dispute")
"""What the players themselves do to a result: these need no notice."""
SHOWN = 5

NoticeSource = Callable[[Registration, "Match | None"], list[tuple[datetime, int, str]]]
_SOURCES: list[NoticeSource] = []


def add_source(source: NoticeSource) -> None:
    """Another app's notices for a player (``(when, order, sentence)``, newest found by
    ``when``): judging adds its penalties from its ``ready()``, since tournaments imports
    no other app. Added once; adding the same source again changes nothing."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def from_side(score: str | None, second_player: bool) -> str | None:
    """A score as the player reads it, their wins first (the second player's is swapped)."""
    if score is None or not second_player:
        return score
    try:
        return str(Score.parse(score).swapped())
    except InvalidResult:
        return score


def notice_sentence(
    *,
    round_number: int,
    table: int | None,
    before: str | None,
    after: str | None,
    reason: str = "",
    rule: str = "",
    action: str = "",
    by_organiser: bool = False,
) -> str:
    """ "A judge changed your result: round 2, table 3, 2-1 became 1-2 (why), rule 905.1."

    ``before``/``after`` are the scores already read from the player's side;
    ``by_organiser``: the change was the event's organiser's ("The organiser entered…").
    """
    values = {
        "round": round_number,
        "table": table if table is not None else "—",
        "before": before or "—",
        "after": after or "—",
    }
    said = (_by_organiser if by_organiser else _what_happened)(action, before, after) % values
    if reason.strip():
        said = _("%(sentence)s (%(reason)s)") % {"sentence": said, "reason": reason.strip()}
    if rule:
        said = _("%(sentence)s, rule %(rule)s") % {"sentence": said, "rule": rule}
    return _("%(sentence)s.") % {"sentence": said}


def _what_happened(action: str, before: str | None, after: str | None) -> str:
    """The notice's sentence (its values still to fill in), in the reader's language."""
    if action == "settle":  # the players' claims disagreed: the judge decided
        return _("A judge settled your result: round %(round)s, table %(table)s, %(after)s")
    if before is None and after is not None:
        return _("A judge entered your result: round %(round)s, table %(table)s, %(after)s")
    if after is None:
        return _(
            "A judge took back your result: round %(round)s, table %(table)s, %(before)s is "
            "no longer recorded"
        )
    if before == after:
        return _("A judge recorded your result: round %(round)s, table %(table)s, %(after)s")
    return _(
        "A judge changed your result: round %(round)s, table %(table)s, %(before)s became %(after)s"
    )


def _by_organiser(action: str, before: str | None, after: str | None) -> str:
    """:func:`_what_happened` for a change the event's organiser made."""
    if action == "settle":
        return _("The organiser settled your result: round %(round)s, table %(table)s, %(after)s")
    if before is None and after is not None:
        return _("The organiser entered your result: round %(round)s, table %(table)s, %(after)s")
    if after is None:
        return _(
            "The organiser took back your result: round %(round)s, table %(table)s, "
            "%(before)s is no longer recorded"
        )
    if before == after:
        return _("The organiser recorded your result: round %(round)s, table %(table)s, %(after)s")
    return _(
        "The organiser changed your result: round %(round)s, table %(table)s, "
        "%(before)s became %(after)s"
    )


def notices_for(registration: Registration, match: Match | None = None) -> list[str]:
    """The newest changes to the player's results that others made (a handful, newest
    first): in the event, or at one match."""
    mine = Q(match__player_a=registration) | Q(match__player_b=registration)
    changes = (
        ResultChange.objects.filter(mine, match__round__event_id=registration.event_id)
        .exclude(action__in=PLAYER_ACTIONS)
        .select_related("match__round")
        .order_by("-changed_at", "-pk")
    )
    if match is not None:
        changes = changes.filter(match=match)
    organisers = set(
        EventRole.objects.filter(
            event_id=registration.event_id, role=EventRole.Role.ORGANISER
        ).values_list("user_id", flat=True)
    )
    told = [
        (change.changed_at, change.pk, _sentence(change, registration, organisers))
        for change in changes[:SHOWN]
    ]
    for source in _SOURCES:
        told += source(registration, match)
    told.sort(key=lambda notice: (notice[0], notice[1]), reverse=True)
    return [sentence for _when, _order, sentence in told[:SHOWN]]


def _sentence(change: ResultChange, registration: Registration, organisers: set[int]) -> str:
    """One change as the player reads it; who made it is said from their role in the event
    (a penalty is always a judge's decision)."""
    second = change.match.player_b_id == registration.pk
    staff_entry = change.action in ("enter", "correct", "settle")
    return notice_sentence(
        by_organiser=staff_entry and change.changed_by_id in organisers,
        round_number=change.match.round.number,
        table=change.match.table,
        before=from_side(change.before.get("score"), second),
        after=from_side(change.after.get("score"), second),
        reason=change.reason,
        rule=change.rule,
        action=change.action,
    )
