"""What the players of a match are told of a penalty there, on My match.

A penalty that changed their result is told by that change (``tournaments.results.notices``
names the penalty and its rule); this tells the others: a warning, or a Game Loss the
players' result already included. Added to the players' notices from ``ready()``.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q
from django.utils.translation import gettext as _

from judging.models import Penalty
from judging.penalties import consequence_words
from tournaments.models import Match, Registration, ResultChange
from tournaments.results.notices import SHOWN


def penalty_notices(
    registration: Registration, match: Match | None = None
) -> list[tuple[datetime, int, str]]:
    """The newest penalties at the player's matches that changed no result, as sentences
    (``(issued_at, order, sentence)``), for both players of the table."""
    at_mine = Q(match__player_a=registration) | Q(match__player_b=registration)
    penalties = (
        Penalty.objects.filter(at_mine, event_id=registration.event_id, voided_at__isnull=True)
        .select_related("player__user", "match__round")
        .order_by("-issued_at", "-pk")
    )
    if match is not None:
        penalties = penalties.filter(match=match)
    penalties = list(penalties[:SHOWN])
    changed = set(
        ResultChange.objects.filter(source__in=[f"penalty:{p.pk}" for p in penalties]).values_list(
            "source", flat=True
        )
    )
    return [
        (p.issued_at, p.pk, penalty_sentence(p, registration))
        for p in penalties
        if f"penalty:{p.pk}" not in changed
    ]


def penalty_sentence(penalty: Penalty, reader: Registration) -> str:
    """ "A judge gave you a Slow Play Warning: round 1, table 1, game 3 (Game Loss in game 3
    (905.1)); the result stays as it is." — to the penalised player, or naming them."""
    values = {
        "infraction": penalty.get_infraction_display(),
        "player": penalty.player.display_name,
        "round": penalty.match.round.number,
        "table": penalty.match.table,
        "game": penalty.game,
    }
    if penalty.player_id == reader.pk:
        said = _(
            "A judge gave you a %(infraction)s: round %(round)s, table %(table)s, game %(game)s"
        )
    else:
        said = _(
            "A judge gave %(player)s a %(infraction)s: round %(round)s, table %(table)s, "
            "game %(game)s"
        )
    said = said % values
    if penalty.consequences:
        what = "; ".join(consequence_words(c) for c in penalty.consequences)
        said = _("%(sentence)s (%(consequences)s); your result stays as it is") % {
            "sentence": said,
            "consequences": what,
        }
    return _("%(sentence)s.") % {"sentence": said}
