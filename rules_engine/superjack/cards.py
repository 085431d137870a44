"""Playing-card codes as Superjack writes them: rank then suit, e.g. ``"4D"``, ``"10C"``.

Suits are the only thing colour comes from, and colour (not suit) is what most
rules care about; Royal Sacrifice is the one rule that looks at suits (§6.5).
"""

from __future__ import annotations

RED = "red"
BLACK = "black"
COLORS = (RED, BLACK)
SUITS = ("H", "D", "S", "C")
SUIT_COLOR = {"H": RED, "D": RED, "S": BLACK, "C": BLACK}

GEM_RANKS = ("2", "3", "4", "5", "6", "7")
CREATURE_RANKS = ("J", "Q", "K", "A")
CREATURE_NAMES = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}

#: The 40 cards of a Superjack deck (§1: a standard deck without 8s, 9s and 10s).
DECK = tuple(rank + suit for rank in GEM_RANKS + CREATURE_RANKS for suit in SUITS)

#: Any standard playing card; 8, 9 and 10 are cards, just not Superjack ones.
CARD_PATTERN = "^(10|[2-9JQKA])[HDSC]$"
GEM_PATTERN = "^[2-7][HDSC]$"
CREATURE_PATTERN = "^[JQKA][HDSC]$"


def a_creature(name: str, *, starts_sentence: bool = False) -> str:
    """The creature's name with its article: a Jack, an Ace."""
    article = "an" if name[0] in "AEIOU" else "a"
    return f"{article.capitalize() if starts_sentence else article} {name}"


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def color(card: str) -> str:
    return SUIT_COLOR[card[-1]]


def gem_value(card: str) -> int:
    """A gem's rank as a number, for consecutiveness (gems are 2-7 only)."""
    return int(card[:-1])
