"""CSV cells for exports that organisers open in spreadsheet programs."""

from __future__ import annotations

from typing import Any

# A cell starting with one of these is run as a formula by spreadsheet programs.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: Any) -> str:
    """A CSV cell that spreadsheets show as text, never run as a formula (a player named
    "=HYPERLINK(…)" stays a name)."""
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text
