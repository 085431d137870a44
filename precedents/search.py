"""Finding precedents: by card (fuzzy, as the decklist editor finds cards), by rule number,
by question and by free text, among the precedents the reader may see.

``visible_to(user)`` is the one answer to "who sees what": public precedents are everyone's;
the rest are for the judges and organisers of any event on the site; a ruling of an event
still in draft is seen by that event's staff alone. Every page, the API and the export ask it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext as _

from decks.decklist import PoolIndex, card_key
from precedents import fulltext
from precedents.index import rule_key
from precedents.models import KnownCard, Precedent, Term
from rules_engine import GAMES
from tournaments.models import Event, EventRole
from web.errors import ServiceError

MAX_COUNT = 1_000  # beyond this a judge narrows the search; counting on costs every search
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
    total: int  # at most MAX_COUNT
    cards: dict[str, list[str]] = field(default_factory=dict)

    @property
    def more(self) -> bool:
        """More matched than were counted."""
        return self.total >= MAX_COUNT


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
    """The precedents ``user`` may read (anyone: ``AnonymousUser`` too).

    Written without a join: a draft event's precedents are left out by id, so a search
    over many precedents is answered from the precedents' own index.
    """
    rows = Precedent.objects.all()
    if user is not None and user.is_superuser:
        return rows
    drafts = Event.objects.filter(status=Event.Status.DRAFT)
    staff_of = (
        EventRole.objects.filter(user=user).values("event")
        if user is not None and user.is_authenticated
        else EventRole.objects.none()
    )
    if not staff_of.exists():
        return rows.filter(visibility=Precedent.Visibility.PUBLIC).exclude(
            event__in=drafts.values("pk")
        )
    return rows.exclude(event__in=drafts.exclude(pk__in=staff_of).values("pk"))


def find(
    query: Query, user, *, limit: int = PAGE, exclude: int | None = None, fuzzy: bool = True
) -> Found:
    """Precedents matching every part of ``query``, newest (or most upheld) first."""
    rows, read_as = matching(query, user, exclude=exclude, fuzzy=fuzzy)
    ids = list(rows.values_list("pk", flat=True)[:limit])  # from the index alone
    total = len(ids) if len(ids) < limit else rows.order_by()[:MAX_COUNT].count()
    by_id = Precedent.objects.in_bulk(ids)
    return Found([by_id[pk] for pk in ids if pk in by_id], total, read_as)


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
        rows = _naming(rows, Term.objects.filter(kind=Term.Kind.CARD, value__in=keys))
    for rule in query.rules:
        key = rule_key(rule.removeprefix("rule ").removeprefix("Rule "))
        rows = _naming(rows, Term.objects.filter(kind=Term.Kind.RULE, value=key))
    text = fulltext.matching(query.text)
    if text is not None:
        sql, params = text
        rows = rows.extra(where=[f"precedents_precedent.id IN ({sql})"], params=params)
    if exclude is not None:
        rows = rows.exclude(pk=exclude)
    return _ordered(rows, query.order), read_as


COMMON_TERM = 500


def _naming(rows: QuerySet[Precedent], terms: QuerySet[Term]) -> QuerySet[Precedent]:
    """Precedents with one of ``terms``. A term most precedents carry (202.1 in every deck
    ruling) is checked per precedent while walking them newest first, which stops at the
    first page; a rarer one lists its precedents from the terms' index."""
    if terms[:COMMON_TERM].count() < COMMON_TERM:
        return rows.filter(pk__in=terms.values("precedent"))
    return rows.filter(Exists(terms.filter(precedent=OuterRef("pk"))))


def known_cards(game: str = "") -> list[str]:
    """The card keys precedents name (of one game, or all)."""
    known = KnownCard.objects.all()
    if game:
        known = known.filter(game=game)
    return list(known.values_list("key", flat=True).distinct())


def card_keys_for(typed: str, game: str = "") -> list[str]:
    """The card keys a typed name stands for: itself when a precedent names it, else the
    closest name precedents hold (a misspelling finds its card, as in the decklist)."""
    key = card_key(typed)
    exact = Term.objects.filter(kind=Term.Kind.CARD, value=key)
    if (exact.filter(game=game) if game else exact).exists():
        return [key]
    return list(PoolIndex(known_cards(game)).suggest(key, 1))


def _ordered(rows: QuerySet[Precedent], order: str) -> QuerySet[Precedent]:
    if order == "upheld":
        return rows.order_by("-stood", "-ruled_on", "-pk")
    return rows.order_by("-ruled_on", "-pk")
