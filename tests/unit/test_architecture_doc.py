"""docs/architecture.md is the map a newcomer reads first: it must name files that exist
and every signal tournaments announces."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
SIGNALS = (ROOT / "tournaments" / "signals.py").read_text(encoding="utf-8")


def test_every_file_the_map_names_exists():
    named = set(re.findall(r"`((?:[\w.]+/)+[\w.]+\.(?:py|html|js|md))`", DOC))
    assert named, "the map names no file"
    missing = sorted(path for path in named if not (ROOT / path).exists())
    assert missing == []


def test_the_map_lists_every_domain_signal():
    declared = set(re.findall(r"^(\w+) = Signal\(\)", SIGNALS, re.M))
    assert declared
    missing = sorted(name for name in declared if f"`{name}`" not in DOC)
    assert missing == []


def test_the_layers_the_map_gives_are_the_ones_the_test_enforces():
    from tests.unit.test_layering import TOURNAMENT_LAYERS

    section = DOC.split("## Layers", 1)[1].split("##", 1)[0]
    listed = re.findall(r"^\d+\. (`.+`)$", section, re.M)
    assert [re.findall(r"`(\w+)`", line) for line in listed][-len(TOURNAMENT_LAYERS) :] == [
        list(layer) for layer in TOURNAMENT_LAYERS
    ]
