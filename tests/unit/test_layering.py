"""Dependencies point one way (README, Layout): a static check of every import.

The apps use ``web``, ``pairing`` and ``rules_engine``; the pure packages use nothing
of Django; ``tournaments`` imports no other app; ``judging`` and ``decks`` reach
tournaments through its services, never its API module.
"""

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FORBIDDEN = {
    "pairing": ("django", "rest_framework", "celery", "arbiter", "web", "tournaments"),
    "rules_engine": ("django", "rest_framework", "celery", "arbiter", "web", "tournaments"),
    "judging": ("tournaments.api", "tournaments.round_views", "tournaments.views"),
    "decks": ("tournaments.api", "tournaments.round_views", "tournaments.views"),
    "tournaments": ("judging", "decks", "printing", "rulebook"),
    "web": ("judging", "decks", "printing", "rulebook", "accounts"),
}


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def _breaks(name: str, banned: tuple[str, ...]) -> bool:
    return any(name == b or name.startswith(f"{b}.") for b in banned)


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_package_imports_only_what_its_layer_may(package):
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
        for line, name in _imports(path)
        if _breaks(name, FORBIDDEN[package])
    ]
    assert wrong == []


def test_the_check_sees_a_forbidden_import(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text("from tournaments.api import event_for\nimport django.db\n")
    names = [name for _, name in _imports(module)]
    assert _breaks("tournaments.api.event_for", FORBIDDEN["judging"])
    assert any(_breaks(n, FORBIDDEN["pairing"]) for n in names)


# Every package the site runs: the Django apps and the pure packages they use.
RUNTIME = (
    "arbiter",
    "accounts",
    "rules_engine",
    "rulebook",
    "tournaments",
    "decks",
    "judging",
    "printing",
    "pairing",
    "web",
    "live",
    "push",
    "series",
)


@pytest.mark.parametrize("package", RUNTIME)
def test_no_runtime_package_imports_the_developer_tools(package):
    """``tools/`` (the translation audit …) is left out of the package and the image."""
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, name in _imports(path)
        if _breaks(name, ("tools",))
    ]
    assert wrong == []


def test_the_tools_are_no_installed_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = project["tool"]["setuptools"]["packages"]["find"]["include"]
    assert not [name for name in include if name.startswith("tools")]
    assert not (ROOT / "web" / "i18n_audit.py").exists()
