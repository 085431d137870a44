"""Pages and printouts name a font for every script a player's name may be in, with
emoji last, so a browser (or WeasyPrint) that has the fonts never shows a box."""

from __future__ import annotations

from pathlib import Path

import tinycss2

STATIC = Path(__file__).resolve().parents[2] / "static"
# Each script, and the faces (any one of them) that cover it: Debian's Noto and DejaVu
# fonts from deploy/print-packages.txt; pages add what phones and desktops ship.
SCRIPTS = {
    "Latin, Greek, Cyrillic": {"DejaVu Sans", "Noto Sans"},
    "Arabic": {"Noto Sans Arabic"},
    "Hebrew": {"Noto Sans Hebrew"},
    "Thai": {"Noto Sans Thai"},
    "Devanagari": {"Noto Sans Devanagari"},
    "Japanese": {"Noto Sans CJK JP"},
    "Chinese": {"Noto Sans CJK SC"},
    "Korean": {"Noto Sans CJK KR"},
    "emoji": {"Noto Color Emoji"},
}


def declarations(path: Path) -> dict[str, list[list[str]]]:
    """Every declaration's value in a stylesheet as a list of comma-separated parts
    (quotes dropped), by property name, from every rule, @media included."""
    found: dict[str, list[list[str]]] = {}

    def visit(rules) -> None:
        for rule in rules:
            if rule.type == "at-rule" and rule.content is not None:
                visit(tinycss2.parse_rule_list(rule.content, skip_whitespace=True))
            elif rule.type == "qualified-rule":
                for item in tinycss2.parse_blocks_contents(rule.content, skip_whitespace=True):
                    if item.type == "declaration":
                        found.setdefault(item.lower_name, []).append(families(item.value))

    visit(tinycss2.parse_stylesheet(path.read_text(), skip_whitespace=True))
    return found


def families(tokens) -> list[str]:
    """A font-family value's families: "Noto Sans" and Noto Sans alike, var() kept as is."""
    parts, current = [], []
    for token in tokens:
        if token.type == "literal" and token.value == ",":
            parts.append(" ".join(current))
            current = []
        elif token.type == "string":
            current.append(token.value)
        elif token.type in ("ident", "function"):
            current.append(tinycss2.serialize([token]))
    parts.append(" ".join(current))
    return [part for part in parts if part]


def assert_covers_every_script(stack: list[str], emoji: bool = True) -> None:
    for script, faces in SCRIPTS.items():
        if script != "emoji" or emoji:
            assert faces & set(stack), f"no font for {script} in {stack}"
    if emoji:  # the last resort, after every face for letters and digits
        last = stack.index("Noto Color Emoji")
        assert all(font not in SCRIPTS["emoji"] for font in stack[:last])


def test_pages_name_a_font_for_every_script():
    styles = declarations(STATIC / "css" / "arbiter.css")
    (stack,) = styles["--arbiter-font-family"]
    assert_covers_every_script(stack)
    # Pico's own stack (what every page's text uses) is ours.
    assert styles["--pico-font-family-sans-serif"] == [["var(--arbiter-font-family)"]]


def test_the_hall_display_names_a_font_for_every_script():
    """The projector page loads hall.css alone, so it names the whole stack itself."""
    (stack,) = declarations(STATIC / "css" / "hall.css")["font-family"]
    assert_covers_every_script(stack)


def test_printouts_name_a_font_for_every_script_but_leave_emoji_to_fallback():
    """Named in a WeasyPrint stack, the emoji font would also set every digit (Pango treats
    0-9 as emoji): emoji come through fontconfig's fallback (tests/printing/test_fonts.py
    checks that they print)."""
    stacks = declarations(STATIC / "print" / "print.css")["font-family"]
    assert_covers_every_script(stacks[0], emoji=False)  # html's: every unmarked name
    # The faces for names marked lang="ko", "zh", "ar" or "he": their own script first.
    by_lang = [stack for stack in stacks[1:] if stack[0] != "DejaVu Sans Mono"]
    assert len(by_lang) == 4, stacks
    for stack in [stacks[0], *by_lang]:
        assert stack[-1] == "sans-serif" and "Noto Color Emoji" not in stack, stack
