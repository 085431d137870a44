"""Citation strings for Superjack rulings, one constant per heading of the rules text.

Scheme (the web layer links these to the rules reference, so every ruling uses
these constants rather than spelling a citation itself):

* a numbered section cites itself by number and title: ``"§6.4 Royal Charge"``;
* a heading inside a numbered section cites the enclosing section's number and
  that heading: ``"§3.2 Jack Special Rules"``, ``"§2 Deck Composition"``;
  a step number in the heading is dropped (``"4. Damage Resolution"`` in §4.2
  is ``"§4.2 Damage Resolution"``);
* a heading inside an appendix cites the appendix letter and that heading:
  ``"Appendix A: Stacking and Marked Damage"``, ``"Appendix C: Version 2.3"``;
* a trailing parenthetical of a heading is dropped (``"3.2 Creatures (J, Q, K, A)"``
  is ``"§3.2 Creatures"``, ``"Paid-Pair Bonus (v2.2)"`` is ``"§6.3 Paid-Pair Bonus"``).

The tests check every constant against the headings of ``superjack-rules.txt``.
"""

from __future__ import annotations

WHAT_YOU_NEED = "§1 What You Need to Play"
DECK_COMPOSITION = "§2 Deck Composition"
STARTING_THE_GAME = "§2 Starting the Game"
GEM_COLORS = "§3.1 Colors"
COLOR_REQUIREMENT = "§3.2 Color Requirement"
UNTRAINED_RULE = "§3.2 Untrained Rule"
JACK_SPECIAL_RULES = "§3.2 Jack Special Rules"
ACE_MODES = "§3.2 Three Modes"
DAMAGE_RESOLUTION = "§4.2 Damage Resolution"
PLAYING_CREATURES = "§5.2 Playing Creatures"
ENERGY_POOL = "§5.3 The Energy Pool"
BLOCKED_ATTACKERS = "§5.5 Blocked Attackers"
TRAMPLE_MATH = "§5.5 Trample Math"
LEAVING_COMBAT = "§5.5 Leaving Combat"
CREATURE_DEATH = "§5.5 Creature Death"
STRAIGHTS = "§6.2 Straights"
PAIR_DEFINITION = "§6.3 Definition"
PAID_PAIR_BONUS = "§6.3 Paid-Pair Bonus"
EQUIP_SLOTS = "§6.3 Equip Slots"
PAIR_BONUSES = "§6.3 Bonuses"
ROYAL_CHARGE = "§6.4 Royal Charge"
ROYAL_SACRIFICE = "§6.5 Royal Sacrifice"
STACKING_RULES = "§6.6 Stacking Rules"
POWER_PROGRESSION = "§6.6 Power Progression"
OVERENCUMBERED = "§6.6 Overencumbered"
STACKING_DURING_COMBAT = "§6.6 Stacking During Combat"
SUPERJACK = "§6.6 Superjack"
DEATH_OF_STACKED_JACKS = "§6.6 Death of Stacked Jacks"
VICTORY_CONDITION = "§8 Victory Condition"
MATCH_PLAY = "§8 Match Play"

A_SUIT_REQUIREMENT = "Appendix A: Royal Sacrifice - Suit Requirement"
A_UNTRAINED_ROYALS = "Appendix A: Royal Sacrifice - Untrained Royals"
A_STACKING_COLOR = "Appendix A: Jack Stacking - Color"
A_STACKED_EQUIP_SLOTS = "Appendix A: Stacked Jack Equip Slots"
A_EQUIPMENT_DIES = "Appendix A: Equipment When Creature Dies"
A_EQUIPMENT_STOLEN = "Appendix A: Equipment When a Creature Is Stolen"
A_GRAVEDIGGER_STACKED = "Appendix A: Gravedigger and Stacked Jacks"
A_SACRIFICE_STACKED = "Appendix A: Royal Sacrifice and Stacked Jacks"
A_BLOCKERS_DESTROYED = "Appendix A: Blockers Destroyed Before Damage"
A_STRAIGHTS_COLOR = "Appendix A: Straights - Color Requirement"
A_STRAIGHT_SACRIFICE = "Appendix A: Gravedigger/Mind Control Gem Sacrifice"
A_OVERENCUMBERED = "Appendix A: Overencumbered Definition"
A_MARKED_DAMAGE = "Appendix A: Stacking and Marked Damage"
A_ROYAL_CHARGE_DURATION = "Appendix A: Royal Charge Duration"
C_VERSION_2_3 = "Appendix C: Version 2.3"
