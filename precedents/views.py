"""Precedent pages: the judges' search (a phone page), the public list on each game's
rules page, the earlier rulings beside a judge call, and marking a call's ruling."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from judging.models import JudgeCall
from judging.roster import may_manage
from precedents import panel, search, services
from precedents.models import Precedent
from rulebook.citations import citation_link
from rules_engine import GAMES, questions
from rules_engine.reference import GAME_TITLES
from tournaments.event.roles import JUDGE, ORGANISER, event_role_required
from tournaments.models import Event, EventRole
from web.errors import ServiceError

STAFF = (ORGANISER, JUDGE)


def _check_judge(user) -> None:
    if not (user.is_superuser or EventRole.objects.filter(user=user).exists()):
        raise PermissionDenied(
            _(
                "Precedents are searched by the judges and organisers of events on this site. "
                "Public precedents are on each game's rules page."
            )
        )


@login_required
def search_page(request: HttpRequest) -> HttpResponse:
    """Find earlier rulings by card, rule, question and words: built for a judge's phone."""
    _check_judge(request.user)
    context = _searched(request, request.user, game=request.GET.get("game", ""))
    context["games"] = [(g, GAME_TITLES[g]) for g in GAMES]
    template = "precedents/_results.html" if request.htmx else "precedents/search.html"
    return render(request, template, context, status=400 if context["error"] else 200)


def public_page(request: HttpRequest, game: str) -> HttpResponse:
    """The precedents a game's judges made public: everyone reads them, without names."""
    if game not in GAMES:
        raise Http404(_("Arbiter has no rules for %(game)s.") % {"game": repr(game)})
    context = _searched(request, AnonymousUser(), game=game)
    context.update({"game": game, "title": GAME_TITLES[game], "public": True})
    template = "precedents/_results.html" if request.htmx else "precedents/public.html"
    return render(request, template, context, status=400 if context["error"] else 200)


def _searched(request: HttpRequest, user, *, game: str) -> dict:
    params = QueryDict(mutable=True)  # what a search reads, and nothing else
    params.setlist("card", request.GET.getlist("card"))
    params.setlist("rule", request.GET.getlist("rule"))
    params["question"] = request.GET.get("question", "")
    params["q"] = request.GET.get("q", "")
    params["order"] = request.GET.get("order", "")
    params["game"] = game
    context: dict = {"error": None, "params": params, "found": None}
    try:
        query = search.read_query(params)
    except ServiceError as exc:
        context["error"] = str(exc)
        return context
    context["query"] = query
    context["questions"] = _questions(query.game)
    context["found"] = search.find(query, user)
    context["items"] = [_item(p) for p in context["found"].precedents]
    return context


def _questions(game: str) -> list[tuple[str, str]]:
    games = [game] if game else list(GAMES)
    seen: dict[str, str] = {}
    for each in games:
        for question in questions(each):
            seen.setdefault(question.slug, question.slug.replace("-", " "))
    return sorted(seen.items())


def _item(precedent: Precedent) -> dict:
    answer = precedent.answer if isinstance(precedent.answer, dict) else {}
    return {
        "precedent": precedent,
        "explanation": answer.get("explanation", ""),
        "rules": [citation_link(rule) for rule in precedent.rules],
    }


@event_role_required(*STAFF)
def call_panel(request: HttpRequest, event: Event, call_id: int) -> HttpResponse:
    """Earlier rulings beside a call (loaded into the call page), and the marking form."""
    call = get_object_or_404(JudgeCall.objects.select_related("event"), pk=call_id, event=event)
    found = panel.for_call(call, request.user)
    kept = Precedent.objects.filter(call=call).first()
    context = {
        "event": event,
        "call": call,
        "panel": found,
        "groups": [
            {"group": group, "items": [_item(p) for p in group.precedents]}
            for group in found.groups
            + ([found.by_question] if found.by_question and found.by_question.total else [])
        ],
        "kept": kept,
        "may_mark": bool(call.ruling_game) and not call.is_open and may_manage(request.user, event),
        "choices": {
            "decision": Precedent.Decision.choices,
            "status": Precedent.Status.choices,
            "visibility": Precedent.Visibility.choices,
        },
    }
    template = "precedents/_call_panel.html" if request.htmx else "precedents/call_panel_page.html"
    return render(request, template, context)


@require_POST
@event_role_required(*STAFF)
def mark_call(request: HttpRequest, event: Event, call_id: int) -> HttpResponse:
    """Keep the call's ruling as a precedent (or mark it not to be followed)."""
    call = get_object_or_404(JudgeCall, pk=call_id, event=event)
    try:
        services.mark(
            call,
            request.user,
            decision=request.POST.get("decision", ""),
            note=request.POST.get("note", ""),
            status=request.POST.get("status", Precedent.Status.FOLLOW),
            visibility=request.POST.get("visibility", Precedent.Visibility.JUDGES),
        )
    except services.NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Kept as a precedent: judges at every event can find it."))
    return redirect("judging:call", event.pk, call.pk)


@require_POST
@event_role_required(*STAFF)
def record_appeal(request: HttpRequest, event: Event, call_id: int) -> HttpResponse:
    """Keep an appeal's outcome with the precedent the call's ruling became."""
    call = get_object_or_404(JudgeCall, pk=call_id, event=event)
    precedent = get_object_or_404(Precedent, call=call)
    upheld = {"upheld": True, "overturned": False}.get(request.POST.get("outcome", ""))
    try:
        if upheld is None:
            raise ServiceError(_("Say whether the appeal upheld the ruling."), "outcome")
        services.record_appeal(
            precedent, request.user, upheld=upheld, note=request.POST.get("appeal", "")
        )
    except services.NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The appeal's outcome is kept with the precedent."))
    return redirect("judging:call", event.pk, call.pk)
