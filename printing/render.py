"""HTML → PDF with WeasyPrint, and joining PDF chunks with pypdf.

Parsing the shared print stylesheet and building the font configuration cost more than
laying out a page of slips, so both are built once per process and reused for every
document. Fonts are subset by HarfBuzz (WeasyPrint's default when libharfbuzz-subset
is installed), so a chunk embeds only the glyphs it uses.

Documents never reach the network: a URL fetcher serves ``/static/...`` from the
project's ``static/`` folder and ``data:`` URLs, and refuses everything else (names
printed on slips come from players; nothing they type may make the worker fetch a URL).
"""

from __future__ import annotations

import io
import mimetypes
import time
from functools import cache
from pathlib import Path

import segno
from django.conf import settings
from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    TextStringObject,
)
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

STATIC_DIR = Path(settings.BASE_DIR) / "static"
STYLESHEET = STATIC_DIR / "print" / "print.css"
# A base URL no real host answers to: relative and ``/static/`` links resolve under it.
BASE_URL = "https://print.arbiter.invalid/"
STATIC_PREFIX = BASE_URL + "static/"


class StaticOnlyFetcher(URLFetcher):
    """Serves ``/static/...`` from disk and ``data:`` URLs; refuses every other URL."""

    def fetch(self, url: str, headers: dict | None = None) -> URLFetcherResponse:
        if url.startswith("data:"):
            return super().fetch(url, headers)
        if url.startswith(STATIC_PREFIX):
            relative = url[len(STATIC_PREFIX) :].split("?")[0].split("#")[0]
            path = (STATIC_DIR / relative).resolve()
            if path.is_relative_to(STATIC_DIR.resolve()) and path.is_file():
                kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
                return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": kind})
        raise ValueError(f"Print documents may only use /static/ files, not {url}")


@cache
def _shared() -> tuple[FontConfiguration, CSS, StaticOnlyFetcher]:
    """The font configuration, parsed print.css and fetcher, built once per process."""
    fonts = FontConfiguration()
    fetcher = StaticOnlyFetcher()
    css = CSS(
        filename=str(STYLESHEET),
        base_url=STATIC_PREFIX + "print/",
        font_config=fonts,
        url_fetcher=fetcher,
    )
    return fonts, css, fetcher


def render_pdf(html: str) -> bytes:
    """One PDF from a full HTML document, styled by print.css plus its own <style>."""
    fonts, css, fetcher = _shared()
    document = HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher)
    return document.write_pdf(stylesheets=[css], font_config=fonts)


def join_pdfs(parts: list[bytes]) -> bytes:
    """Chunks joined page by page, in order: pages are copied, never laid out again.

    The joined file keeps the first chunk's title (WeasyPrint's, from the HTML <title>) and
    language, and asks viewers to show the title instead of the file name: every chunk of
    a document has the same head, and a file without them is "Untitled" in tabs and
    screen readers."""
    writer = PdfWriter()
    for index, part in enumerate(parts):
        reader = PdfReader(io.BytesIO(part))
        if index == 0:
            _keep_title(reader, writer)
        for page in reader.pages:
            writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _keep_title(reader: PdfReader, writer: PdfWriter) -> None:
    """``reader``'s title, author and language on ``writer``, the title shown by viewers."""
    info = reader.metadata or {}
    kept = {key: info[key] for key in ("/Title", "/Author", "/Creator") if info.get(key)}
    if kept:
        writer.add_metadata(kept)
    language = reader.trailer["/Root"].get("/Lang")
    if language:
        writer.root_object[NameObject("/Lang")] = TextStringObject(str(language))
    if "/Title" in kept:
        writer.create_viewer_preferences().display_doctitle = True


def stamp(content: bytes, backgrounds: list[bytes]) -> bytes:
    """Each page of ``content`` drawn over page 1 of its background (``backgrounds[i]``).

    A background becomes one PDF form, stored once and drawn by every page that uses it:
    what repeats on every sheet (a slip's grid, boxes, labels) is laid out once instead
    of once per page, and the file stays small.
    """
    writer = PdfWriter(clone_from=io.BytesIO(content))
    forms: dict[bytes, tuple[str, IndirectObject]] = {}
    for page, background in zip(writer.pages, backgrounds, strict=True):
        if background not in forms:
            frame = PdfReader(io.BytesIO(background)).pages[0]
            # A name per form: WeasyPrint's pages may share one resource dictionary.
            forms[background] = (f"/ArbiterFrame{len(forms)}", _as_form(frame, writer))
        name, form = forms[background]
        resources = page.setdefault(NameObject("/Resources"), DictionaryObject()).get_object()
        xobjects = resources.setdefault(NameObject("/XObject"), DictionaryObject()).get_object()
        xobjects[NameObject(name)] = form
        draw = DecodedStreamObject()
        draw.set_data(f"q {name} Do Q\n".encode())
        contents = page.raw_get("/Contents")  # the reference, not the resolved stream
        resolved = contents.get_object()
        existing = list(resolved) if isinstance(resolved, ArrayObject) else [contents]
        page[NameObject("/Contents")] = ArrayObject([writer._add_object(draw), *existing])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _as_form(page, writer: PdfWriter) -> IndirectObject:
    """A page as a Form XObject (its drawing and resources), added to ``writer``."""
    form = DecodedStreamObject()
    form.set_data(page.get_contents().get_data())
    form[NameObject("/Type")] = NameObject("/XObject")
    form[NameObject("/Subtype")] = NameObject("/Form")
    form[NameObject("/BBox")] = ArrayObject(page.mediabox)
    form[NameObject("/Resources")] = page["/Resources"].get_object().clone(writer)
    # pypdf has no public way to add a new indirect object; _add_object is what it uses.
    return writer._add_object(form.flate_encode())


def warm_up() -> float:
    """Load fonts (every script print.css names, emoji too), the stylesheet and pypdf
    before the first real chunk; returns the seconds taken. See ``documents.warm_up``."""
    started = time.perf_counter()
    qr = segno.make("https://example.invalid/", error="m").png_data_uri(border=2)
    html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body>'
        "<p>Latin Ελληνικά Кириллица 山田太郎 <b>山田太郎</b> "
        '<span lang="ko">김민준 <b>김민준</b></span> ✂ — สมชาย अर्जुन 🎲 <b>🎲</b> '
        '<span lang="ar">محمد <b>محمد</b></span> <span lang="he">דוד <b>דוד</b></span></p>'
        f'<img src="{qr}" style="width: 20mm; image-rendering: pixelated"></body></html>'
    )
    pdf = render_pdf(html)
    join_pdfs([stamp(pdf, [pdf])])
    return time.perf_counter() - started


def page_count(pdf: bytes) -> int:
    """Pages in a PDF (for progress pages and tests)."""
    return len(PdfReader(io.BytesIO(pdf)).pages)
