"""The fonts a PDF uses, on its pages and in the forms they draw (WeasyPrint puts some
text in Form XObjects): one walk for every print test that looks at fonts."""

from __future__ import annotations

import io
from collections.abc import Iterator

from pypdf import PdfReader


def fonts_in(pdf: bytes) -> Iterator:
    """Each font object the PDF uses, once, over pages and nested forms."""
    seen: set[int] = set()

    def visit(resources) -> Iterator:
        resources = resources.get_object() if resources is not None else {}
        for ref in (resources.get("/Font") or {}).values():
            if ref.idnum not in seen:
                seen.add(ref.idnum)
                yield ref.get_object()
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                yield from visit(xobject.get("/Resources"))

    for page in PdfReader(io.BytesIO(pdf)).pages:
        yield from visit(page.get("/Resources"))
