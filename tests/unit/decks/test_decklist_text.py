"""decks.decklist: decklist text as typed or pasted -- parse, resolve, render, difference.

Plain pytest, no database: the module is pure.
"""

from __future__ import annotations

import ast
import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks import decklist
from decks.decklist import (
    Entry,
    ParsedList,
    PoolIndex,
    Problem,
    card_key,
    deck_payload,
    difference,
    from_payload,
    parse,
    render,
    resolve,
    to_payload,
)

POOL = [
    "Ember Tithe",
    "Quiet Ledger",
    "Saint's Oath",
    "Agent 47",
    "Iron-Clad Vault",
    "Glass Harbor",
    "Name, with comma",
    "Ash",
    "Sideboard Sentry",
    "Ember Tide",
    "Tithe Collector",
]


def pairs(entries: list[Entry]) -> list[tuple[str, int]]:
    return [(e.name, e.count) for e in entries]


def one(line: str) -> tuple[str, int]:
    """The single main-deck entry a line reads as."""
    parsed = parse(line)
    assert parsed.problems == [] and parsed.sideboard == []
    assert len(parsed.main) == 1
    return parsed.main[0].name, parsed.main[0].count


# --------------------------------------------------------------------------- formats


@pytest.mark.parametrize(
    "line",
    [
        "4 Ember Tithe",
        "4x Ember Tithe",
        "4 x Ember Tithe",
        "4X Ember Tithe",
        "4 X Ember Tithe",
        "4\u00d7 Ember Tithe",
        "  4   Ember   Tithe  ",
        "Ember Tithe x4",
        "Ember Tithe x 4",
        "Ember Tithe X4",
        "Ember Tithe 4x",
        "4\tEmber Tithe",
        "Ember Tithe\t4",
        "4x\tEmber Tithe",
        "4\tEmber Tithe\t\t",
        "4,Ember Tithe",
        "4, Ember Tithe",
        "Ember Tithe,4",
        "Ember Tithe, 4",
        '"4","Ember Tithe"',
        '4,"Ember Tithe"',
        "4,Ember Tithe,,",
    ],
)
def test_every_count_format_reads_four_ember_tithe(line):
    assert one(line) == ("Ember Tithe", 4)


def test_csv_quotes_keep_a_comma_in_the_name():
    assert one('4,"Name, with comma"') == ("Name, with comma", 4)
    assert one('"Name, with comma",3') == ("Name, with comma", 3)
    assert one("2,Name, with comma") == ("Name, with comma", 2)  # unquoted: first column counts
    assert one("2 Name, with comma") == ("Name, with comma", 2)  # a leading count wins


def test_a_trailing_number_without_x_is_part_of_the_name():
    """Names may end in a number: only ``x4`` / ``4x`` after a name is a count."""
    assert one("Agent 47") == ("Agent 47", 1)
    assert one("Glass Harbor 2") == ("Glass Harbor 2", 1)
    assert one("3 Agent 47") == ("Agent 47", 3)
    assert one("Agent 47 x3") == ("Agent 47", 3)


def test_a_name_alone_is_one_copy():
    assert one("Ember Tithe") == ("Ember Tithe", 1)
    assert one('"Quiet Ledger"') == ("Quiet Ledger", 1)


def test_x_in_a_name_is_not_a_separator():
    assert one("2 Xylo Drake") == ("Xylo Drake", 2)
    assert one("2x X Marks") == ("X Marks", 2)
    assert one("2 x") == ("x", 2)


@pytest.mark.parametrize(
    "header", ["count,name", "Count,Name", "Quantity,Card", "qty\tcard name", "Card,Quantity"]
)
def test_header_rows_are_skipped(header):
    parsed = parse(f"{header}\n4,Ember Tithe\n")
    assert parsed.problems == [] and pairs(parsed.main) == [("Ember Tithe", 4)]


