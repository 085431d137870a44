"""Decklist pages: the player's registration with live legality, the staff's lists,
published decklists, sideboard checks and deck checks."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from decks import decklist as text_lists
from decks import services
from decks.models import Card, DeckCheck, Decklist, name_key
from judging.penalties import (
    UnansweredQuestion,
    UnconfirmedChange,
    describe,
    judge_says_from_form,
)
from tournaments.event.roles import (
    JUDGE,
    ORGANISER,
    event_role_required,
    has_role,
    visible_event_or_404,
)
from tournaments.models import Event, Registration
from tournaments.record.rounds import latest_round
from web.errors import ServiceError
from web.inputs import whole_number

STAFF = (ORGANISER, JUDGE)


def _my_registration(request: HttpRequest, event: Event) -> Registration:
    registration = Registration.objects.filter(event=event, user=request.user).first()
    if registration is None:
        raise PermissionDenied(_("Register for the event first: decklists belong to players."))
    return registration


def _login_keeping_text(view):
    """login_required, saying why when a save arrives after the session expired.

    The POSTed text cannot survive the trip to the log-in page, but the editor keeps a
    copy in the browser (deck-draft.js) and puts it back once the player is in again.
    """

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if request.method == "POST":
            messages.warning(request, str(SESSION_EXPIRED))
        return redirect_to_login(request.get_full_path())

    return wrapped


SESSION_EXPIRED = _lazy(
    "You were logged out (your session expired), so your decklist was not saved yet. "
    "Log in again: the list you typed is kept in this browser and comes back in the editor."
)


@_login_keeping_text
def my_deck(request: HttpRequest, event_id: int) -> HttpResponse:
    """Paste or build the list, see every problem live, save a draft or submit."""
    event = visible_event_or_404(request.user, event_id)
    registration = _my_registration(request, event)
    if event.game not in services.DECK_GAMES:
        return render(request, "decks/no_decklist.html", {"event": event})
    decklist = Decklist.objects.filter(registration=registration).first()
    report, typed = None, None
    if request.method == "POST":
        submit = request.POST.get("action") == "submit"
        text = request.POST.get("decklist", "")
        try:
            decklist, report = services.save_decklist(
                registration, text, submit=submit, actor=request.user
            )
        except services.NotSubmitted as exc:
            # Kept as the draft: the page shows it back with everything that is wrong.
            messages.error(request, exc.message)
            decklist, report, typed = exc.decklist, exc.report, text
        except ServiceError as exc:
            messages.error(request, str(exc))
            report = _safe_report(event, text)
            typed = text  # whatever went wrong, the box shows what was typed
        else:
            if submit:
                messages.success(request, _("Decklist submitted. Good luck!"))
            else:
                messages.success(request, _("Draft saved. Submit it before the deadline."))
            return redirect("decks:my_deck", event.pk)
    text = typed if typed is not None else (decklist.editor_text if decklist else "")
    if report is None and text:
        report = _safe_report(event, text)
    context = {
        "event": event,
        "decklist": decklist,
        "report": report,
        "text": text,
        "locked": services.decklist_locked(decklist, event),
        "list_state": services.list_state(event, registration),
    }
    return render(request, "decks/my_deck.html", context)


def _safe_report(event: Event, text: str):
    try:
        return services.check_text(event, text)
    except ServiceError:
        return None


def check(request: HttpRequest, event_id: int) -> HttpResponse:
    """Live legality while typing (htmx): every violation with its rule, and suggestions.

    Logged out in the meantime, the editor is told so in place of the report, rather
    than given the log-in page to show inside it.
    """
    if not request.user.is_authenticated:
        if request.headers.get("HX-Request"):
            return render(request, "decks/_logged_out.html", {"event_id": event_id})
        return redirect_to_login(request.get_full_path())
    event = visible_event_or_404(request.user, event_id)
    _my_registration(request, event)
    report = _safe_report(event, request.POST.get("decklist", "")[:20000])
    return render(request, "decks/_report.html", {"report": report, "event": event})


def card_search(request: HttpRequest) -> HttpResponse:
    """Autocomplete for the deck builder: names in the pool that contain the query."""
    game = request.GET.get("game", "")
    query = " ".join(request.GET.get("q", "").split())[:60]
    cards = []
    if len(query) >= 2:
        cards = list(
            Card.objects.filter(game=game, key__contains=name_key(query)).order_by("name")[:15]
        )
    return render(request, "decks/_card_options.html", {"cards": cards, "query": query})


def decklist_index(request: HttpRequest, event_id: int) -> HttpResponse:
    """Staff see every registration's list status; the public see published lists."""
    event = visible_event_or_404(request.user, event_id)
    staff = request.user.is_authenticated and has_role(request.user, event, *STAFF)
    if not staff and event.decklists_public == "none":
        if not request.user.is_authenticated:
            from django.contrib.auth.views import redirect_to_login

            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(_("Decklists are private until the organiser publishes them."))
    registrations = (
        event.registrations.exclude(status=Registration.Status.WAITLISTED)
        .select_related("user", "decklist")
        .order_by("name", "user__username")
    )
    rows = [r for r in registrations if staff or services.may_view_decklist(request.user, r)]
    return render(
        request, "decks/decklist_index.html", {"event": event, "rows": rows, "staff": staff}
    )


