"""The game data for Superjack's missing number tables, and how an organiser overrides it."""

import copy

import pytest

from rules_engine.superjack import data

STATED = {
    "creatures": {
        "J": {"cost": 2, "power": 1, "toughness": 1},
        "Q": {"cost": 4},
        "K": {"cost": 5},
        "A": {"cost": 3, "power": 1, "toughness": 1, "rush": True},
    },
    "jack_stack": {"2": {"power": 2, "toughness": 2}, "3": {"power": 4, "toughness": 4}},
    "pair_bonus": {},
    "gem_sacrifice": {
        "2": {"name": "Fireball"},
        "3": {"name": "Fireball"},
        "4": {"name": "Mine", "energy": 3},
        "5": {"name": "Mine", "energy": 3},
        "6": {"name": "Draw"},
        "7": {"name": "Draw"},
    },
    "straights": {
        "3": {"sacrifice": False},
        "4": {"sacrifice": False},
        "5": {"name": "Gravedigger", "sacrifice": True},
        "6": {"name": "Mind Control", "sacrifice": True},
    },
}


def test_shipped_data_holds_only_what_the_rules_text_states(monkeypatch):
    """§3.2, §5.3, §6.2, §6.4, §7.2, §7.3, Appendix A: nothing invented."""
    monkeypatch.delenv(data.ENV_VAR, raising=False)
    assert data.load_data() == STATED


def test_organiser_file_is_merged_over_the_shipped_tables(tmp_path, monkeypatch):
    tables = tmp_path / "tables.toml"
    tables.write_text("[creatures.K]\npower = 5\ntoughness = 5\n[pair_bonus.2]\npower = 1\n")
    loaded = data.load_data(tables)
    assert loaded["creatures"]["K"] == {"cost": 5, "power": 5, "toughness": 5}
    assert loaded["pair_bonus"] == {"2": {"power": 1}}
    monkeypatch.setenv(data.ENV_VAR, str(tables))
    assert data.load_data() == loaded


def test_override_mapping_wins_over_the_file(tmp_path):
    tables = tmp_path / "tables.toml"
    tables.write_text("[creatures.K]\npower = 5\n")
    loaded = data.load_data(tables, override={"creatures": {"K": {"power": 6}}})
    assert loaded["creatures"]["K"]["power"] == 6


def test_a_bad_organiser_file_fails_naming_the_key(tmp_path):
    tables = tmp_path / "tables.toml"
    tables.write_text('[creatures.Q]\npower = "big"\n')
    with pytest.raises(ValueError, match=r"creatures\.Q\.power"):
        data.load_data(tables)


def test_reassigning_data_changes_the_tables_in_force(monkeypatch):
    from rules_engine import adjudicate

    monkeypatch.setattr(
        data, "DATA", data.load_data(override={"jack_stack": {"4": {"power": 9, "toughness": 9}}})
    )
    payload = {
        "base": {"jacks": 3, "damage": 0, "tapped": False, "fresh": False},
        "adding": [{"damage": 0, "tapped": False, "fresh": False}],
        "added_this_turn": 0,
    }
    result = adjudicate("superjack", "stack-jacks", payload)
    assert (result["power"], result["toughness"]) == (9, 9)


def test_payload_data_applies_to_one_ruling_only():
    from rules_engine import adjudicate

    before = copy.deepcopy(data.DATA)
    payload = {
        "creature": "KH",
        "gems": ["2H", "3H", "4H", "5H", "6H"],
        "pool": [],
        "data": {"creatures": {"K": {"power": 5, "toughness": 5}}},
    }
    assert adjudicate("superjack", "summon", payload)["power"] == 5
    assert before == data.DATA
    del payload["data"]
    assert adjudicate("superjack", "summon", payload)["power"] is None