def test_blank_lines_and_comments_are_skipped():
    text = "# my deck\n\n// by Pat\n4 Ember Tithe\n\n   \n# 4 Not A Card\n2 Quiet Ledger\n"
    parsed = parse(text)
    assert parsed.problems == []
    assert pairs(parsed.main) == [("Ember Tithe", 4), ("Quiet Ledger", 2)]


def test_windows_line_endings_and_byte_order_mark():
    parsed = parse("\ufeff4 Ember Tithe\r\nSideboard\r\n2 Quiet Ledger\r\n")
    assert pairs(parsed.main) == [("Ember Tithe", 4)]
    assert pairs(parsed.sideboard) == [("Quiet Ledger", 2)]


# --------------------------------------------------------------------------- zones


@pytest.mark.parametrize(
    "heading",
    [
        "Sideboard",
        "sideboard",
        "SIDEBOARD:",
        "Sideboard (10)",
        "Sideboard: (10)",
        "Sideboard [10]",
        "Sideboard 10 cards",
        "Side board",
        "SB",
        "SB:",
    ],
)
def test_sideboard_headings(heading):
    parsed = parse(f"4 Ember Tithe\n{heading}\n2 Quiet Ledger\n")
    assert parsed.problems == []
    assert pairs(parsed.main) == [("Ember Tithe", 4)]
    assert pairs(parsed.sideboard) == [("Quiet Ledger", 2)]


@pytest.mark.parametrize("heading", ["Main", "Deck", "Maindeck", "Main deck:", "Deck (60)", "MAIN"])
def test_main_headings(heading):
    parsed = parse(f"{heading}\n4 Ember Tithe\nSideboard\n2 Quiet Ledger\n{heading}\n1 Ash\n")
    assert parsed.problems == []
    assert pairs(parsed.main) == [("Ember Tithe", 4), ("Ash", 1)]
    assert pairs(parsed.sideboard) == [("Quiet Ledger", 2)]


def test_sb_prefix_puts_one_line_in_the_sideboard():
    parsed = parse("4 Ember Tithe\nSB: 2 Quiet Ledger\nsb:1 Ash\nSB: Glass Harbor\n3 Agent 47\n")
    assert pairs(parsed.main) == [("Ember Tithe", 4), ("Agent 47", 3)]
    assert pairs(parsed.sideboard) == [("Quiet Ledger", 2), ("Ash", 1), ("Glass Harbor", 1)]


def test_a_blank_line_does_not_start_the_sideboard():
    """MTGO-style pastes need a heading: grouping blank lines must not move cards."""
    parsed = parse("4 Ember Tithe\n\n2 Quiet Ledger\n")
    assert pairs(parsed.main) == [("Ember Tithe", 4), ("Quiet Ledger", 2)]
    assert parsed.sideboard == []


def test_a_card_named_like_a_heading_needs_its_count():
    parsed = parse("1 Sideboard\n1 Deck\n")
    assert pairs(parsed.main) == [("Sideboard", 1), ("Deck", 1)] and parsed.sideboard == []


# --------------------------------------------------------------------------- problems, merging


def test_problems_name_the_line():
    text = "4 Ember Tithe\n0 Quiet Ledger\n\n100 Ash\n2.5 Glass Harbor\n-1 Agent 47\nAsh x0\n4x\n"
    parsed = parse(text)
    assert pairs(parsed.main) == [("Ember Tithe", 4)]
    assert [(p.line, p.text) for p in parsed.problems] == [
        (2, "0 Quiet Ledger"),
        (4, "100 Ash"),
        (5, "2.5 Glass Harbor"),
        (6, "-1 Agent 47"),
        (7, "Ash x0"),
        (8, "4x"),
    ]
    messages = [p.message for p in parsed.problems]
    assert "1 to 99" in messages[0] and "count 0" in messages[0]
    assert "count 100" in messages[1] and '"1 100 Ash"' in messages[1]  # maybe part of a name
    assert "not a whole number" in messages[2] and "not a whole number" in messages[3]
    assert messages[5] == 'a count but no card name \u2014 expected a line like "4 Card Name".'
    assert not parsed.ok


