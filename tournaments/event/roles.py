"""Who may do what in an event, and the event a page or an API call may use.

Roles are per event; site superusers may do anything. Pages find their event with
:func:`visible_event_or_404` or :func:`event_role_required`, API views with
:func:`event_for`; each switches the request to the venue's time zone.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from rest_framework.exceptions import NotAuthenticated
from rest_framework.exceptions import PermissionDenied as ApiPermissionDenied
from rest_framework.request import Request

from tournaments.event.local_time import show_event_times
from tournaments.models import Event, EventRole, Registration

ORGANISER = EventRole.Role.ORGANISER
JUDGE = EventRole.Role.JUDGE
PLAYER = "player"

# The staff a refusal names ("Only this event's organisers may …"), by the roles asked
# for. The English of two roles has always read "organiser or judges".
_WHO_MAY = {
    (ORGANISER,): _lazy("organisers"),
    (JUDGE,): _lazy("judges"),
    (ORGANISER, JUDGE): _lazy("organiser or judges"),
    (JUDGE, ORGANISER): _lazy("judge or organisers"),
}


def who_may(wanted) -> str:
    """The roles ``wanted`` as a refusal names them: "organisers", "organiser or judges"."""
    words = _WHO_MAY.get(tuple(wanted))
    return str(words) if words is not None else f"{' or '.join(wanted)}s"


def roles_in(user, event: Event) -> frozenset[str]:
    """The user's roles in ``event``: organiser, judge and/or player."""
    if not user.is_authenticated:
        return frozenset()
    roles = set(EventRole.objects.filter(event=event, user=user).values_list("role", flat=True))
    if Registration.objects.filter(event=event, user=user).exists():
        roles.add(PLAYER)
    return frozenset(roles)


def has_role(user, event: Event, *wanted: str) -> bool:
    if user.is_authenticated and user.is_superuser:
        return True
    return bool(roles_in(user, event) & set(wanted))


def judges_any_event(user) -> bool:
    return user.is_authenticated and (
        user.is_superuser or EventRole.objects.filter(user=user, role=JUDGE).exists()
    )


def visible_event_or_404(user, event_id: int) -> Event:
    """The event, or 404 when ``user`` may not see it: a draft exists only for its organisers."""
    event = get_object_or_404(Event.objects.visible_to(user), pk=event_id)
    show_event_times(event)
    return event


def event_role_required(*wanted: str):
    """View decorator: anonymous users go to log in; users without a role get 403.

    The wrapped view receives the Event instead of its primary key; ``event_roles`` on
    the view names the roles it admits, so a URL module's audience can be checked.
    """

    def decorator(view):
        @wraps(view)
        def wrapper(request, event_id: int, *args, **kwargs):
            event = get_object_or_404(Event, pk=event_id)
            show_event_times(event)
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not has_role(request.user, event, *wanted):
                raise PermissionDenied(
                    _("Only this event's %(who)s may open this page.") % {"who": who_may(wanted)}
                )
            return view(request, event, *args, **kwargs)

        wrapper.event_roles = frozenset(wanted)
        return wrapper

    return decorator


def event_for(request: Request, event_id: int, *roles: str) -> Event:
    """The event ``request`` may use: one of ``roles`` in it, or, with no roles named,
    merely able to see it (``Event.objects.visible_to``: drafts are their organisers').

    404 for no such event; 403 (or "log in first") for a missing role or a draft.
    """
    if roles:
        event = get_object_or_404(Event, pk=event_id)
        _require_role(request, event, roles)
        show_event_times(event)
        return event
    event = Event.objects.visible_to(request.user).filter(pk=event_id).first()
    if event is None:
        get_object_or_404(Event, pk=event_id)  # no such event: 404; else a hidden draft
        if not request.user.is_authenticated:
            raise NotAuthenticated(_("Log in first."))
        who = who_may((ORGANISER,))
        raise ApiPermissionDenied(_("Only this event's %(who)s may do this.") % {"who": who})
    show_event_times(event)
    return event


def _require_role(request: Request, event: Event, roles: tuple[str, ...]) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated(_("Log in first."))
    if not has_role(request.user, event, *roles):
        who = who_may(roles)
        raise ApiPermissionDenied(_("Only this event's %(who)s may do this.") % {"who": who})
