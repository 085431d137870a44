"""Finding precedents: by card (fuzzy, as the decklist editor finds cards), by rule number,
by question and by free text, among the precedents the reader may see.

``visible_to(user)`` is the one answer to "who sees what": public precedents are everyone's;
the rest are for the judges and organisers of any event on the site; a ruling of an event
still in draft is seen by that event's staff alone. Every page, the API and the export ask it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.utils.translation import gettext as _

from decks.decklist import PoolIndex, card_key
from precedents import fulltext
from precedents.index import rule_key
from precedents.models import Precedent, Term
from rules_engine import GAMES
from tournaments.models import Event, EventRole
from web.errors import ServiceError

MAX_TERMS = 6
MAX_TEXT = 200
ORDERS = ("newest", "upheld")
PAGE = 50


@dataclass(frozen=True)
class Query:
    game: str = ""
    cards: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    question: str = ""
    text: str = ""
    order: str = "newest"

    @property
    def is_empty(self) -> bool:
        return not (self.cards or self.rules or self.question or self.text.strip())


@dataclass
class Found:
    """A search's answer: the precedents (best first), how many matched in all, and which
    known card names each typed card was read as."""

    precedents: list[Precedent]
    total: int
    cards: dict[str, list[str]] = field(default_factory=dict)


def read_query(params: Mapping) -> Query:
    """A Query from request parameters (``card`` and ``rule`` may repeat or be
    comma-separated), with a message naming the parameter for anything it cannot use."""
    game = _one(params, "game")
    if game and game not in GAMES:
        raise ServiceError(
            _("Arbiter has no game %(game)s: use one of %(games)s.")
            % {"game": repr(game), "games": ", ".join(GAMES)},
            "game",
        )
    order = _one(params, "order") or "newest"
    if order not in ORDERS:
        raise ServiceError(_("Order by newest or upheld."), "order")
    text = _one(params, "q")
    if len(text) > MAX_TEXT:
        raise ServiceError(
            _("Search for at most %(limit)s characters of text.") % {"limit": MAX_TEXT}, "q"
        )
    return Query(
        game=game,
        cards=_many(params, "card"),
        rules=_many(params, "rule"),
        question=_one(params, "question")[:40],
        text=text,
        order=order,
    )


def _one(params: Mapping, key: str) -> str:
    value = params.get(key, "")
    return value.strip() if isinstance(value, str) else ""


def _many(params: Mapping, key: str) -> tuple[str, ...]:
    raw = params.getlist(key) if hasattr(params, "getlist") else params.get(key, [])
    if isinstance(raw, str):
        raw = [raw]
    values: list[str] = []
    for item in raw if isinstance(raw, list | tuple) else []:
        for piece in str(item).split(","):
            piece = " ".join(piece.split())[:100]
            if piece and piece not in values:
                values.append(piece)
    if len(values) > MAX_TERMS:
        raise ServiceError(
            _("Search for at most %(limit)s of %(what)s at once.")
            % {"limit": MAX_TERMS, "what": key},
            key,
        )
    return tuple(values)


def visible_to(user) -> QuerySet[Precedent]:
    """The precedents ``user`` may read (anyone: ``AnonymousUser`` too)."""
    everyone = Q(visibility=Precedent.Visibility.PUBLIC)
    settled = Q(event__isnull=True) | ~Q(event__status=Event.Status.DRAFT)
    rows = Precedent.objects.all()
    if user is None or not user.is_authenticated:
        return rows.filter(everyone & settled)
    if user.is_superuser:
        return rows
    staff_of = EventRole.objects.filter(user=user).values("event")
    if not EventRole.objects.filter(user=user).exists():
        return rows.filter(everyone & settled)
    return rows.filter(settled | Q(event__in=staff_of))


def find(
    query: Query, user, *, limit: int = PAGE, exclude: int | None = None, fuzzy: bool = True
) -> Found:
    """Precedents matching every part of ``query``, newest (or most upheld) first."""
    rows, read_as = matching(query, user, exclude=exclude, fuzzy=fuzzy)
    found = list(rows[:limit])
    total = len(found) if len(found) < limit else rows.count()
    return Found(found, total, read_as)


def matching(
    query: Query, user, *, exclude: int | None = None, fuzzy: bool = True
) -> tuple[QuerySet[Precedent], dict[str, list[str]]]:
    """All precedents ``user`` may read that match ``query``, in order, and which card keys
    each typed card was read as.

    ``fuzzy=False`` takes card names as given: a name read off a ruling is the card itself,
    and another card spelt alike is a different card.
    """
    rows = visible_to(user)
    if query.game:
        rows = rows.filter(game=query.game)
    if query.question:
        rows = rows.filter(question=query.question)
    read_as: dict[str, list[str]] = {}
    for typed in query.cards:
        keys = card_keys_for(typed, query.game) if fuzzy else [card_key(typed)]
        read_as[typed] = keys
        on_card = Term.objects.filter(kind=Term.Kind.CARD, value__in=keys)
        rows = rows.filter(pk__in=on_card.values("precedent"))
    for rule in query.rules:
        key = rule_key(rule.removeprefix("rule ").removeprefix("Rule "))
        same = Q(value=key) | Q(value__startswith=f"{key}.") | Q(value__startswith=f"{key}-")
        on_rule = Term.objects.filter(Q(kind=Term.Kind.RULE) & same)
        rows = rows.filter(pk__in=on_rule.values("precedent"))
    text = fulltext.matching(query.text)
    if text is not None:
        sql, params = text
        rows = rows.extra(where=[f"precedents_precedent.id IN ({sql})"], params=params)
    if exclude is not None:
        rows = rows.exclude(pk=exclude)
    return _ordered(rows, query.order), read_as


def known_cards(game: str = "") -> list[str]:
    """The card keys precedents name (of one game, or all)."""
    known = Term.objects.filter(kind=Term.Kind.CARD)
    if game:
        known = known.filter(precedent__game=game)
    return list(known.values_list("value", flat=True).distinct())


def card_keys_for(typed: str, game: str = "") -> list[str]:
    """The card keys a typed name stands for: itself when a precedent names it, else the
    closest names precedents hold (a misspelling finds its card, as in the decklist)."""
    key = card_key(typed)
    index = PoolIndex(known_cards(game))
    exact = index.canonical(key)
    if exact is not None:
        return [exact]
    return list(index.suggest(key, 1))


def _ordered(rows: QuerySet[Precedent], order: str) -> QuerySet[Precedent]:
    if order == "upheld":
        stood = Case(
            When(
                Q(decision=Precedent.Decision.UPHELD) & ~Q(appeal_upheld=False),
                then=Value(1),
            ),
            default=Value(0),
            output_field=IntegerField(),
        )
        return rows.annotate(stood_rank=stood).order_by("-stood_rank", "-ruled_on", "-pk")
    return rows.order_by("-ruled_on", "-pk")