def decklist_detail(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    event = visible_event_or_404(request.user, event_id)
    registration = get_object_or_404(Registration, pk=registration_id, event=event)
    if not services.may_view_decklist(request.user, registration):
        if not request.user.is_authenticated:
            from django.contrib.auth.views import redirect_to_login

            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(_("This decklist is private until the organiser publishes it."))
    decklist = Decklist.objects.filter(registration=registration).first()
    if decklist is None:
        raise Http404(_("This player has not registered a decklist."))
    staff = request.user.is_authenticated and has_role(request.user, event, *STAFF)
    context = {
        "event": event,
        "registration": registration,
        "decklist": decklist,
        "staff": staff,
        "is_organiser": request.user.is_authenticated and has_role(request.user, event, ORGANISER),
        "swap": request.session.pop("swap_result", None),
        "sideboard_checks": services.has_sideboard_rules(event),
    }
    return render(request, "decks/decklist_detail.html", context)


@require_POST
@event_role_required(ORGANISER)
def unlock(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    decklist = get_object_or_404(
        Decklist, registration_id=registration_id, registration__event=event
    )
    try:
        services.unlock_decklist(decklist, request.user, request.POST.get("reason", ""))
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Decklist unlocked: the player can change it once."))
    return redirect("decks:detail", event.pk, registration_id)


@require_POST
@event_role_required(*STAFF)
def sideboard_check(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """Is the configuration between games legal? (902.2-902.5, the sideboard-swap question)."""
    decklist = get_object_or_404(
        Decklist.objects.select_related("registration__event"),
        registration_id=registration_id,
        registration__event=event,
    )
    try:
        ruling = services.check_sideboard_swap(
            decklist,
            request.POST.get("proposed", ""),
            new_match=bool(request.POST.get("new_match")),
        )
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        request.session["swap_result"] = ruling
    return redirect("decks:detail", event.pk, registration_id)


@event_role_required(*STAFF)
def deck_checks(request: HttpRequest, event: Event) -> HttpResponse:
    """Pick N random tables of the current round; checked players come last."""
    current = latest_round(event)
    count = whole_number(request.GET.get("count") or "2") or 2
    picked = services.pick_tables(current, count) if current and request.GET.get("pick") else []
    recent = event.deck_checks.select_related("registration__user", "judge", "penalty")[:20]
    return render(
        request,
        "decks/deck_checks.html",
        {
            "event": event,
            "round": current,
            "picked": picked,
            "count": count,
            "recent": recent,
        },
    )


@event_role_required(*STAFF)
def deck_check_player(request: HttpRequest, event: Event, registration_id: int) -> HttpResponse:
    """Record what the player presented and see every difference from the registration."""
    registration = get_object_or_404(Registration, pk=registration_id, event=event)
    current = latest_round(event)
    match = None
    if current is not None:
        match = (
            current.matches.filter(is_bye=False).filter(player_a=registration).first()
            or current.matches.filter(player_b=registration).first()
        )
    if request.method == "POST":
        try:
            deck_check = services.record_deck_check(
                registration, request.POST.get("presented", ""), request.user, match
            )
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            return redirect("decks:deck_check_result", event.pk, deck_check.pk)
    decklist = Decklist.objects.filter(registration=registration).first()
    return render(
        request,
        "decks/deck_check_form.html",
        {
            "event": event,
            "registration": registration,
            "decklist": decklist,
            "match": match,
            "text": text_lists.render(decklist.main, decklist.sideboard) if decklist else "",
        },
    )


@event_role_required(*STAFF)
def deck_check_result(request: HttpRequest, event: Event, check_id: int) -> HttpResponse:
    deck_check = get_object_or_404(
        DeckCheck.objects.select_related("registration", "penalty"), pk=check_id, event=event
    )
    context = {"event": event, "check": deck_check, "game": 1}
    if request.method == "POST":
        game = whole_number(request.POST.get("game")) or 1
        try:
            says = judge_says_from_form(request.POST, deck_check.match)
            penalty = services.penalise_deck_check(
                deck_check,
                request.user,
                game,
                confirmed=request.POST.get("confirm_change", ""),
                says=says,
            )
        except (UnconfirmedChange, UnansweredQuestion) as exc:
            # The game loss falls on a result the match already has: the judge answers what
            # it asks (is it in the result already, who won that game), reads, confirms.
            messages.error(request, str(exc))
            context.update(game=game, preview=exc.preview, preview_match=deck_check.match)
            return render(request, "decks/deck_check_result.html", context, status=400)
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                _("Penalty logged: %(penalty)s. %(summary)s")
                % {"penalty": penalty, "summary": describe(penalty)},
            )
        return redirect("decks:deck_check_result", event.pk, deck_check.pk)
    return render(request, "decks/deck_check_result.html", context)
