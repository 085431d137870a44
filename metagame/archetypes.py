"""What a deck *is*: its archetype, by the game's own rule where it has one, else by cluster.

Iacta's rules say what a deck is (202): a Major Syndicate and, at most, the one Syndicate
of its Splash Cards, so an Iacta archetype is exactly that pair (:func:`iacta_archetype`).
Superjack's and Dataclysm's rules define no such grouping, so their decks are grouped by
the cards they share (:func:`cluster_decks`) and each group is named by the cards that
set it apart. Either way the organiser has the last word: names, merges and splits are a
plain mapping applied by :func:`apply_overrides`, so the computed archetypes stay as they
were computed and the organiser's choices can be read, changed or dropped on their own.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, TypeVar

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

from rules_engine.iacta.deck import card_key

# --- Iacta: rule 202 -----------------------------------------------------------------

NO_MAJOR = "NO-MAJOR"
"""The key of an Iacta deck with no Major Syndicate: none designated and no single
syndicate with the most major-tier cards (a 202.1 violation the legality check reports)."""


@dataclass(frozen=True)
class Archetype:
    """An Iacta deck's archetype: ``key`` "EMB" or "EMB/VOX", and a readable ``name``."""

    key: str
    major: str | None
    splash: tuple[str, ...] = ()
    name: str = ""


