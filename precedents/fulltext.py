"""Full-text search over precedents, in each database's own engine: PostgreSQL's text
search (a ``tsvector`` column with a GIN index) in production, SQLite's FTS5 in venue mode
and the embedded default.

The same results on both: the words are cut here, in Python (runs of letters and digits,
case-folded), and stored as plain space-separated words that both engines split the same
way; a query asks for every word given, each as a prefix ("tith" finds "Tithe"). Neither
engine stems or drops words: PostgreSQL uses its ``simple`` configuration, FTS5 its
``unicode61`` tokenizer with accents kept. The table is made by migration 0002_search;
its rows are written and removed only here, through ``precedents.index``.
"""

from __future__ import annotations

import re

from django.db import connection

TABLE = "precedents_fulltext"
MAX_QUERY_WORDS = 12
_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """The words a text is searched by, in order."""
    return _WORD.findall(text.casefold())


def store(precedent_id: int, text: str) -> None:
    """Index (or index again) one precedent's text."""
    body = " ".join(words(text))
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"INSERT INTO {TABLE} (precedent_id, body) VALUES (%s, to_tsvector('simple', %s)) "
                "ON CONFLICT (precedent_id) DO UPDATE SET body = EXCLUDED.body",
                [precedent_id, body],
            )
        else:
            cursor.execute(f"DELETE FROM {TABLE} WHERE rowid = %s", [precedent_id])
            cursor.execute(
                f"INSERT INTO {TABLE} (rowid, body) VALUES (%s, %s)", [precedent_id, body]
            )


def remove(precedent_id: int) -> None:
    with connection.cursor() as cursor:
        key = "precedent_id" if connection.vendor == "postgresql" else "rowid"
        cursor.execute(f"DELETE FROM {TABLE} WHERE {key} = %s", [precedent_id])


def matching(text: str) -> tuple[str, list[str]] | None:
    """A subquery (SQL, params) selecting the ids of precedents holding every word of
    ``text``; None when the text has no words to look for."""
    asked = words(text)[:MAX_QUERY_WORDS]
    if not asked:
        return None
    if connection.vendor == "postgresql":
        query = " & ".join(f"{word}:*" for word in asked)
        return (
            f"SELECT precedent_id FROM {TABLE} WHERE body @@ to_tsquery('simple', %s)",
            [query],
        )
    query = " AND ".join(f'"{word}"*' for word in asked)
    return f"SELECT rowid FROM {TABLE} WHERE {TABLE} MATCH %s", [query]
