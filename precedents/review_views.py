"""The page of precedents whose cited rules changed (issue 35): each rule's old and new text
side by side, the changed words marked, and the head judge's form to say whether the ruling
still holds.

Judges and organisers of any event (and site staff) read the list of those they may see
(``precedents.search.visible_to``; site staff also see the precedents with no event, theirs
to review); only those ``review.may_review`` admits get the form. Thin: it reads, checks
and calls ``precedents.review``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from judging.roster import may_manage
from precedents import review
from precedents.models import Precedent
from precedents.search import visible_to
from precedents.services import NotAllowed
from rulebook.citations import citation_link
from rules_engine.reference import GAME_TITLES
from tournaments.models import EventRole
from web.errors import ServiceError

PAGE = 20


def _is_site_staff(user) -> bool:
    return bool(user.is_staff or user.is_superuser)


def _check_reader(user) -> None:
    if not (_is_site_staff(user) or EventRole.objects.filter(user=user).exists()):
        raise PermissionDenied(
            _("Precedents to review are for the judges and organisers of an event.")
        )


def _readable(user) -> QuerySet[Precedent]:
    rows = visible_to(user)
    if _is_site_staff(user):
        rows = rows | Precedent.objects.filter(event__isnull=True)
    return rows


def _changes(precedent: Precedent) -> list[dict]:
    changes = []
    for citation, texts in sorted(precedent.review.items()):
        if not isinstance(texts, dict) or not isinstance(texts.get("old"), str):
            continue
        new = texts.get("new") if isinstance(texts.get("new"), str) else None
        old_pieces, new_pieces = review.word_diff(texts["old"], new)
        changes.append(
            {
                "citation": citation,
                "link": citation_link(citation)["url"],
                "old": old_pieces,
                "new": new_pieces,
                "gone": new is None,
            }
        )
    return changes


def _items(user, precedents: list[Precedent], error: dict | None) -> list[dict]:
    managed: dict[int, bool] = {}  # per event: may_manage asks the database

    def may_act(precedent: Precedent) -> bool:
        if precedent.event_id is None:
            return review.may_review(user, precedent)
        if precedent.event_id not in managed:
            managed[precedent.event_id] = may_manage(user, precedent.event)
        return managed[precedent.event_id]

    return [
        {
            "precedent": p,
            "game": GAME_TITLES.get(p.game, p.game),
            "changes": _changes(p),
            "may_act": may_act(p),
            "error": error if error and error["uid"] == p.uid else None,
        }
        for p in precedents
    ]


def _render(request: HttpRequest, *, error: dict | None = None, status: int = 200):
    rows = (
        _readable(request.user)
        .filter(needs_review=True)
        .select_related("event")
        .order_by("-ruled_on", "-pk")
    )
    page = Paginator(rows, PAGE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "items": _items(request.user, list(page.object_list), error),
    }
    return render(request, "precedents/review.html", context, status=status)


@login_required
def review_list(request: HttpRequest) -> HttpResponse:
    """Every precedent the reader may see that rests on a changed rule, newest first."""
    _check_reader(request.user)
    return _render(request)


@require_POST
@login_required
def accept_review(request: HttpRequest, uid) -> HttpResponse:
    """The head judge's answer for one precedent: it holds, or it is not to be followed."""
    _check_reader(request.user)
    precedent = get_object_or_404(_readable(request.user), uid=uid)
    try:
        review.accept_review(
            precedent,
            request.user,
            request.POST.get("note", ""),
            outcome=request.POST.get("outcome", ""),
        )
    except NotAllowed as refused:
        raise PermissionDenied(str(refused)) from refused
    except ServiceError as exc:
        messages.error(request, str(exc))
        error = {
            "uid": precedent.uid,
            "message": str(exc),
            "outcome": request.POST.get("outcome", ""),
            "note": request.POST.get("note", ""),
        }
        return _render(request, error=error, status=400)
    if request.POST.get("outcome") == review.AVOID:
        messages.success(request, _("Reviewed: the ruling is marked not to be followed."))
    else:
        messages.success(request, _("Reviewed: the ruling still holds under the new text."))
    return redirect("precedents:review")
