"""The shipped languages: every user-facing string is marked, and the Japanese and German
catalogues hold every marked string, translated, with nothing fuzzy, no plural form
missing, and their compiled ``.mo`` files made from them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from tools.i18n_audit import APPS, audit_project, catalogue_problems, report

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("ja", "de")
# What makemessages reads: the audited apps, and what they import or ship beside them.
SOURCES = (
    *APPS,
    "manage.py",
    "pyproject.toml",
    "templates",
    "rules_engine",
    "pairing",
    "docs",
    "static",
)


DOMAINS = ("django", "djangojs")  # pages and Python; the scripts (static/js)


def catalogue(language: str, domain: str = "django") -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"


def test_every_user_facing_string_is_marked_for_translation():
    findings = audit_project(ROOT)
    assert not findings, "\n" + report(findings)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_is_complete_with_nothing_fuzzy(language, domain):
    problems = catalogue_problems(catalogue(language, domain))
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_is_made_from_the_current_one(language, domain):
    po = polib.pofile(str(catalogue(language, domain)))
    mo = polib.mofile(str(catalogue(language, domain).with_suffix(".mo")))

    def entries(book):
        return {
            (e.msgctxt, e.msgid, e.msgid_plural): (e.msgstr, tuple(sorted(e.msgstr_plural.items())))
            for e in book
            if e.msgid and not e.obsolete
        }

    assert entries(mo) == entries(po), "run: python manage.py compilemessages"


def _copy_sources(to: Path) -> None:
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, to / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy2(source, to / name)


@pytest.mark.skipif(
    shutil.which("xgettext") is None and os.environ.get("CI") != "true",
    reason="needs gettext (apt-get install gettext): scripts/lib.sh installs it",
)
def _extracted(tmp_path: Path, domain: str) -> set[tuple[str | None, str]]:
    ignored = ["rules_engine/*", "docs/*", "static/vendor/*"]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "arbiter.settings"}
    env.pop("DATABASE_URL", None)
    command = [sys.executable, "manage.py", "makemessages", "-d", domain, "-l", "ja"]
    command += ["--no-obsolete", *(arg for path in ignored for arg in ("--ignore", path))]
    made = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert made.returncode == 0, made.stderr[-2000:]
    found = polib.pofile(str(tmp_path / "locale" / "ja" / "LC_MESSAGES" / f"{domain}.po"))
    return {(e.msgctxt, e.msgid) for e in found if e.msgid}


def test_no_marked_string_is_missing_from_the_shipped_catalogues(tmp_path):
    """``makemessages`` over a copy of the source: every msgid it finds is shipped."""
    _copy_sources(tmp_path)
    (tmp_path / "locale").mkdir()
    for domain in DOMAINS:
        wanted = _extracted(tmp_path, domain)
        assert wanted, f"nothing extracted for {domain}"
        for language in LANGUAGES:
            shipped = {
                (e.msgctxt, e.msgid)
                for e in polib.pofile(str(catalogue(language, domain)))
                if e.msgid and not e.obsolete
            }
            missing = sorted(m for _, m in wanted - shipped)
            assert not missing, f"{language} {domain} lacks {len(missing)}: {missing[:20]}"


def test_every_language_writes_every_date_format_the_templates_name():
    import importlib

    from django.conf import settings

    names = {n for n in dir(importlib.import_module("arbiter.formats.en.formats")) if n.isupper()}
    for code, _name in settings.LANGUAGES:
        module = importlib.import_module(f"arbiter.formats.{code}.formats")
        assert names <= set(dir(module)), code


@pytest.mark.parametrize(
    ("language", "single", "band"),
    [("en", "3rd", "5th\u20138th"), ("ja", "3位", "5\u20138位"), ("de", "3.", "5.\u20138.")],
)
def test_a_final_place_reads_as_the_language_writes_it(language, single, band):
    from django.utils import translation

    from tournaments.record.placings import place_words

    with translation.override(language):
        assert (place_words(3, 3), place_words(5, 8)) == (single, band)
