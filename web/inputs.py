"""Reading numbers typed into forms and URLs."""

from __future__ import annotations

import re

_WHOLE = re.compile(r"[0-9]{1,9}")


def whole_number(raw: object) -> int | None:
    """The number in ``raw`` if it is plain ASCII digits, else None.

    ``str.isdigit`` also accepts characters such as "²" that ``int`` cannot read.
    """
    text = str(raw if raw is not None else "").strip()
    return int(text) if _WHOLE.fullmatch(text) else None
