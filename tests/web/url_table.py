"""The site's URL table as plain rows: (route, name, view), one per resolver pattern.

Used to prove that reorganising URL modules changes nothing a caller can see: the
same routes, under the same names, reach the same views.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver

FIXTURE = Path(__file__).parent / "fixtures" / "url_table.json"


def view_path(callback) -> str:
    """The dotted path of the view a pattern reaches (the class for a class-based view)."""
    target = getattr(callback, "view_class", None) or callback
    return f"{target.__module__}.{target.__qualname__}"


def url_rows(resolver=None, prefix: str = "", namespace: str = "") -> list[dict[str, str]]:
    """Every pattern, includes flattened, in resolution order."""
    resolver = resolver or get_resolver()
    rows: list[dict[str, str]] = []
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            rows.extend(url_rows(entry, route, inner))
        elif isinstance(entry, URLPattern):
            name = entry.name and (f"{namespace}:{entry.name}" if namespace else entry.name)
            rows.append(
                {
                    "route": route,
                    "name": name or "",
                    "view": view_path(entry.callback),
                    "kwargs": json.dumps(entry.default_args, sort_keys=True),
                }
            )
    return rows


if __name__ == "__main__":  # python -m tests.web.url_table: rewrite the fixture
    import django

    django.setup()
    FIXTURE.write_text(json.dumps(url_rows(), indent=1) + "\n")
