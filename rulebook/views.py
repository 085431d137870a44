"""Rules reference pages and the judge's "Rule on a game state" page."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rulebook.api import rule_on
from rulebook.citations import citation_link
from rules_engine import GAMES, catalogue
from rules_engine.reference import GAME_TITLES, parts, search
from tournaments.models import EventRole


def reference_index(request: HttpRequest) -> HttpResponse:
    games = [{"slug": g, "title": GAME_TITLES[g], "parts": parts(g)} for g in GAMES]
    return render(request, "rulebook/index.html", {"games": games})


def reference(request: HttpRequest, game: str) -> HttpResponse:
    """The whole rules text of a game, an anchor per rule, with a search box."""
    if game not in GAMES:
        raise Http404(_("Arbiter has no rules for %(game)s.") % {"game": repr(game)})
    query = request.GET.get("q", "").strip()[:200]
    context = {
        "game": game,
        "title": GAME_TITLES[game],
        "parts": parts(game),
        "query": query,
        "results": search(game, query) if query else None,
    }
    if request.htmx:
        return render(request, "rulebook/_search_results.html", context)
    return render(request, "rulebook/reference.html", context)


def _may_ask_for_rulings(user) -> bool:
    return user.is_superuser or EventRole.objects.filter(user=user).exists()


def _check_judge(request: HttpRequest) -> None:
    if not _may_ask_for_rulings(request.user):
        raise PermissionDenied(
            _(
                "The ruling page is for the judges and organisers of an event. "
                "The rules reference is open to everyone."
            )
        )


@login_required
def ruling_page(request: HttpRequest) -> HttpResponse:
    """Pick a game and question; the form is built from the question's JSON Schema."""
    _check_judge(request)
    games = catalogue()["games"]
    return render(
        request,
        "rulebook/ruling.html",
        {"games": games, "titles": GAME_TITLES},
    )


@require_POST
@login_required
def ruling_result(request: HttpRequest, game: str, question: str) -> HttpResponse:
    """The ruling (or the problems with the payload) as an HTML fragment for the page."""
    _check_judge(request)
    status, body = rule_on(request, game, question)
    context = {"status": status, "body": body, "game": game, "question": question}
    if status == 200:
        context["citations"] = [citation_link(c) for c in body.get("citations", [])]
        context["answer"] = {
            key: json.dumps(value)
            for key, value in body.items()
            if key not in ("citations", "explanation")
        }
    return render(request, "rulebook/_ruling.html", context, status=200 if status != 404 else 404)
