"""What a precedent is found by: its card and rule terms and its full text, rewritten
whenever the precedent is written (by the services and the importer, in their transaction,
so a search never sees a precedent without its index)."""

from __future__ import annotations

import re

from decks.decklist import card_key
from precedents import fulltext
from precedents.models import KnownCard, Precedent, Term


def rule_key(citation: str) -> str:
    """How a rule citation is compared: case and spacing do not matter ("§6.4", "502.2")."""
    return " ".join(citation.casefold().split())


def rule_keys(citation: str) -> list[str]:
    """The citation and the sections it sits in ("502.2a" -> 502.2a, 502.2, 502), so a
    search for a section is one exact lookup."""
    key = rule_key(citation)
    keys = [key]
    if re.fullmatch(r".*\d[a-z]", key):  # 502.2a sits in 502.2
        key = key[:-1]
        keys.append(key)
    while "." in key:
        key = key.rsplit(".", 1)[0]
        keys.append(key)
    return keys


def refresh(precedent: Precedent) -> None:
    """Index ``precedent`` as it is now (call after saving it)."""
    Term.objects.filter(precedent=precedent).delete()
    terms = {(Term.Kind.CARD, card_key(name)) for name in precedent.cards if card_key(name)}
    terms |= {(Term.Kind.RULE, key) for rule in precedent.rules for key in rule_keys(rule) if key}
    Term.objects.bulk_create(
        Term(precedent=precedent, game=precedent.game, kind=kind, value=value[:200])
        for kind, value in sorted(terms)
    )
    KnownCard.objects.bulk_create(
        (KnownCard(game=precedent.game, key=value) for kind, value in terms if kind == "card"),
        ignore_conflicts=True,
    )
    fulltext.store(precedent.pk, searchable_text(precedent))


def forget(sender, instance: Precedent, **kwargs) -> None:
    """post_delete: the full-text row goes with its precedent (the terms cascade)."""
    fulltext.remove(instance.pk)


def searchable_text(precedent: Precedent) -> str:
    """Everything free text may find a precedent by."""
    answer = precedent.answer if isinstance(precedent.answer, dict) else {}
    explanation = answer.get("explanation", "")
    return "\n".join(
        str(part)
        for part in (
            precedent.question.replace("-", " "),
            precedent.asked,
            explanation if isinstance(explanation, str) else "",
            precedent.note,
            precedent.appeal,
            " ".join(precedent.cards),
            " ".join(precedent.rules),
        )
        if part
    )
