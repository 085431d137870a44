"""decks.decklist: the decklist exports players actually paste, read against the demo pool.

Each export in ``decklist_exports`` is one list written the way a site, client or forum
writes it; every one must read as exactly the same cards and counts. Plain pytest, no
database: the module is pure.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.decklist import Entry, PoolIndex, parse, render, resolve
from tests.unit.decks.decklist_exports import (
    ARENA_LIKE,
    BULLETED,
    EXPORTS,
    MAIN,
    SIDEBOARD,
    demo_names,
)

POOL = PoolIndex(demo_names())


def pairs(entries: list[Entry]) -> list[tuple[str, int]]:
    return [(e.name, e.count) for e in entries]


@pytest.mark.parametrize("kind", [k for k in EXPORTS if k != "bulleted"])
def test_each_export_reads_as_the_same_cards_and_counts(kind):
    parsed = parse(EXPORTS[kind])
    assert parsed.problems == []
    resolution = resolve(parsed, POOL)
    assert resolution.unknown == []
    assert pairs(resolution.main) == MAIN
    assert pairs(resolution.sideboard) == SIDEBOARD


def test_a_bulleted_forum_paste_reads_its_cards_and_flags_only_its_chatter():
    """The forum post's opening sentence is no card: it is the one name the pool lacks."""
    parsed = parse(BULLETED)
    assert parsed.problems == []
    resolution = resolve(parsed, POOL)
    assert [(u.line, u.name) for u in resolution.unknown] == [
        (1, "My Ember list for Saturday, feedback welcome:")
    ]
    assert pairs(resolution.main) == MAIN
    assert pairs(resolution.sideboard) == SIDEBOARD


def test_the_arena_like_export_keeps_its_line_numbers():
    parsed = parse(ARENA_LIKE)
    assert parsed.main[0] == Entry("Ember Tithe", 4, 2)
    assert parsed.sideboard[0] == Entry("Table Talk", 2, 15)


# --------------------------------------------------------------------------- single lines


@pytest.mark.parametrize(
    "line",
    [
        "4x Ember Tithe (EMB) 10",
        "4 Ember Tithe (emb) 10",
        "4 Ember Tithe [EMB]",
        "4 Ember Tithe (EMB)",
        "4 Ember Tithe(EMB)",
        "4 Ember Tithe [EMB] #10",
        "4 Ember Tithe (EMB) 10a",
        "4 Ember Tithe (EMB) 10 *F*",
        "4 [EMB] Ember Tithe",
        "\u2022 4 ember tithe",
        "\u20224 ember tithe",
        "- 4 Ember Tithe",
        "* 4 Ember Tithe",
        "\u2013 4 Ember Tithe",
        "\u2014 4x Ember Tithe",
        "+ 4 Ember Tithe",
        "> 4 Ember Tithe",
        "\u2022 - 4 Ember Tithe",
        "4 - Ember Tithe",
        "4 \u2013 Ember Tithe",
        "4: Ember Tithe",
        "x4 Ember Tithe",
        "\u00d74 Ember Tithe",
        "Ember Tithe (x4)",
        "Ember Tithe [4x]",
        "\u2022 Ember Tithe x4 ",
    ],
)
def test_set_codes_bullets_and_count_styles_read_four_ember_tithe(line):
    parsed = parse(line)
    assert parsed.problems == [] and parsed.sideboard == []
    assert [(e.name.casefold(), e.count) for e in parsed.main] == [("ember tithe", 4)]
    assert pairs(resolve(parsed, POOL).main) == [("Ember Tithe", 4)]


@pytest.mark.parametrize(
    ("line", "name", "count"),
    [
        ("Ember Tithe 4", "Ember Tithe", 4),
        ("ember tithe (3)", "Ember Tithe", 3),
        ("\u2022 Quiet Ledger 2", "Quiet Ledger", 2),
        ("Ember Tithe", "Ember Tithe", 1),
        ("Ember Tithe (EMB) 10", "Ember Tithe", 1),  # a collector number is not a count
    ],
)
def test_a_count_after_the_name_is_read_where_the_pool_makes_it_unambiguous(line, name, count):
    resolution = resolve(parse(line), POOL)
    assert resolution.unknown == [] and pairs(resolution.main) == [(name, count)]


def test_a_trailing_number_stays_part_of_a_name_the_pool_has():
    """``Agent 47`` is a card: its 47 is no count; an explicit leading count is never re-read."""
    pool = PoolIndex(["Agent 47", "Agent", "Ember Tithe"])
    assert pairs(resolve(parse("Agent 47"), pool).main) == [("Agent 47", 1)]
    assert pairs(resolve(parse("Agent 47\nAgent 47"), pool).main) == [("Agent 47", 2)]
    leading = resolve(parse("1 Ember Tithe 4"), pool)
    assert leading.main == [] and leading.unknown[0].name == "Ember Tithe 4"