def test_a_name_starting_with_a_big_number_suggests_writing_the_count():
    parsed = parse("1000 Cuts\n1 1000 Cuts\n")
    assert parsed.problems[0].line == 1 and '"1 1000 Cuts"' in parsed.problems[0].message
    assert pairs(parsed.main) == [("1000 Cuts", 1)]


def test_too_many_columns_and_too_long_lines_are_problems():
    parsed = parse("4\tEmber Tithe\tEMB\n" + "1 " + "a" * 300 + "\n" + "b" * 2000)
    assert [p.line for p in parsed.problems] == [1, 2, 3]
    assert "expected two, the count and the card name" in parsed.problems[0].message


def test_repeated_names_add_up_keeping_first_spelling_and_line():
    parsed = parse(
        "2 Ember Tithe\n1 Quiet Ledger\n2 ember  tithe\nEMBER-TITHE x1\nSB: 1 Ember Tithe"
    )
    assert parsed.main == [Entry("Ember Tithe", 5, 1), Entry("Quiet Ledger", 1, 2)]
    assert parsed.sideboard == [Entry("Ember Tithe", 1, 5)]


@pytest.mark.parametrize(
    "junk", [None, b"4 Ember Tithe", 12, "\x00\x00", '4,"unterminated', "\t\t\t", ",,,,", "SB:"]
)
def test_never_raises_on_odd_input(junk):
    assert isinstance(parse(junk), ParsedList)


# --------------------------------------------------------------------------- keys, resolve


def test_card_key_normalisation():
    assert card_key("  Ember   TITHE ") == "ember tithe"
    assert (
        card_key("Saint\u2019s Oath") == card_key("Saint's Oath") == card_key("SAINT\u2018S OATH")
    )
    assert (
        card_key("Iron-Clad Vault")
        == card_key("iron clad vault")
        == card_key("Iron\u2013Clad Vault")
    )
    assert card_key("Ember\u200bTithe") == card_key("EmberTithe")
    assert card_key("\uff25mber Tithe") == "ember tithe"  # full-width letter (NFKC)


def test_resolve_to_canonical_names_case_apostrophes_hyphens():
    parsed = parse(
        "4 ember tithe\n3 saint\u2019s oath\n2 iron clad vault\n1 IRON-CLAD VAULT\n"
        "Sideboard\n2 quiet ledger"
    )
    result = resolve(parsed, POOL)
    assert pairs(result.main) == [("Ember Tithe", 4), ("Saint's Oath", 3), ("Iron-Clad Vault", 3)]
    assert pairs(result.sideboard) == [("Quiet Ledger", 2)]
    assert result.unknown == [] and result.ok


def test_duplicates_merge_after_resolution():
    """Two spellings that only resolve to one card (not merged by parse) add up."""
    deck = ParsedList(main=[Entry("Ember Tithe", 2, 1), Entry("Ember Tithe ", 2, 3)])
    assert resolve(deck, POOL).main == [Entry("Ember Tithe", 4, 1)]


def test_unknown_names_get_pool_suggestions_in_input_order():
    parsed = parse("4 Embr Tithe\n2 Ember Tithe\nSB: 1 Quiet Ledgr\n3 Zzqx Wvvk\n1 Tithe Ember\n")
    result = resolve(parsed, POOL)
    assert pairs(result.main) == [("Ember Tithe", 2)]
    assert [(u.name, u.line, u.zone) for u in result.unknown] == [
        ("Embr Tithe", 1, "main"),
        ("Quiet Ledgr", 3, "sideboard"),
        ("Zzqx Wvvk", 4, "main"),
        ("Tithe Ember", 5, "main"),
    ]
    embr, ledgr, junk, swapped = (u.suggestions for u in result.unknown)
    assert embr[0] == "Ember Tithe" and len(embr) <= 3 and set(embr) <= set(POOL)
    assert ledgr == ("Quiet Ledger",)
    assert junk == ()
    assert swapped[0] == "Ember Tithe"  # words swapped
    assert not result.ok


