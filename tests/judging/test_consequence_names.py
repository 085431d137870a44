"""One spelling of every consequence name, from the rules' one table: templates use the
filter (never a name of their own, never a key made readable by hand), and the words the
site writes for people in Python spell each name exactly as the table does."""

import ast
import re
from pathlib import Path

import pytest
from django.template import Context, Template

from judging.penalties import consequence_words
from judging.reports import consequence_text
from rules_engine.iacta.tournament import CONSEQUENCE_NAMES

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
# Any spelling of a consequence name: "Game Loss", "game-loss", "Gameloss", "MATCH LOSS"…
ANY_SPELLING = re.compile(r"(?i)\b(?:game|match)[ \-]*loss(?:es)?\b|\bdisqualification\b")
TEMPLATE_CODE = re.compile(
    r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}|{%.*?%}|{{.*?}}", re.S
)
NOT_FOR_READING = re.compile(r'\b(?:class|id)\s*=\s*"[^"]*"')  # names for CSS, not people
HAND_MADE = re.compile(r"""\|\s*cut\s*:\s*["']_["']""")
# The modules that write penalty and result words for people (pages, CSV, API, logs).
PEOPLE_WORDS = [
    "judging/penalties.py",
    "judging/reports.py",
    "judging/api.py",
    "judging/views.py",
    "judging/calls.py",
    "judging/queue.py",
    "tournaments/results/services.py",
    "tournaments/results/penalties.py",
    "tournaments/results/notices.py",
    "decks/services.py",
    "decks/views.py",
    *[str(p.relative_to(ROOT)) for p in (ROOT / "printing").rglob("*.py")],
]


def test_the_table_holds_the_rules_names():
    assert CONSEQUENCE_NAMES == {
        "game_loss": "Game Loss",
        "match_loss": "Match Loss",
        "disqualification": "Disqualification",
    }


@pytest.mark.parametrize(
    "path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES))
)
def test_no_template_spells_a_consequence_itself(path):
    source = path.read_text()
    assert not HAND_MADE.search(source), f"{path.name}: use |consequence_name, not cut:'_'"
    literal = NOT_FOR_READING.sub(" ", TEMPLATE_CODE.sub(" ", source))
    found = [m.group(0) for m in ANY_SPELLING.finditer(literal)]
    assert not found, f"{path.name} spells a consequence itself: use |consequence_name"


def _words_for_people(tree: ast.AST) -> list[str]:
    """String constants other than docstrings (and other bare string statements)."""
    bare = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in bare
    ]


@pytest.mark.parametrize("module", PEOPLE_WORDS)
def test_python_writes_each_name_exactly_as_the_table(module):
    names = set(CONSEQUENCE_NAMES.values())
    source = (ROOT / module).read_text()
    for text in _words_for_people(ast.parse(source)):
        for match in ANY_SPELLING.finditer(text):
            if text == match.group(0).lower().replace(" ", "_"):
                continue  # a key ("disqualification"), not a name
            assert match.group(0) in names, f"{module}: {text!r} spells {match.group(0)!r}"


def test_the_filters_and_the_reports_write_the_same_words():
    consequence = {"result": "game_loss", "game": 2, "rule": "905.1"}
    rendered = Template(
        "{% load penalty_tags %}{{ key|consequence_name }}|{{ c|consequence_text }}"
    ).render(Context({"key": "match_loss", "c": consequence}))
    assert rendered == "Match Loss|Game Loss in game 2 (905.1)"
    assert consequence_text(consequence) == consequence_words(consequence)
    assert consequence_words({"result": "disqualification", "game": 1, "rule": "906.5"}) == (
        "Disqualification (906.5)"
    )


@pytest.mark.django_db
def test_every_judge_page_names_the_game_loss_the_same_way(client, make_world, judge):
    from judging.penalties import issue_penalty

    world = make_world(4)
    event, table = world.event, world.table(1)
    for _ in range(3):
        issue_penalty(table.player_a, "slow_play", judge, game=2, match=table)
    client.force_login(judge)
    for url in (
        f"/events/{event.pk}/judge/",
        f"/events/{event.pk}/penalties/",
        f"/events/{event.pk}/judge/tables/{table.pk}/",
    ):
        text = NOT_FOR_READING.sub(" ", client.get(url).content.decode())
        spellings = {m.group(0) for m in ANY_SPELLING.finditer(text)}
        assert spellings == {"Game Loss"}, (url, spellings)
    csv = client.get(f"/events/{event.pk}/penalties.csv").content.decode()
    assert "Game Loss in game 2 (905.1)" in csv
