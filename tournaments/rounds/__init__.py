"""The round lifecycle (pair, re-pair, swap, start, close, top cut) and what it says:
the engine's notes in people's words, the pairings by name, the decklist gate at round 1,
and a player's seat as their phone shows it.
"""