def _folded(cards: Mapping[str, Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    return {card_key(name): info for name, info in cards.items()}


def _syndicate_counts(
    main: Sequence[Mapping[str, Any]], cards: Mapping[str, Mapping[str, Any]]
) -> tuple[dict[str, int], dict[str, int]]:
    """Deck cards per syndicate: (major-tier cards, all non-Neutral cards).

    Neutral cards (202.2) and cards without card data (101.4: unknown syndicate) count
    for neither; a syndicate's name is compared in capitals, as the legality check does.
    """
    known = _folded(cards)
    major: dict[str, int] = {}
    every: dict[str, int] = {}
    for entry in main:
        info = known.get(card_key(entry["name"]))
        if info is None or info["tier"] == "neutral" or not info.get("syndicate"):
            continue
        syndicate = info["syndicate"].strip().upper()
        every[syndicate] = every.get(syndicate, 0) + entry["count"]
        if info["tier"] == "major":
            major[syndicate] = major.get(syndicate, 0) + entry["count"]
    return major, every


def _major_syndicate(declared: str | None, major_counts: Mapping[str, int]) -> str | None:
    """The designated Major Syndicate (202.1), else the one with the most major-tier cards.

    A tie for the most has no answer under 202.1 (the deck must designate one): None.
    """
    if declared and declared.strip():
        return declared.strip().upper()
    if not major_counts:
        return None
    most = max(major_counts.values())
    leaders = [s for s, n in major_counts.items() if n == most]
    return leaders[0] if len(leaders) == 1 else None


def _iacta_name(major: str, splash: tuple[str, ...]) -> str:
    if not splash:
        return major
    return f"{major} splashing {' and '.join(splash)}"


def iacta_archetype(
    main: Sequence[Mapping[str, Any]],
    cards: Mapping[str, Mapping[str, Any]],
    main_syndicate: str | None = None,
) -> Archetype:
    """The archetype of an Iacta Deck, as rule 202 defines what a Deck is.

    The payload is deck-legality's (``rules_engine.iacta.deck``): ``main`` entries
    ``{"name", "count"}``, ``cards`` by name ``{"syndicate", "tier"}``, names matched
    ignoring case and surrounding spaces.

    * Major Syndicate (202.1): the designated ``main_syndicate``; without one, the
      syndicate with the most major-tier cards in the Deck, as the legality check reads
      an undesignated Deck. No major-tier card, or a tie for the most, gives the key
      :data:`NO_MAJOR` (such a Deck is not legal under 202.1 anyway).
    * Splash Syndicate (202.3): the syndicate of every non-Neutral card outside the
      Major Syndicate, Major or Minor. A legal Deck has at most one; an illegal Deck
      with several is keyed by all of them, sorted ("EMB/SHD+VOX"), so it is not
      hidden in a legal archetype.
    * Neutral cards (202.2) and cards without card data (101.4) say nothing of it.

    Key "EMB" (no Splash Cards) or "EMB/VOX"; name "EMB" or "EMB splashing VOX".
    """
    major_counts, every = _syndicate_counts(main, cards)
    major = _major_syndicate(main_syndicate, major_counts)
    if major is None:
        return Archetype(NO_MAJOR, None, (), "No Major Syndicate")
    splash = tuple(sorted(s for s in every if s != major))
    key = f"{major}/{'+'.join(splash)}" if splash else major
    return Archetype(key, major, splash, _iacta_name(major, splash))


# --- Games without a grouping rule: clusters of shared cards ---------------------------

CLUSTER_THRESHOLD = 0.6
"""Where the tree of decks is cut: two groups stay apart when their decks' average
Jaccard distance is 0.6 or more, i.e. when two of their decks share, on average, fewer
than two fifths of the cards either plays. Decks of one archetype with a third of their
cards flexible stay together (distance about 0.35-0.5); decks that share only staples
stay apart (distance 0.8 and more)."""

NAME_CARDS = 2
"""How many of a cluster's most distinctive cards name it."""


@dataclass(frozen=True)
class Cluster:
    """A group of decks: ``key`` (stable for the same decks), ``name``, the ``cards``
    that name it (most distinctive first), and its ``members`` (deck ids, sorted)."""

    key: str
    name: str
    cards: tuple[str, ...]
    members: tuple[str, ...]


def _presence(
    decks: Mapping[str, Mapping[str, int]], ids: Sequence[str]
) -> tuple[np.ndarray, list[str]]:
    """One row per deck, one column per card (sorted names): 1 where the deck plays it."""
    vocabulary = sorted({card for deck in ids for card, n in decks[deck].items() if n > 0})
    column = {card: j for j, card in enumerate(vocabulary)}
    matrix = np.zeros((len(ids), len(vocabulary)), dtype=np.float32)
    for i, deck in enumerate(ids):
        for card, count in decks[deck].items():
            if count > 0:
                matrix[i, column[card]] = 1.0
    return matrix, vocabulary


def jaccard_distances(presence: np.ndarray) -> np.ndarray:
    """The condensed Jaccard distance matrix, 1 - |A and B| / |A or B|, of the rows' sets.

    By one matrix product and in-place float32 arithmetic rather than pair by pair
    (2,000 decks are two million pairs): the counts are exact small integers, and a
    ratio's rounding (below 1e-7) moves no deck across the cut in practice. Two empty
    decks are at distance 0, an empty deck and another at 1.
    """
    shared = presence @ presence.T
    sizes = np.diag(shared).copy()
    union = np.add.outer(sizes, sizes)
    union -= shared
    np.divide(shared, union, out=shared, where=union > 0)
    shared[union == 0] = 1.0
    np.subtract(1.0, shared, out=shared)
    np.fill_diagonal(shared, 0.0)
    return squareform(shared, checks=False)


def _labels(presence: np.ndarray, threshold: float) -> np.ndarray:
    """Average-linkage (UPGMA) agglomerative clustering cut at ``threshold``."""
    if len(presence) == 1:
        return np.ones(1, dtype=int)
    tree = linkage(jaccard_distances(presence), method="average")
    return fcluster(tree, t=threshold, criterion="distance")


def _distinctive(
    presence: np.ndarray, rows: np.ndarray, vocabulary: Sequence[str], total: np.ndarray
) -> tuple[str, ...]:
    """The cards most played in the cluster and least outside it: share in - share out."""
    inside = presence[rows].sum(axis=0)
    outside_decks = len(presence) - len(rows)
    share_out = (total - inside) / outside_decks if outside_decks else np.zeros_like(total)
    score = inside / len(rows) - share_out
    ranked = sorted(
        (j for j in range(len(vocabulary)) if inside[j] > 0),
        key=lambda j: (-float(score[j]), vocabulary[j]),
    )
    return tuple(vocabulary[j] for j in ranked[:NAME_CARDS])


def cluster_decks(
    decks: Mapping[str, Mapping[str, int]], *, threshold: float = CLUSTER_THRESHOLD
) -> dict[str, Cluster]:
    """Group decks by the cards they share; each deck id maps to its :class:`Cluster`.

    Method (for games whose rules define no archetype): each deck is its *set* of cards
    (how many copies is left out: flexible counts would split an archetype, and which
    cards a deck plays is what a player means by "the same deck"); the distance of two
    decks is the Jaccard distance of their sets; decks are grouped by average-linkage
    hierarchical agglomerative clustering (scipy.cluster.hierarchy, UPGMA), the tree cut
    at ``threshold`` (:data:`CLUSTER_THRESHOLD`). Each cluster is named by its
    :data:`NAME_CARDS` most distinctive cards: the highest (share of its decks playing
    the card) - (share of the other decks playing it), ties by card name.

    Deterministic whatever the input order: deck ids and card names are sorted first.
    Card names are compared as given: pass one spelling per card.
    """
    ids = sorted(decks)
    if not ids:
        return {}
    presence, vocabulary = _presence(decks, ids)
    labels = _labels(presence, threshold)
    total = presence.sum(axis=0)
    groups: dict[int, list[int]] = {}
    for row, label in enumerate(labels):
        groups.setdefault(int(label), []).append(row)
    clusters = []
    for rows in sorted(groups.values(), key=lambda rows: ids[rows[0]]):
        cards = _distinctive(presence, np.array(rows), vocabulary, total)
        clusters.append((cards, tuple(ids[r] for r in rows)))
    return _keyed(clusters)


def _keyed(clusters: list[tuple[tuple[str, ...], tuple[str, ...]]]) -> dict[str, Cluster]:
    """Key each cluster by its naming cards; a second cluster with the same cards gets
    " #2" (in order of their first deck id), so keys stay unique."""
    seen: dict[str, int] = {}
    by_deck: dict[str, Cluster] = {}
    for cards, members in clusters:
        name = " + ".join(cards) or "No cards"
        seen[name] = seen.get(name, 0) + 1
        key = name if seen[name] == 1 else f"{name} #{seen[name]}"
        cluster = Cluster(key, key, cards, members)
        for deck in members:
            by_deck[deck] = cluster
    return by_deck


# --- The organiser's word: names, merges, splits --------------------------------------


class Overrides(TypedDict, total=False):
    """The organiser's changes, as plain JSON-ready data (kept apart from what was computed).

    ``names``: archetype key → display name. ``merge``: key → the key it is merged into
    (chains are followed: a → b, b → c puts a's decks in c). ``move``: player id → key,
    to split specific decks off into another (possibly new) key; player ids are compared
    as text, so the mapping survives a JSON round trip.
    """

    names: dict[str, str]
    merge: dict[str, str]
    move: dict[str, str]


P = TypeVar("P", bound=Hashable)


def merged_key(key: str, merge: Mapping[str, str]) -> str:
    """Where ``key`` ends after following the merges; a cycle is refused, not looped on."""
    seen = [key]
    while key in merge:
        key = merge[key]
        if key in seen:
            raise ValueError(f"The merges go round in a circle: {' → '.join([*seen, key])}.")
        seen.append(key)
    return key


def apply_overrides(
    archetype_of: Mapping[P, str | None], overrides: Overrides
) -> dict[P, str | None]:
    """Each player's archetype key after the organiser's moves, then merges.

    Moves come first, being about one deck; merges then apply to every key, so a deck
    moved into a key that is later merged follows it. A player without a list (None)
    stays without one unless a move names them.
    """
    move = {str(player): key for player, key in overrides.get("move", {}).items()}
    merge = overrides.get("merge", {})
    result: dict[P, str | None] = {}
    for player, key in archetype_of.items():
        key = move.get(str(player), key)
        result[player] = None if key is None else merged_key(key, merge)
    return result


def display_name(key: str, overrides: Overrides, computed: Mapping[str, str] | None = None) -> str:
    """The organiser's name for ``key``, else the computed one, else the key itself."""
    names = overrides.get("names", {})
    if key in names:
        return names[key]
    return (computed or {}).get(key, key)