def test_suggestions_short_names_and_stray_trailing_numbers():
    index = PoolIndex(POOL)
    assert index.suggest("Asj")[0] == "Ash"
    assert index.suggest("Glass Harbor 4")[0] == "Glass Harbor"  # a count without its x
    assert index.suggest("") == ()
    assert index.suggest("Embr Tithe", limit=1) == ("Ember Tithe",)


def test_pool_index_is_reusable_and_resolve_can_skip_suggestions():
    index = PoolIndex([*POOL, " ember tithe ", ""])
    assert len(index) == len(POOL) and index.collisions == [("Ember Tithe", "ember tithe")]
    assert "EMBER TITHE" in index and index.canonical("saint's oath") == "Saint's Oath"
    first = resolve(parse("4 Embr Tithe"), index)
    quick = index.resolve(parse("4 Embr Tithe"), suggest=False)
    assert first.unknown[0].suggestions and quick.unknown[0].suggestions == ()
    assert resolve(parse("4 Ember Tithe"), index).main == [Entry("Ember Tithe", 4, 1)]


def test_parse_problems_carry_into_the_resolution():
    result = resolve(parse("0 Ember Tithe\n4 Ash"), POOL)
    assert [p.line for p in result.problems] == [1] and not result.ok


# --------------------------------------------------------------------------- render, payloads


def test_render_is_canonical_text():
    text = render(
        [Entry("Ember Tithe", 4), Entry("Ash", 1)], [{"name": "Quiet Ledger", "count": 2}]
    )
    assert text == "4 Ember Tithe\n1 Ash\n\nSideboard\n2 Quiet Ledger\n"
    assert render([], []) == ""
    assert render([], [Entry("Ash", 1)]) == "Sideboard\n1 Ash\n"


def test_render_reads_back_awkward_names_and_big_counts():
    main = [Entry("x Marks", 2), Entry("1000 Cuts", 1), Entry("Sideboard", 1), Entry("Agent 47", 3)]
    side = [Entry("Ash", 150), Entry("# not a comment", 1), Entry('"Quoted"', 1)]
    parsed = parse(render(main, side))
    assert parsed.problems == []
    assert pairs(parsed.main) == pairs(main) and pairs(parsed.sideboard) == pairs(side)


def test_payload_helpers():
    parsed = parse("4 Ember Tithe\nSideboard\n2 Ash")
    assert to_payload(parsed.main) == [{"name": "Ember Tithe", "count": 4}]
    assert deck_payload(parsed) == {
        "main": [{"name": "Ember Tithe", "count": 4}],
        "sideboard": [{"name": "Ash", "count": 2}],
    }
    stored = [{"name": "Ash", "count": 2}, {"name": "Bad"}, "junk", {"name": "X", "count": "3"}]
    assert from_payload(stored) == [Entry("Ash", 2), Entry("X", 3)]
    assert deck_payload({"main": stored}) == {
        "main": [{"name": "Ash", "count": 2}, {"name": "X", "count": 3}],
        "sideboard": [],
    }


# --------------------------------------------------------------------------- difference


