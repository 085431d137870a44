"""No "(s)" plural in text people read (issue 30): "6 player(s) checked in." reads as a
form, and Japanese and German translators cannot do anything with it. A count says its
noun in the right number through ngettext, {% blocktranslate count %} or the JavaScript
catalogue's ngettext.

The scan covers the project's own sources: every string given to a gettext function in
Python, every template, and the string literals of the site's JavaScript (not vendored
libraries)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tools.i18n_audit import GETTEXT  # the gettext family, as the audit knows it

ROOT = Path(__file__).resolve().parents[2]
SKIPPED_DIRS = {".venv", "node_modules", "tests", "migrations", "vendor", "benchmarks", "tools"}
PLURAL = re.compile(r"[^\W\d_]\(s\)")  # "player(s)", "table(s)", not "show(s)" in code
JS_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')


def project_files(pattern: str) -> list[Path]:
    return [
        path
        for path in ROOT.rglob(pattern)
        if not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts[:-1])
    ]


def python_plurals(source: str) -> list[str]:
    """The strings given to a gettext function that say a plural with "(s)"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name not in GETTEXT:
            continue
        for arg in node.args:
            text = arg.value if isinstance(arg, ast.Constant) else None
            if isinstance(text, str) and PLURAL.search(text):
                found.append(f"line {node.lineno}: {text!r}")
    return found


def template_plurals(text: str) -> list[str]:
    return [
        f"line {n}: {line.strip()}"
        for n, line in enumerate(text.splitlines(), 1)
        if PLURAL.search(line)
    ]


def javascript_plurals(text: str) -> list[str]:
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        for literal in JS_STRING.findall(line):
            if PLURAL.search(literal):
                found.append(f"line {n}: {literal}")
    return found


def test_the_scan_finds_what_it_is_for():
    assert python_plurals('msg = ngettext("%(n)s table(s) left.", "%(n)s tables", n)')
    assert python_plurals('raise ServiceError(_("Pick player(s)."))')
    assert not python_plurals('log("table(s)")')  # not a translated string
    assert template_plurals("<p>{% translate 'Print slip(s)' %}</p>")
    assert javascript_plurals('el.textContent = gettext("Copy(s) saved");')
    assert not javascript_plurals("function show(s) { return s; }")


def test_no_translated_python_string_says_s_in_brackets():
    found = []
    for path in project_files("*.py"):
        found += [f"{path.relative_to(ROOT)} {hit}" for hit in python_plurals(path.read_text())]
    assert found == [], "\n".join(found)


def test_no_template_says_s_in_brackets():
    found = []
    for pattern in ("*.html", "*.txt"):
        for path in project_files(pattern):
            if "templates" not in path.relative_to(ROOT).parts:
                continue
            found += [
                f"{path.relative_to(ROOT)} {hit}" for hit in template_plurals(path.read_text())
            ]
    assert found == [], "\n".join(found)


def test_no_script_of_the_site_says_s_in_brackets():
    found = []
    for path in project_files("*.js"):
        if "static" not in path.relative_to(ROOT).parts:
            continue
        found += [f"{path.relative_to(ROOT)} {hit}" for hit in javascript_plurals(path.read_text())]
    assert found == [], "\n".join(found)
