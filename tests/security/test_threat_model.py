"""docs/security.md is the threat model the people who run Arbiter read: every claim in it
names the test that holds it, and this file checks that each named test exists, so a
renamed or deleted test cannot leave a promise in the document that nothing checks."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "security.md"
# `tests/some/file.py::test_name` (a test function) as the document cites it.
CITATION = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
# The table rows and bullets that make a claim: each must cite at least one test.
CLAIM = re.compile(r"^\s*(?:[-*] |\|(?!\s*-)(?!\s*(?:who|what|role|where)\s*\|))", re.IGNORECASE)


def claims() -> list[str]:
    """Every bullet and table row of the document's numbered sections."""
    lines, inside = [], False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            inside = bool(re.match(r"## \d", line))
            continue
        if inside and CLAIM.match(line):
            lines.append(line)
    return lines


@cache
def defined_tests(path: str) -> frozenset[str]:
    """The names of the test functions (module level or in classes) defined in a file."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return frozenset(
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
    )


def citations() -> list[tuple[str, str]]:
    return CITATION.findall(DOC.read_text(encoding="utf-8"))


def test_the_threat_model_is_written_down():
    text = DOC.read_text(encoding="utf-8")
    for heading in ("what each role may see and do", "what leaves the server", "backup", "token"):
        assert heading in text.lower(), f"docs/security.md says nothing under {heading!r}"
    assert len(claims()) >= 20


def test_every_claim_names_the_test_that_holds_it():
    bare = [line.strip() for line in claims() if not CITATION.search(line)]
    assert not bare, "claims without a test:\n" + "\n".join(bare)


@pytest.mark.parametrize(("path", "name"), sorted(set(citations())))
def test_every_named_test_exists(path, name):
    assert (ROOT / path).is_file(), f"docs/security.md names {path}, which does not exist"
    assert name in defined_tests(path), f"docs/security.md names {path}::{name}, which is not there"
