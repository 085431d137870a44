"""Only the tournaments app writes match results and entries (its services log every change).

A small static check over the source: outside ``tournaments/`` no module assigns a
match's result fields or an entry's drop fields, and none calls ``.update()`` on
matches or registrations. Tests are left out: their fixtures may set rows up directly.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SKIPPED = {"tournaments", "tests", ".venv", "node_modules", "var", "static"}

# Result fields no other object here has: flagged whatever the object is called.
RESULT_FIELDS = {"games", "forced_games", "reported_games", "reported_by", "reported_by_id"}
# Names other objects share (a judge call's extension_minutes, a decklist's status, the rules
# engine's tallies): flagged when the object is named as a match or an entry.
SHARED_FIELDS = {"status", "extension_minutes", "disqualified", "dropped_after_round"}
OWNER_WORDS = ("match", "table", "bye", "player", "registration", "entry")
MODELS = {"Match", "Registration"}
MANAGERS = {"matches", "registrations"}  # reverse relations: round_.matches, event.registrations
BULK_WRITES = {"update", "bulk_update"}


def _chain(node: ast.AST) -> list[str]:
    """The names along ``a.b(...).c`` from the call's receiver down to its root."""
    names = []
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Name):
            names.append(node.id)
            return names
        else:
            return names


def _owned_assignment(target: ast.AST) -> str | None:
    if not isinstance(target, ast.Attribute):
        return None
    if target.attr in RESULT_FIELDS:
        return target.attr
    owner = _chain(target.value)
    if target.attr in SHARED_FIELDS and owner and any(w in owner[0].lower() for w in OWNER_WORDS):
        return f"{owner[0]}.{target.attr}"
    return None


def violations(source: str, filename: str = "<source>") -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            field = _owned_assignment(target)
            if field:
                found.append(f"{filename}:{node.lineno} assigns {field}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in BULK_WRITES
        ):
            chain = set(_chain(node.func.value))
            if (chain & MODELS and "objects" in chain) or chain & MANAGERS:
                found.append(f"{filename}:{node.lineno} calls .{node.func.attr}() on rows")
    return found


def project_modules() -> list[Path]:
    return [
        path
        for path in sorted(ROOT.rglob("*.py"))
        if path.relative_to(ROOT).parts[0] not in SKIPPED
    ]


def test_nothing_outside_tournaments_writes_match_results_or_entries():
    modules = project_modules()
    assert any(p.parts[-2:] == ("judging", "penalties.py") for p in modules)
    found = [v for p in modules for v in violations(p.read_text(), str(p.relative_to(ROOT)))]
    assert found == []


@pytest.mark.parametrize(
    "line",
    [
        "match.games = [1, 1]",
        "penalty.match.forced_games = []",
        "m.reported_games = games",
        "match.status = Match.Status.FINAL",
        "player.status = 'dropped'",
        "player.disqualified = True",
        "match.extension_minutes += 5",
        "Match.objects.filter(pk=1).update(games=[])",
        "Registration.objects.filter(pk=1).update(status='dropped')",
        "second.matches.filter(table=2).update(extension_minutes=5)",
        "Match.objects.bulk_update(rows, ['games'])",
    ],
)
def test_the_check_finds_each_kind_of_write(line):
    assert len(violations(line)) == 1


@pytest.mark.parametrize(
    "line",
    [
        "job.status = 'done'",
        "call.extension_minutes = minutes",
        "record.disqualified = True",
        "decklist.status = Decklist.Status.SUBMITTED",
        "PrintJob.objects.filter(pk=1).update(note='')",
        "context.update(rows)",
        "games = match.games",
    ],
)
def test_the_check_leaves_other_rows_alone(line):
    assert violations(line) == []
