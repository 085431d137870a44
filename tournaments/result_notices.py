"""What a player is told when someone other than the two players changed their result.

A judge's penalty, a staff entry or correction, a settled dispute: each is a
``ResultChange`` that was not a player's report, confirmation or dispute, and each
becomes one sentence on the player's pages, the score read from the player's own side
(their wins first). ``notice_sentence`` is pure; ``notices_for`` only reads the rows.
"""

from __future__ import annotations

from django.db.models import Q

from tournaments.match_games import InvalidResult, Score
from tournaments.models import Match, Registration, ResultChange

PLAYER_ACTIONS = ("report", "confirm", "dispute")
"""What the players themselves do to a result: these need no notice."""
SHOWN = 5


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
) -> str:
    """ "A judge changed your result: round 2, table 3, 2-1 became 1-2 (why), rule 905.1."

    ``before``/``after`` are the scores already read from the player's side.
    """
    where = f"round {round_number}, table {table if table is not None else '—'}"
    if action == "settle":  # the players' claims disagreed: the judge decided
        said = f"A judge settled your result: {where}, {after or '—'}"
    elif before is None and after is not None:
        said = f"A judge entered your result: {where}, {after}"
    elif after is None:
        said = f"A judge took back your result: {where}, {before or '—'} is no longer recorded"
    elif before == after:
        said = f"A judge recorded your result: {where}, {after}"
    else:
        said = f"A judge changed your result: {where}, {before} became {after}"
    if reason.strip():
        said += f" ({reason.strip()})"
    if rule:
        said += f", rule {rule}"
    return said + "."


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
    return [_sentence(change, registration) for change in changes[:SHOWN]]


def _sentence(change: ResultChange, registration: Registration) -> str:
    second = change.match.player_b_id == registration.pk
    return notice_sentence(
        round_number=change.match.round.number,
        table=change.match.table,
        before=from_side(change.before.get("score"), second),
        after=from_side(change.after.get("score"), second),
        reason=change.reason,
        rule=change.rule,
        action=change.action,
    )
