"""Pure metagame: archetypes of decks, and how each did, with honest uncertainty (issue 36).

Plain data in and out, nothing of Django: ``stats`` (Wilson score intervals),
``archetypes`` (what a deck *is*: Iacta's rule 202, or clusters of shared cards for
games whose rules define no grouping, and the organiser's names, merges and splits),
``report`` (shares, conversion, win rates and the matchup matrix of one event or phase),
``charts`` (bar charts and the matchup heat map as inline SVG, from translated texts).
The site wraps them with persistence, permissions and pages.
"""