def test_difference_lists_only_changes_sorted_by_zone_then_name():
    registered = parse(
        "4 Ember Tithe\n4 Quiet Ledger\n2 Ash\nSideboard\n2 Glass Harbor\n1 Agent 47"
    )
    presented = {
        "main": [
            {"name": "Quiet Ledger", "count": 4},
            {"name": "ember tithe", "count": 3},
            {"name": "Saint's Oath", "count": 1},
            {"name": "Ash", "count": 2},
        ],
        "sideboard": [{"name": "Glass Harbor", "count": 2}, {"name": "Ember Tithe", "count": 1}],
    }
    assert difference(registered, presented) == [
        {"zone": "main", "name": "Ember Tithe", "registered": 4, "presented": 3, "delta": -1},
        {"zone": "main", "name": "Saint's Oath", "registered": 0, "presented": 1, "delta": 1},
        {"zone": "sideboard", "name": "Agent 47", "registered": 1, "presented": 0, "delta": -1},
        {"zone": "sideboard", "name": "Ember Tithe", "registered": 0, "presented": 1, "delta": 1},
    ]
    assert difference(registered, registered) == []


# --------------------------------------------------------------------------- properties

NAMES = st.text(min_size=1, max_size=30).map(decklist.clean_name).filter(bool)
ZONE = st.lists(
    st.tuples(NAMES, st.integers(1, 250)), max_size=12, unique_by=lambda p: card_key(p[0])
)


DECKISH = '0123456789xX\u00d7 ,\t"\n\r#/:()[]SBsbMainDeck\u2019-'
DECKISH_TEXT = st.text(alphabet=DECKISH, max_size=200)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=400), DECKISH_TEXT))
def test_arbitrary_text_never_raises_and_renders_back_to_the_same_entries(text):
    parsed = parse(text)
    again = parse(render(parsed.main, parsed.sideboard))
    assert again.problems == []
    assert pairs(again.main) == pairs(parsed.main)
    assert pairs(again.sideboard) == pairs(parsed.sideboard)


LINES = st.lists(
    st.one_of(
        st.sampled_from(["Sideboard", "SB:", "Main", "", "# c", "count,name", "0 A", "4x"]),
        st.builds(
            lambda n, c, f: f.format(n=n, c=c),
            NAMES,
            st.integers(0, 120),
            st.sampled_from(
                [
                    "{c} {n}",
                    "{c}x {n}",
                    "{n} x{c}",
                    "{c}\t{n}",
                    "{n}\t{c}",
                    '{c},"{n}"',
                    "SB: {c} {n}",
                    "{n}",
                ]
            ),
        ),
    ),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(LINES)
def test_decklist_shaped_text_never_raises_and_round_trips(lines):
    parsed = parse("\n".join(lines))
    assert all(1 <= p.line <= len(lines) for p in parsed.problems)
    again = parse(render(parsed.main, parsed.sideboard))
    assert (pairs(again.main), pairs(again.sideboard)) == (
        pairs(parsed.main),
        pairs(parsed.sideboard),
    )


@settings(max_examples=150, deadline=None)
@given(ZONE, ZONE)
def test_rendered_entries_parse_back_to_themselves(main, side):
    parsed = parse(render([Entry(n, c) for n, c in main], [Entry(n, c) for n, c in side]))
    assert parsed.problems == []
    assert pairs(parsed.main) == main and pairs(parsed.sideboard) == side


@settings(max_examples=75, deadline=None)
@given(ZONE, ZONE)
def test_difference_of_a_deck_with_itself_is_empty(main, side):
    deck = {"main": [{"name": n, "count": c} for n, c in main], "sideboard": []}
    assert difference(deck, deck) == []
    other = {"main": deck["main"], "sideboard": [{"name": n, "count": c} for n, c in side]}
    assert sum(r["presented"] for r in difference(deck, other)) == sum(c for _, c in side)


def test_problem_and_entry_are_plain_data():
    assert Problem(1, "x", "m") == Problem(1, "x", "m")
    assert Entry("A", 1, 2) == Entry("A", 1, 2)


def test_module_is_pure():
    """No Django: forms, commands and benchmarks import it without settings."""
    tree = ast.parse(pathlib.Path(decklist.__file__).read_text())
    imported = {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    } | {
        a.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for a in node.names
    }
    assert not imported & {"django", "rest_framework", "celery", "decks", "tournaments"}