def test_a_misspelt_name_with_a_count_after_it_is_reported_without_the_count():
    """Fixing "Embr Tithe" to "Ember Tithe" on the line keeps its count of 4."""
    (unknown,) = resolve(parse("Embr Tithe 4"), POOL).unknown
    assert (unknown.name, unknown.count, unknown.suggestions[0]) == ("Embr Tithe", 4, "Ember Tithe")
    (unknown,) = resolve(parse("Agnt 47"), PoolIndex(["Agent 47", "Ash"])).unknown
    assert (unknown.name, unknown.count, unknown.suggestions) == ("Agnt 47", 1, ("Agent 47",))


def test_a_count_after_the_name_adds_up_over_repeated_lines():
    resolution = resolve(parse("Ember Tithe 2\nember tithe 2\nSB: Quiet Ledger 3"), POOL)
    assert pairs(resolution.main) == [("Ember Tithe", 4)]
    assert pairs(resolution.sideboard) == [("Quiet Ledger", 3)]


def test_a_quoted_name_is_read_as_written():
    """The escape for a name that looks like a set code or a bullet: quotes keep it whole."""
    assert pairs(parse('2 "Vault (EMB)"\n1 "- Ember"').main) == [("Vault (EMB)", 2), ("- Ember", 1)]


@pytest.mark.parametrize(
    "heading",
    [
        "# Sideboard",
        "## Sideboard (6)",
        "**Sideboard**",
        "__Sideboard:__",
        "// Sideboard",
        "\u2022 SB:",
    ],
)
def test_marked_up_headings_switch_to_the_sideboard(heading):
    parsed = parse(f"4 Ember Tithe\n{heading}\n2 Quiet Ledger\n")
    assert parsed.problems == []
    assert pairs(parsed.main) == [("Ember Tithe", 4)]
    assert pairs(parsed.sideboard) == [("Quiet Ledger", 2)]


def test_a_comment_that_is_not_a_heading_is_still_skipped():
    parsed = parse("# Sideboard plan: bring in Table Talk\n4 Ember Tithe\n# 4 Not A Card\n")
    assert parsed.problems == [] and parsed.sideboard == []
    assert pairs(parsed.main) == [("Ember Tithe", 4)]


# --------------------------------------------------------------------------- what cannot be read


def test_an_x_without_a_count_says_which_line_why_and_what_was_expected():
    text = "4 Ember Tithe\n4 Kindling Offer\n\n4 Furnace Oath\n4 Backdraft\n# EMB\nEmber Tith x\n"
    parsed = parse(text)
    assert len(parsed.problems) == 1
    assert str(parsed.problems[0]) == (
        'Line 7 "Ember Tith x": no count after the "x" '
        '\u2014 expected a line like "4 Ember Tith" or "Ember Tith x4".'
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "0 Quiet Ledger",
            "count 0 is out of range: counts are whole numbers from 1 to 99 "
            '\u2014 expected a line like "4 Quiet Ledger".',
        ),
        (
            "Quiet Ledger x100",
            "count 100 is out of range: counts are whole numbers from 1 to 99 "
            '\u2014 expected a line like "4 Quiet Ledger".',
        ),
        (
            "2.5 Glass Harbor",
            "'2.5' is not a whole number: counts are whole numbers from 1 to 99 "
            '\u2014 expected a line like "4 Glass Harbor".',
        ),
        (
            "\u2022 4x",
            'a count but no card name \u2014 expected a line like "4 Card Name".',
        ),
        (
            "4\tEmber Tithe\tEMB",
            '3 columns \u2014 expected two, the count and the card name, like "4<tab>Ember Tithe".',
        ),
    ],
)
def test_each_unreadable_line_says_why_and_what_was_expected(line, message):
    (problem,) = parse(f"4 Ember Tithe\n{line}").problems
    assert (problem.line, problem.text, problem.message) == (2, line, message)
    assert str(problem) == f'Line 2 "{line}": {message}'


# --------------------------------------------------------------------------- round trip

EXPORT_LINES = st.lists(
    st.sampled_from([line for text in EXPORTS.values() for line in text.splitlines()]),
    max_size=30,
)


@settings(max_examples=150, deadline=None)
@given(EXPORT_LINES)
def test_any_mix_of_export_lines_reads_back_the_same_after_rendering(lines):
    """What a player sees rendered back (their stored list) reads as the same list again."""
    parsed = parse("\n".join(lines))
    again = parse(render(parsed.main, parsed.sideboard))
    assert again.problems == []
    assert (pairs(again.main), pairs(again.sideboard)) == (
        pairs(parsed.main),
        pairs(parsed.sideboard),
    )
    stored = resolve(parsed, POOL)
    reread = resolve(parse(render(stored.main, stored.sideboard)), POOL)
    assert reread.unknown == [] and reread.problems == []
    assert (pairs(reread.main), pairs(reread.sideboard)) == (
        pairs(stored.main),
        pairs(stored.sideboard),
    )
