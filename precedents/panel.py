"""The earlier rulings a judge sees beside a call: precedents on the cards the call names
(in its engine ruling, or in the words of its question), summed up per card ("3 earlier
rulings on Ember Tithe with 502.2: upheld 3 times")."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet

from decks.decklist import card_key
from judging.models import JudgeCall
from precedents import extract, search
from precedents.models import Precedent

MAX_CARDS = 6
PER_CARD = 10


@dataclass
class CardRulings:
    """The precedents on one card, and what they add up to."""

    card: str
    precedents: list[Precedent]
    total: int
    upheld: int = 0
    overturned: int = 0
    avoid: int = 0
    rules: list[str] = field(default_factory=list)  # cited by every one shown


@dataclass
class Panel:
    cards: list[str]
    groups: list[CardRulings]
    by_question: CardRulings | None = None

    @property
    def is_empty(self) -> bool:
        return not self.groups and (self.by_question is None or not self.by_question.total)


def for_call(call: JudgeCall, user) -> Panel:
    """What earlier rulings ``user`` may read on what ``call`` is about (not its own)."""
    game = call.ruling_game or call.event.game
    own = None
    if call.pk is not None:
        own = Precedent.objects.filter(call=call).values_list("pk", flat=True).first()
    cards = cards_of(call, game)
    groups = []
    for card in cards[:MAX_CARDS]:
        rows, _ = search.matching(
            search.Query(game=game, cards=(card,)), user, exclude=own, fuzzy=False
        )
        group = summed(card, rows)
        if group.total:
            groups.append(group)
    by_question = None
    if not cards and call.ruling_question:
        query = search.Query(game=game, question=call.ruling_question)
        rows, _ = search.matching(query, user, exclude=own)
        by_question = summed(call.ruling_question, rows)
    return Panel(cards, groups, by_question)


def cards_of(call: JudgeCall, game: str) -> list[str]:
    """Cards the call's ruling names, then cards precedents know that its question names."""
    cards = extract.cards_named(call.ruling_payload or {}) if call.ruling_game else []
    keys = {card_key(card) for card in cards}
    for name in cards_in_text(call.question, search.known_cards(game)):
        if name not in keys:
            cards.append(name)
            keys.add(name)
    return cards


def cards_in_text(text: str, known: list[str]) -> list[str]:
    """The known card keys written in ``text`` as whole words, in the order they appear."""
    folded = card_key(text)
    if not folded or not known:
        return []
    pattern = re.compile(
        r"(?<!\w)("
        + "|".join(re.escape(k) for k in sorted(known, key=len, reverse=True))
        + r")(?!\w)"
    )
    found: list[str] = []
    for match in pattern.finditer(folded):
        if match.group(1) not in found:
            found.append(match.group(1))
    return found


def summed(label: str, rows: QuerySet[Precedent]) -> CardRulings:
    """The first precedents on ``label`` and the counts over all of them."""
    counts = rows.aggregate(
        total=Count("pk"),
        upheld=Count("pk", filter=Q(stood=True)),
        avoid=Count("pk", filter=Q(status=Precedent.Status.AVOID)),
    )
    ids = list(rows.values_list("pk", flat=True)[:PER_CARD])
    by_id = Precedent.objects.in_bulk(ids)
    shown = [by_id[pk] for pk in ids if pk in by_id]
    shared = set.intersection(*(set(p.rules) for p in shown)) if shown else set()
    return CardRulings(
        card=next(
            (name for p in shown for name in p.cards if card_key(name) == card_key(label)), label
        ),
        precedents=shown,
        total=counts["total"],
        upheld=counts["upheld"],
        overturned=counts["total"] - counts["upheld"],
        avoid=counts["avoid"],
        rules=[rule for rule in shown[0].rules if rule in shared] if shown else [],
    )
