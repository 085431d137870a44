"""What a reader of an event's metagame asked for, read the same way by the API and the
CSV download: which event holds it (a flight's is its main event's), which phase, and
the refusal a reader gets while the decklists are private."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from metagame_site.field import DAY1, DAY2, SWISS, TOP_CUT
from metagame_site.services import ALL
from web.errors import ServiceError

PHASES = (ALL, SWISS, DAY1, DAY2, TOP_CUT)
"""Every phase name a reader may ask for; an event answers those it has played."""

NOT_PUBLISHED = _lazy("The metagame appears when the organiser publishes the decklists.")
"""Why someone without access reads nothing (``services.access`` is NOTHING)."""


def checked_phase(value: str | None) -> str:
    """The phase asked for (none or empty: the whole event), or a refusal naming ``phase``.

    An unknown name is refused here, before anything is read or cached under it; a phase
    the event has not played yet is refused by ``services.build``.
    """
    phase = (value or "").strip() or ALL
    if phase not in PHASES:
        raise ServiceError(
            _("There is no phase %(phase)s: choose one of %(phases)s.")
            % {"phase": phase[:40], "phases": ", ".join(PHASES)},
            "phase",
        )
    return phase
