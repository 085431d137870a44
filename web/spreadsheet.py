"""CSV cells for exports that organisers open in spreadsheet programs."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.http import HttpResponse
from django.utils.text import slugify

# A cell starting with one of these is run as a formula by spreadsheet programs.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: Any) -> str:
    """A CSV cell that spreadsheets show as text, never run as a formula (a player named
    "=HYPERLINK(…)" stays a name)."""
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def attachment(name: str, fallback: str, suffix: str, disposition: str = "attachment") -> str:
    """A ``Content-Disposition`` for a download named after ``name`` in any script: an
    ASCII file name for old clients, the UTF-8 one (RFC 6266) for the rest."""
    plain = f"{slugify(name) or fallback}{suffix}"
    named = f"{slugify(name, allow_unicode=True) or fallback}{suffix}"
    header = f'{disposition}; filename="{plain}"'
    if named != plain:
        header += f"; filename*=utf-8''{quote(named)}"
    return header


def csv_download(disposition: str) -> HttpResponse:
    """An empty CSV response for a spreadsheet program, ``disposition`` its
    ``Content-Disposition`` (:func:`attachment`): UTF-8 starting with a byte-order mark,
    without which Excel reads the file in the machine's legacy code page and garbles every
    name outside ASCII."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = disposition
    response.write("\ufeff")
    return response
