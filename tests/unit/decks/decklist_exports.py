"""Decklist exports as players paste them, one of each kind, for the parser's and the deck
page's tests: the same 44-card Ember Compact list with a Salt Cartel splash and a 6-card
sideboard (legal in the demo pool), written the way a site, client or forum writes it."""

from __future__ import annotations

import csv
import pathlib

DEMO = pathlib.Path(__file__).parents[3] / "decks" / "demo" / "iacta-demo-cards.csv"


def demo_names() -> list[str]:
    """The demo Iacta pool's card names, read from the file ``load_demo_pools`` imports."""
    with DEMO.open(encoding="utf-8") as file:
        return [row["name"] for row in csv.DictReader(file)]


MAIN = [
    ("Ember Tithe", 4),
    ("Kindling Offer", 4),
    ("Furnace Oath", 4),
    ("Cinder Runner", 4),
    ("Blazing Ledger", 4),
    ("Backdraft", 4),
    ("Scorch the Table", 4),
    ("Ashen Wager", 4),
    ("Quiet Ledger", 4),
    ("Fresh Dice", 4),
    ("Salt Cartel Broker", 4),
]
SIDEBOARD = [("Table Talk", 2), ("Dealer's Cut", 2), ("House Rules", 2)]

PLAIN = """\
4 Ember Tithe
4 Kindling Offer
4 Furnace Oath
4 Cinder Runner
4 Blazing Ledger
4 Backdraft
4 Scorch the Table
4 Ashen Wager
4 Quiet Ledger
4 Fresh Dice
4 Salt Cartel Broker

Sideboard
2 Table Talk
2 Dealer's Cut
2 House Rules
"""

ARENA_LIKE = """\
Deck
4 Ember Tithe (EMB) 10
4 Kindling Offer (EMB) 11
4 Furnace Oath (EMB) 12
4 Cinder Runner (EMB) 13
4x Blazing Ledger (EMB) 14
4x Backdraft [EMB]
4 Scorch the Table (EMB)
4 Ashen Wager (EMB) 17 *F*
4 Quiet Ledger (NEU) 3
4 Fresh Dice (NEU) 4
4 Salt Cartel Broker (SLT) 1

Sideboard
2 Table Talk (NEU) 8
2 Dealer's Cut (NEU) 11
2 House Rules (NEU) 10
"""

BULLETED = """\
My Ember list for Saturday, feedback welcome:

### Main deck (44)
• 4 ember tithe
• 4x Kindling Offer
- 4 Furnace Oath
* 4 cinder runner
\u2013 4 Blazing Ledger
\u2014 4 x Backdraft
\u25aa x4 Scorch the Table
•4 Ashen Wager
- 4 - Quiet Ledger
- 4 Fresh Dice
- 4 Salt Cartel Broker

**Sideboard (6)**
• 2 Table Talk
• 2 Dealer\u2019s Cut
• 2 House Rules
"""

SB_PREFIXED = """\
// Ember Tithe aggro
// Pat, Regionals
4 Ember Tithe
4 Kindling Offer
4 Furnace Oath
4 Cinder Runner
4 Blazing Ledger
4 Backdraft
4 Scorch the Table
4 [EMB] Ashen Wager
4 Quiet Ledger
4 Fresh Dice
4 Salt Cartel Broker
SB: 2 Table Talk
SB: 2 Dealer's Cut
SB:  2 [NEU] House Rules
"""

HEADED = """\
# Ember Tithe aggro -- Regionals 2026, 5-1

Main
// Ember Compact
4 Ember Tithe
4 Kindling Offer
4 Furnace Oath
4 Cinder Runner

4 Blazing Ledger
4 Backdraft
4 Scorch the Table
4 Ashen Wager

// Neutral
4 Quiet Ledger
4 Fresh Dice
# splash
4 Salt Cartel Broker

Sideboard (6)
# against Tidewardens
2 Table Talk
2 Dealer's Cut

2 House Rules
"""

QUANTITY_AFTER_NAME = """\
Deck:
Ember Tithe x4
Kindling Offer x 4
Furnace Oath 4x
Cinder Runner (x4)
Blazing Ledger 4
Backdraft 4
Scorch the Table (4)
Ashen Wager x4
Quiet Ledger 4
Fresh Dice 4
Salt Cartel Broker 4

Sideboard:
Table Talk 2
Dealer's Cut x2
House Rules 2
"""

EXPORTS = {
    "plain": PLAIN,
    "arena_like": ARENA_LIKE,
    "bulleted": BULLETED,
    "sb_prefixed": SB_PREFIXED,
    "headed": HEADED,
    "quantity_after_name": QUANTITY_AFTER_NAME,
}
