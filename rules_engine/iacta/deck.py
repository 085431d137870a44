"""Deck construction: the starting Deck and Sideboard (200s) and swaps between games (902).

Rules: 201.1 (40-60 cards, four of a card unless its text says otherwise),
201.2 (art and foil variants are the same card), 202.1 (one Major Syndicate),
202.2 (Neutral cards free), 202.3 (Splash Cards: one per five cards, one
syndicate, Major or Minor), 902.1-902.5 (Sideboard), quick-start "Building a Deck".

A card with no card data (not in ``cards``) is reported under 101.4: a card's
classification is whatever its official listing says, and without one the
engine cannot tell its syndicate or tier, so the Deck cannot be shown legal.
Names match ignoring case and surrounding spaces (card-pools.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules_engine.errors import PayloadError
from rules_engine.iacta.common import (
    MAX_LIST,
    QS_BUILDING,
    array,
    boolean,
    enum,
    integer,
    join_words,
    obj,
    plural,
    string,
)
from rules_engine.iacta.data import DATA, GameData
from rules_engine.registry import question
from rules_engine.ruling import ruling, violation

TIERS: tuple[str, ...] = ("major", "minor", "neutral")


def card_key(name: str) -> str:
    """How decklist names are matched: case and surrounding spaces ignored."""
    return name.strip().casefold()


class _Tally:
    """Copies per card (keyed by ``card_key``), the first spelling seen, and the total."""

    __slots__ = ("counts", "merged", "names", "total")

    def __init__(self, entries: Sequence[Mapping[str, Any]] = ()) -> None:
        self.counts: dict[str, int] = {}
        self.names: dict[str, str] = {}
        self.merged = False
        self.total = 0
        for entry in entries:
            key = card_key(entry["name"])
            count = entry["count"]
            if key in self.counts:
                self.counts[key] += count
                self.merged = True  # two lines of one card, e.g. two arts (201.2)
            else:
                self.counts[key] = count
                self.names[key] = entry["name"].strip()
            self.total += count

    def plus(self, other: _Tally) -> _Tally:
        """Both tallies together: a Deck and Sideboard as one pool of cards."""
        both = _Tally()
        both.names = {**other.names, **self.names}
        both.counts = dict(self.counts)
        for key, count in other.counts.items():
            both.counts[key] = both.counts.get(key, 0) + count
        both.total = self.total + other.total
        return both


class _CardData:
    """The ``cards`` mapping: lookups by decklist name, and which syndicates are Major/Minor.

    Exact names are looked up first; a case- and space-folded index is built only
    when a name misses, so the usual (web-filled) payload pays for no folding.
    """

    __slots__ = ("_folded", "cards", "majors", "minors")

    def __init__(self, cards: Mapping[str, Mapping[str, Any]] | None) -> None:
        self.cards = cards or {}
        self._folded: dict[str, Mapping[str, Any]] | None = None
        problems = []
        majors: set[str] = set()
        minors: set[str] = set()
        for name, info in self.cards.items():
            tier = info["tier"]
            if tier == "neutral":
                continue
            syndicate = (info.get("syndicate") or "").strip().upper()
            if not syndicate:
                problems.append(
                    {
                        "field": f"cards.{name}.syndicate",
                        "message": f"A {tier} card needs its syndicate.",
                    }
                )
            elif tier == "major":
                majors.add(syndicate)
            else:
                minors.add(syndicate)
        if problems:
            raise PayloadError(problems)
        self.majors = majors
        self.minors = minors - majors

    def get(self, name: str) -> Mapping[str, Any] | None:
        info = self.cards.get(name)
        if info is None:
            if self._folded is None:
                self._folded = {card_key(k): v for k, v in self.cards.items()}
            info = self._folded.get(card_key(name))
        return info


def _syndicate(info: Mapping[str, Any]) -> str | None:
    if info["tier"] == "neutral":
        return None
    return info["syndicate"].strip().upper()


def _breakdown(counts: Mapping[str, int]) -> str:
    return join_words([f"{syn} {n}" for syn, n in counts.items()])


def deck_findings(
    main: Sequence[Mapping[str, Any]],
    sideboard: Sequence[Mapping[str, Any]],
    cards: Mapping[str, Mapping[str, Any]] | None = None,
    main_syndicate: str | None = None,
    *,
    data: GameData = DATA,
) -> dict[str, Any]:
    """Every violation of Section 200 and 902.1 with the facts behind them (no ruling text)."""
    known = _CardData(cards)
    deck, side = _Tally(main), _Tally(sideboard)
    infos: dict[str, Mapping[str, Any] | None] = {}
    violations: list[dict[str, str]] = []
    citations = ["201.1", "202.1", "202.2", "202.3", QS_BUILDING]
    if deck.merged or side.merged:
        citations.append("201.2")
    if sideboard:
        citations.append("902.1")

    # 201.1: deck size.
    if not data.deck_min <= deck.total <= data.deck_max:
        violations.append(
            violation(
                "201.1",
                f"The Deck has {plural(deck.total, 'card')}; it must have {data.deck_min} to "
                f"{data.deck_max}.",
            )
        )

    # 201.1 with 902.1: copies, the Sideboard counting toward the limit.
    unknown: list[str] = []
    for key in (*deck.counts, *(k for k in side.counts if k not in deck.counts)):
        in_deck, in_side = deck.counts.get(key, 0), side.counts.get(key, 0)
        name = deck.names[key] if key in deck.names else side.names[key]  # "" is a name too
        info = infos[key] = known.get(name)
        if info is None:
            unknown.append(name)
        limit = info.get("max_copies", data.max_copies) if info else data.max_copies
        if in_deck + in_side > limit:
            where = f" ({in_deck} in the Deck, {in_side} in the Sideboard)" if in_side else ""
            rule_note = "; Sideboard cards count toward it (902.1)" if in_side else ""
            violations.append(
                violation(
                    "201.1",
                    f"{plural(in_deck + in_side, 'copy', 'copies')} of {name}{where}; "
                    f"at most {limit}{rule_note}.",
                )
            )

    # 101.4: no card data, no classification.
    if unknown:
        citations.append("101.4")
        violations.extend(
            violation(
                "101.4",
                f"No card data for {name!r}: it is not a known Iacta card, so its syndicate "
                "and tier cannot be checked.",
            )
            for name in unknown
        )

    # 202.1: the Main Syndicate.
    per_syndicate: dict[str, int] = {}
    for key, count in deck.counts.items():
        info = infos[key]
        syndicate = _syndicate(info) if info else None
        if syndicate:
            per_syndicate[syndicate] = per_syndicate.get(syndicate, 0) + count
    majors, minors = known.majors, known.minors
    main_syn: str | None = None
    tied: list[str] = []
    if main_syndicate:
        main_syn = main_syndicate.strip().upper()
        if main_syn in minors:
            violations.append(
                violation(
                    "202.1",
                    f"{main_syn} is a Minor Syndicate; the Main Syndicate must be a Major one.",
                )
            )
    else:
        major_counts = {s: n for s, n in per_syndicate.items() if s in majors}
        if not major_counts:
            violations.append(
                violation(
                    "202.1",
                    "No Main Syndicate: the Deck has no Major Syndicate card and none is "
                    "designated; designate one Major Syndicate.",
                )
            )
        else:
            most = max(major_counts.values())
            tied = sorted(s for s, n in major_counts.items() if n == most)
            if len(tied) == 1:
                main_syn, tied = tied[0], []
            else:
                violations.append(
                    violation(
                        "202.1",
                        f"{join_words(tied)} tie for the most Deck cards ({most} each); "
                        "designate one as the Main Syndicate.",
                    )
                )

    # 202.3: Splash Cards, one syndicate, one per five cards in the Deck.
    splash = {s: n for s, n in per_syndicate.items() if s != main_syn}
    splash_limit = deck.total // data.cards_per_splash
    splash_cards = sum(splash.values())
    if tied:
        if len(per_syndicate) > 2:
            violations.append(
                violation(
                    "202.3",
                    f"The Deck has cards of {len(per_syndicate)} syndicates "
                    f"({_breakdown(per_syndicate)}); only a Main and one Splash Syndicate "
                    "are allowed.",
                )
            )
        splash_cards = 0
    else:
        if len(splash) > 1:
            violations.append(
                violation(
                    "202.3",
                    f"Splash Cards come from {len(splash)} syndicates ({_breakdown(splash)}); "
                    "they must all belong to one.",
                )
            )
        if splash_cards > splash_limit:
            violations.append(
                violation(
                    "202.3",
                    f"{plural(splash_cards, 'Splash Card')} ({_breakdown(splash)}) but a "
                    f"{deck.total}-card Deck allows {splash_limit} (one per "
                    f"{data.cards_per_splash} cards).",
                )
            )

    # 902.1: Sideboard size.
    if side.total > data.sideboard_max:
        violations.append(
            violation(
                "902.1",
                f"The Sideboard has {side.total} cards; at most {data.sideboard_max}.",
            )
        )

    return {
        "violations": violations,
        "citations": citations,
        "main_syndicate": main_syn,
        "splash_syndicate": next(iter(splash)) if len(splash) == 1 and not tied else None,
        "deck_size": deck.total,
        "sideboard_size": side.total,
        "splash_cards": splash_cards,
        "splash_limit": splash_limit,
        "unknown_cards": unknown,
    }


def summarise(subject: str, violations: Sequence[Mapping[str, str]]) -> str:
    """One or two sentences naming the violated rules and reading out the first violation."""
    first = violations[0]
    if len(violations) == 1:
        return f"{subject} is not legal ({first['rule']}). {first['message']}"
    rule_list = ", ".join(dict.fromkeys(v["rule"] for v in violations))
    return (
        f"{subject} is not legal, {len(violations)} violations ({rule_list}). "
        f"First: {first['message']}"
    )


def deck_legality(
    main: Sequence[Mapping[str, Any]],
    sideboard: Sequence[Mapping[str, Any]],
    cards: Mapping[str, Mapping[str, Any]] | None = None,
    main_syndicate: str | None = None,
    *,
    data: GameData = DATA,
) -> dict[str, Any]:
    """The ruling on a Deck and Sideboard: legal, and every violation with its rule."""
    found = deck_findings(main, sideboard, cards, main_syndicate, data=data)
    violations = found.pop("violations")
    citations = found.pop("citations")
    citations += [v["rule"] for v in violations]
    if violations:
        text = summarise("The Deck", violations)
    else:
        splash = (
            f"{found['splash_cards']} Splash Cards from {found['splash_syndicate']} "
            f"(at most {found['splash_limit']})"
            if found["splash_syndicate"]
            else "no Splash Cards"
        )
        text = (
            f"The {found['deck_size']}-card Deck is legal: Main Syndicate "
            f"{found['main_syndicate']}, {splash}, no card over its copy limit"
            + (f", Sideboard {plural(found['sideboard_size'], 'card')}." if sideboard else ".")
        )
    return ruling(text, citations, legal=not violations, violations=violations, **found)


def _difference(a: _Tally, b: _Tally) -> list[dict[str, Any]]:
    """Cards (with counts) in ``a`` beyond those in ``b``."""
    return [
        {"name": a.names[key], "count": count - b.counts.get(key, 0)}
        for key, count in a.counts.items()
        if count > b.counts.get(key, 0)
    ]


def _listed(items: list[dict[str, Any]]) -> str:
    return join_words([f"{plural(i['count'], 'copy', 'copies')} of {i['name']}" for i in items])


def sideboard_swap(
    registered: Mapping[str, Any],
    proposed: Mapping[str, Any],
    previous: Mapping[str, Any],
    new_match: bool,
    cards: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    data: GameData = DATA,
) -> dict[str, Any]:
    """Whether ``proposed`` is a legal configuration for the next game (902.2-902.5).

    Each configuration is ``{"main": [...], "sideboard": [...]}`` with an optional
    ``main_syndicate``; ``previous`` is the last game's (the registered one before game 2).
    """
    reg_main, reg_side = _Tally(registered["main"]), _Tally(registered["sideboard"])
    prev_main = _Tally(previous["main"])
    new_main, new_side = _Tally(proposed["main"]), _Tally(proposed["sideboard"])

    designated = proposed.get("main_syndicate") or registered.get("main_syndicate")
    found = deck_findings(proposed["main"], proposed["sideboard"], cards, designated, data=data)
    violations = [
        violation(v["rule"], f"Proposed Deck: {v['message']}") for v in found["violations"]
    ]
    citations = ["902.2", *found["citations"], *(v["rule"] for v in violations)]

    if new_match:
        citations.append("902.5")
        changes = [
            (label, diff)
            for label, diff in (
                ("Deck adds", _difference(new_main, reg_main)),
                ("Deck lacks", _difference(reg_main, new_main)),
                ("Sideboard adds", _difference(new_side, reg_side)),
                ("Sideboard lacks", _difference(reg_side, new_side)),
            )
            if diff
        ]
        if changes:
            violations.append(
                violation(
                    "902.5",
                    "A new match starts from the registered Deck and Sideboard, but the "
                    "proposed one differs: "
                    + "; ".join(f"the {label} {_listed(diff)}" for label, diff in changes)
                    + ".",
                )
            )
    else:
        citations += ["902.3", "902.4"]
        if new_side.total != reg_side.total:
            violations.append(
                violation(
                    "902.3",
                    f"The Sideboard has {plural(new_side.total, 'card')} but was registered "
                    f"with {reg_side.total}; it must keep the same number between games.",
                )
            )
        new_pool, reg_pool = new_main.plus(new_side), reg_main.plus(reg_side)
        foreign = _difference(new_pool, reg_pool)
        lost = _difference(reg_pool, new_pool)
        if foreign:
            violations.append(
                violation(
                    "902.4",
                    f"{_listed(foreign)} {'is' if len(foreign) == 1 else 'are'} not in the "
                    "registered Deck and Sideboard; only swaps between them are allowed.",
                )
            )
        if lost:
            violations.append(
                violation(
                    "902.4",
                    f"{_listed(lost)} from the registered Deck and Sideboard "
                    f"{'is' if len(lost) == 1 else 'are'} missing.",
                )
            )
        if new_main.total != prev_main.total:
            violations.append(
                violation(
                    "902.4",
                    f"Swaps are one-for-one, but the Deck goes from {prev_main.total} to "
                    f"{new_main.total} cards.",
                )
            )

    swapped_in = _difference(new_main, prev_main)
    swapped_out = _difference(prev_main, new_main)
    moved = sum(i["count"] for i in swapped_in)
    if violations:
        text = summarise("The proposed configuration", violations)
    elif new_match:
        text = "The Deck and Sideboard are in their registered configuration, as a new match needs."
    elif moved:
        text = (
            f"The swap is legal: {_listed(swapped_in)} in for {_listed(swapped_out)}, "
            f"Deck {plural(new_main.total, 'card')}, Sideboard {new_side.total}."
        )
    else:
        text = (
            f"The configuration is legal and unchanged: Deck {plural(new_main.total, 'card')}, "
            f"Sideboard {new_side.total}."
        )
    return ruling(
        text,
        citations,
        legal=not violations,
        violations=violations,
        swapped_in=swapped_in,
        swapped_out=swapped_out,
    )


# --- questions --------------------------------------------------------------------

_ENTRY = obj(
    "Card entry",
    "A card name and how many copies.",
    {
        "name": string("Card name", "The card's name (case and surrounding spaces ignored)."),
        "count": integer("Copies", "How many copies of the card.", 1, 99),
    },
    required=["name", "count"],
)
_MAIN = array("Deck", "The main Deck, one entry per card name.", _ENTRY, MAX_LIST)
_SIDE = array(
    "Sideboard", "The Sideboard, one entry per card name; empty if none (902.1).", _ENTRY, 50
)
_CARD = obj(
    "Card data",
    "A card's syndicate and tier.",
    {
        "syndicate": {
            "type": ["string", "null"],
            "title": "Syndicate",
            "description": "The syndicate's abbreviation, e.g. EMB; null for a Neutral card.",
            "maxLength": 20,
        },
        "tier": enum("Tier", "major, minor or neutral.", TIERS),
        "max_copies": integer(
            "Copy limit",
            "Optional: the card's own copy limit when its text overrides 201.1.",
            0,
            99,
        ),
    },
    required=["syndicate", "tier"],
)
_CARDS = {
    "type": "object",
    "title": "Card data",
    "description": (
        "Optional: card data by name; without it the server's card database is used. "
        "A card without data is a 101.4 violation."
    ),
    "additionalProperties": _CARD,
    "maxProperties": MAX_LIST + 50,
}
_MAIN_SYNDICATE = string(
    "Main Syndicate",
    "Optional: the designated Major Syndicate; without it, the Major syndicate with the "
    "most Deck cards (202.1).",
    20,
)


@question(
    "iacta",
    "deck-legality",
    title="Is this Deck (and Sideboard) legal?",
    summary=(
        "40-60 cards, four of a card counting the Sideboard, one Main (Major) Syndicate, "
        "Splash Cards of one syndicate at one per five cards, Sideboard up to 10 "
        "(200s, 902.1). Every violation is listed."
    ),
    schema=obj(
        "Deck legality",
        "The Deck, the Sideboard (empty if none), optional designation and card data.",
        {
            "main": _MAIN,
            "sideboard": _SIDE,
            "main_syndicate": _MAIN_SYNDICATE,
            "cards": _CARDS,
        },
        required=["main", "sideboard"],
    ),
    example={
        "main": [
            {"name": "Ember Tithe", "count": 4},
            {"name": "Ash Ledger", "count": 4},
            {"name": "Cinder Oath", "count": 4},
            {"name": "Kiln Warden", "count": 4},
            {"name": "Smoke Signal", "count": 4},
            {"name": "Brand of Iron", "count": 4},
            {"name": "Slag Runner", "count": 4},
            {"name": "Hearth Debt", "count": 4},
            {"name": "Quiet Ledger", "count": 4},
            {"name": "Tin Oracle", "count": 4},
            {"name": "Vox Whisper", "count": 4},
            {"name": "Vox Echo", "count": 4},
        ],
        "sideboard": [{"name": "Ember Veil", "count": 2}],
        "main_syndicate": "EMB",
        "cards": {
            "Ember Tithe": {"syndicate": "EMB", "tier": "major"},
            "Ash Ledger": {"syndicate": "EMB", "tier": "major"},
            "Cinder Oath": {"syndicate": "EMB", "tier": "major"},
            "Kiln Warden": {"syndicate": "EMB", "tier": "major"},
            "Smoke Signal": {"syndicate": "EMB", "tier": "major"},
            "Brand of Iron": {"syndicate": "EMB", "tier": "major"},
            "Slag Runner": {"syndicate": "EMB", "tier": "major"},
            "Hearth Debt": {"syndicate": "EMB", "tier": "major"},
            "Quiet Ledger": {"syndicate": None, "tier": "neutral"},
            "Tin Oracle": {"syndicate": None, "tier": "neutral", "max_copies": 4},
            "Vox Whisper": {"syndicate": "VOX", "tier": "minor"},
            "Vox Echo": {"syndicate": "VOX", "tier": "minor"},
            "Ember Veil": {"syndicate": "EMB", "tier": "major"},
        },
    },
)
def _deck_legality(payload: dict[str, Any]) -> dict[str, Any]:
    return deck_legality(
        payload["main"],
        payload["sideboard"],
        payload.get("cards"),
        payload.get("main_syndicate"),
    )


def _configuration(title: str, description: str) -> dict[str, Any]:
    return obj(
        title,
        description,
        {"main": _MAIN, "sideboard": _SIDE, "main_syndicate": _MAIN_SYNDICATE},
        required=["main", "sideboard"],
    )


@question(
    "iacta",
    "sideboard-swap",
    title="Is this between-games configuration legal?",
    summary=(
        "One-for-one swaps between Deck and Sideboard, the Sideboard keeps its size, the "
        "Deck stays legal, and a new match starts from the registered lists (902.2-902.5)."
    ),
    schema=obj(
        "Sideboard swap",
        "The registered, previous and proposed Deck and Sideboard.",
        {
            "registered": _configuration("Registered", "The lists registered for the event."),
            "previous": _configuration(
                "Previous",
                "The configuration of the last game (the registered one before game 2).",
            ),
            "proposed": _configuration("Proposed", "The configuration for the next game."),
            "new_match": boolean("New match", "True before the first game of a new match."),
            "cards": _CARDS,
        },
        required=["registered", "previous", "proposed", "new_match"],
    ),
    example={
        "registered": {
            "main": [
                {"name": "Ember Tithe", "count": 4},
                {"name": "Ash Ledger", "count": 4},
                {"name": "Cinder Oath", "count": 4},
                {"name": "Kiln Warden", "count": 4},
                {"name": "Smoke Signal", "count": 4},
                {"name": "Brand of Iron", "count": 4},
                {"name": "Slag Runner", "count": 4},
                {"name": "Hearth Debt", "count": 4},
                {"name": "Quiet Ledger", "count": 4},
                {"name": "Vox Whisper", "count": 4},
            ],
            "sideboard": [{"name": "Tin Oracle", "count": 2}],
        },
        "previous": {
            "main": [
                {"name": "Ember Tithe", "count": 4},
                {"name": "Ash Ledger", "count": 4},
                {"name": "Cinder Oath", "count": 4},
                {"name": "Kiln Warden", "count": 4},
                {"name": "Smoke Signal", "count": 4},
                {"name": "Brand of Iron", "count": 4},
                {"name": "Slag Runner", "count": 4},
                {"name": "Hearth Debt", "count": 4},
                {"name": "Quiet Ledger", "count": 4},
                {"name": "Vox Whisper", "count": 4},
            ],
            "sideboard": [{"name": "Tin Oracle", "count": 2}],
        },
        "proposed": {
            "main": [
                {"name": "Ember Tithe", "count": 4},
                {"name": "Ash Ledger", "count": 4},
                {"name": "Cinder Oath", "count": 4},
                {"name": "Kiln Warden", "count": 4},
                {"name": "Smoke Signal", "count": 4},
                {"name": "Brand of Iron", "count": 4},
                {"name": "Slag Runner", "count": 4},
                {"name": "Hearth Debt", "count": 4},
                {"name": "Quiet Ledger", "count": 2},
                {"name": "Tin Oracle", "count": 2},
                {"name": "Vox Whisper", "count": 4},
            ],
            "sideboard": [{"name": "Quiet Ledger", "count": 2}],
        },
        "new_match": False,
        "cards": {
            "Ember Tithe": {"syndicate": "EMB", "tier": "major"},
            "Ash Ledger": {"syndicate": "EMB", "tier": "major"},
            "Cinder Oath": {"syndicate": "EMB", "tier": "major"},
            "Kiln Warden": {"syndicate": "EMB", "tier": "major"},
            "Smoke Signal": {"syndicate": "EMB", "tier": "major"},
            "Brand of Iron": {"syndicate": "EMB", "tier": "major"},
            "Slag Runner": {"syndicate": "EMB", "tier": "major"},
            "Hearth Debt": {"syndicate": "EMB", "tier": "major"},
            "Quiet Ledger": {"syndicate": None, "tier": "neutral"},
            "Tin Oracle": {"syndicate": None, "tier": "neutral"},
            "Vox Whisper": {"syndicate": "VOX", "tier": "minor"},
        },
    },
)
def _sideboard_swap(payload: dict[str, Any]) -> dict[str, Any]:
    return sideboard_swap(
        payload["registered"],
        payload["proposed"],
        payload["previous"],
        payload["new_match"],
        payload.get("cards"),
    )
