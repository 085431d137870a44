"""Dependencies point one way (docs/architecture.md, "Layers"): a static check of every import.

Across the project: the pure packages (``pairing``, ``rules_engine``, ``metagame``) use
nothing of Django nor any app; ``web`` is the kernel below every app and imports none;
``tournaments`` imports no other app (live notices, Web Push and backups hear its signals
instead); ``judging`` and ``decks`` reach tournaments through its services, never its
pages or API.

Inside ``tournaments`` the packages are layered too (:data:`TOURNAMENT_LAYERS`, lowest
first): a package imports only its own layer and the layers below it.
"""

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

APPS = (
    "accounts",
    "tournaments",
    "decks",
    "judging",
    "precedents",
    "rulebook",
    "printing",
    "series",
    "live",
    "push",
    "backups",
)  # fmt: skip  (``arbiter`` is the project: settings, the Celery app, the demo)

FORBIDDEN = {
    "pairing": ("django", "rest_framework", "celery", "arbiter", "web", *APPS),
    "rules_engine": ("django", "rest_framework", "celery", "arbiter", "web", *APPS),
    "metagame": ("django", "rest_framework", "celery", "arbiter", "web", *APPS),
    "web": APPS,
    "judging": ("tournaments.api", "tournaments.pages", "tournaments.urls", "precedents"),
    "decks": ("tournaments.api", "tournaments.pages", "tournaments.urls"),
    "precedents": ("tournaments.api", "tournaments.pages", "tournaments.urls"),
    "tournaments": tuple(app for app in APPS if app != "tournaments"),
}

# The tournaments app's own modules and packages, lowest layer first; each may import
# its own layer and those before it. ``once`` and ``signals`` sit with the models: every
# service writes through them.
TOURNAMENT_LAYERS = (
    ("models", "once", "signals"),
    ("record",),
    ("event",),
    ("rounds", "results", "clock"),
    ("interchange",),
    ("api", "pages", "templatetags", "admin"),
    ("urls", "management", "apps", "tasks", "swiss"),
)


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


def _layer_of(part: str) -> int | None:
    for number, layer in enumerate(TOURNAMENT_LAYERS):
        if part in layer:
            return number
    return None


def _upward(path: Path) -> list[str]:
    """The imports of a tournaments module that reach a layer above its own."""
    parts = path.relative_to(ROOT / "tournaments").with_suffix("").parts
    own = _layer_of(parts[0])
    if own is None:
        return [f"{path.relative_to(ROOT)} is in no layer of TOURNAMENT_LAYERS"]
    wrong = []
    for line, name in _imports(path):
        pieces = name.split(".")
        if pieces[0] != "tournaments" or len(pieces) < 2:
            continue
        theirs = _layer_of(pieces[1])
        if theirs is not None and theirs > own:
            wrong.append(f"{path.relative_to(ROOT)}:{line} imports {name} (a higher layer)")
    return wrong


def _tournament_modules() -> list[Path]:
    return [
        path
        for path in sorted((ROOT / "tournaments").rglob("*.py"))
        if "migrations" not in path.parts and path != ROOT / "tournaments" / "__init__.py"
    ]


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


def test_each_tournaments_package_imports_only_its_layer_and_those_below():
    wrong = [problem for path in _tournament_modules() for problem in _upward(path)]
    assert wrong == []


def test_tournaments_keeps_a_short_top_level():
    """A newcomer finds a concept by its package: at most a dozen modules at the top."""
    top = sorted(p.name for p in (ROOT / "tournaments").glob("*.py"))
    assert len(top) <= 12, top


def test_the_check_sees_a_forbidden_import(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text("from tournaments.api.events import event_for\nimport django.db\n")
    names = [name for _, name in _imports(module)]
    assert _breaks("tournaments.api.events.event_for", FORBIDDEN["judging"])
    assert any(_breaks(n, FORBIDDEN["pairing"]) for n in names)
    assert _breaks("tournaments.models", FORBIDDEN["web"])


def test_the_check_sees_an_upward_import(monkeypatch, tmp_path):
    package = tmp_path / "tournaments" / "record"
    package.mkdir(parents=True)
    module = package / "bad.py"
    module.write_text("from tournaments.rounds.services import pair_round\n")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert _upward(module) == [
        "tournaments/record/bad.py:1 imports tournaments.rounds.services (a higher layer)",
        "tournaments/record/bad.py:1 imports tournaments.rounds.services.pair_round"
        " (a higher layer)",
    ]


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
    "metagame",
    "web",
    "live",
    "push",
    "series",
    "backups",
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
