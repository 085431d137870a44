"""Citation strings for Dataclysm rulings and the rule sentences each one stands for.

The Dataclysm rules text has one heading ("Rules") and otherwise unnumbered rule
sentences; its cross-references ("rule 6.04", "Rule 3.01.8") point to numbers
the text no longer carries. So a citation is ``"Dataclysm: <topic>"``, where the
topic names a group of consecutive sentences about one rule, and
:data:`SENTENCES` maps every citation to those sentences, verbatim, so the web
layer can link (or quote) them. Every ruling uses these constants, and the
tests check each sentence against ``dataclysm-rules.txt``.
"""

from __future__ import annotations

DECK_SIZE = "Dataclysm: Deck size"
SAME_NAME = "Dataclysm: Cards with the same name"
GPU = "Dataclysm: Great Power Units"
FIRST_TURN = "Dataclysm: First turn"
ATTACK_STEP = "Dataclysm: Attack step"
ATTACK_TARGETS = "Dataclysm: Attack targets"
ATTACK_DAMAGE = "Dataclysm: Attack damage"
TROOP_DAMAGE = "Dataclysm: Troop damage"
ZERO_DAMAGE = "Dataclysm: Zero and negative damage"
ENTERING_ATTACK_STEP = "Dataclysm: Troops entering during the Attack step"
STARTUP_LAG = "Dataclysm: Startup Lag"
CURSE = "Dataclysm: Curse"
TROOP_LIMIT = "Dataclysm: Troop play limit"
TROOP_KINDS = "Dataclysm: Base, Update and Ritual troops"
CHEAT = "Dataclysm: Cheat cards"
METHOD = "Dataclysm: Method cards"
SETTINGS = "Dataclysm: Settings cards"
WINNING = "Dataclysm: Winning"
WIN_AND_LOSE = "Dataclysm: Winning and losing at once"
CONCEDING = "Dataclysm: Conceding"
BOTH_LOSE = "Dataclysm: Both players lose"
SELECTION_ORDER = "Dataclysm: Selection Order"
SIMULTANEOUS_TRIGGERS = "Dataclysm: Simultaneous triggers"

SENTENCES: dict[str, tuple[str, ...]] = {
    DECK_SIZE: ("A deck must have a minimum of 30 cards and a maximum of 50.",),
    SAME_NAME: (
        "A deck can have up to 3 cards with the same name.",
        "Two cards have the same name if their names coincide in the same language and "
        "version of the game.",
        "Cards with the same name are considered to be the same card.",
    ),
    GPU: (
        "Cards with the [GPU] keyword before their effect are called Great Power Units.",
        "A player can only have up to one [GPU] card in their deck.",
    ),
    FIRST_TURN: (
        "The player who plays first in the game, skips the attack step during their first turn.",
    ),
    ATTACK_STEP: (
        "During the Attack step, the player's troops all attempt to attack the enemy troops "
        "or the other player, if possible.",
        "Starting from left to right every troop on the player's field will attempt to attack "
        "the slots in front of them, or that player's opponent.",
    ),
    ATTACK_TARGETS: (
        "When a troop attacks, it attempts to attack the troop in the slot in front of it in "
        "the enemy frontrow.",
        "If that slot is empty, or the troop inside it cannot be hit by the attacker, that card "
        "will attempt to attack the slot in front of it in the enemy backrow.",
        "If that slot is also empty, or the troop inside it cannot be hit by the attacker, that "
        "card will attack the opponent directly.",
    ),
    ATTACK_DAMAGE: (
        "If a troop successfully hits an enemy troop, it deals damage to that troop's HP equal "
        "to the attacking troop's ATK.",
        "If a troop successfully hits the opponent directly, they will take damage equal to "
        "that troop's ATK.",
    ),
    TROOP_DAMAGE: (
        "If damage is dealt to a troop, it permanently reduces its HP by subtracting the total "
        "of damage dealt from the troop's HP. If a troop's HP becomes 0 or lower, that troop is "
        "sent to the discard pile.",
    ),
    ZERO_DAMAGE: (
        "If a card would deal 0 damage, it deals no damage at all (effects that require a card "
        "to take or deal damage won't activate).",
        "If a card would deal negative damage, it deals 0 damage instead.",
    ),
    ENTERING_ATTACK_STEP: (
        "If a troop enters the field during the Attack step, it will not attack during this turn.",
    ),
    STARTUP_LAG: ("When a troop is played, it has the Startup Lag condition.",),
    CURSE: (
        "Each player has a Curse value, which starts at 0 at the beginning of the game.",
        "At the beginning of a player's turn, before the Draw Step, that player takes damage "
        "equal to their Curse.",
        "After taking this damage, that player's Curse is reduced by 5.",
        "A player's Curse cannot go below 0.",
    ),
    TROOP_LIMIT: (
        "During their turn, a player may play up to two Base troops and up to one Update troop "
        "(see Rule 3.01.8).",
    ),
    TROOP_KINDS: (
        "A troop is classified as an Update troop if the keyword Update() is listed before its "
        "effects.",
        "A troop is classified as a Ritual troop if the keyword Ritual() is listed before its "
        "effects.",
        "If a troop is neither an Update troop nor a Ritual troop, it is classified as a Base "
        "troop.",
    ),
    CHEAT: (
        "A player may play up to one Cheat card from their hand during their turn.",
        "A Cheat card always requires a target card to resolve, listed within the Target() "
        "ability. If there's no eligible target, then that Cheat cannot be played.",
    ),
    METHOD: ("A player may play up to one Method card from their hand during their turn.",),
    SETTINGS: (
        "A player may play as many Settings cards from their hand as they can during their turn.",
    ),
    WINNING: (
        "A game ends immediately whenever one of the two players wins, or if the game is a draw.",
        "A player wins the game if their opponent loses the game or if an effect explicitly "
        "states so.",
    ),
    WIN_AND_LOSE: ("If a player would win and lose the game simultaneously, they lose the game.",),
    CONCEDING: ("A player may concede the game at any time. If they do so, they lose the game.",),
    BOTH_LOSE: ("If both players lose simultaneously, the game is a draw.",),
    SELECTION_ORDER: (
        "The Selection Order is a standard practice used in Dataclysm to determine the order in "
        "which two or more cards on the field are selected, whenever the resolution of an "
        "effect requires it.",
        "1. Active player's frontrow, left to right;",
        "2. Active player's backrow, left to right;",
        "3. Opponent's frontrow, left to right;",
        "4. Opponent's backrow, left to right.",
    ),
    SIMULTANEOUS_TRIGGERS: (
        "Whenever an action causes two or more effects to trigger simultaneously, they are "
        "placed in the Queue according to the Selection Order.",
    ),
}
