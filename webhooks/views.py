"""The event's webhooks page: list, add, delete, turn on again, see deliveries, replay.

Organisers only (``event_role_required(ORGANISER)``); the API does the same for scripts.
Each form writes once (its one-time token) and comes back to the page with a message.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import once
from tournaments.event.roles import ORGANISER, event_role_required
from tournaments.models import Event
from web.errors import ServiceError
from webhooks import announcements, subscriptions
from webhooks.discord import is_discord
from webhooks.listeners import queue
from webhooks.models import Delivery, Subscription

DELIVERIES_SHOWN = 10


def _page(event: Event) -> HttpResponse:
    return redirect("webhooks:event", event.pk)


def _once(request: HttpRequest, event: Event, act: Callable[[], bool]) -> HttpResponse:
    def perform() -> tuple[HttpResponse, bool]:
        return _page(event), act()

    return once.form_once(request, perform, lambda: _page(event))


@event_role_required(ORGANISER)
def event_webhooks(request: HttpRequest, event: Event) -> HttpResponse:
    """GET: the page; POST: add a webhook (``url``, ``description``, ``announcements``)."""
    if request.method == "POST":

        def add() -> bool:
            try:
                subscriptions.subscribe(
                    request.user,
                    url=request.POST.get("url", ""),
                    event=event,
                    chosen=request.POST.getlist("announcements"),
                    description=request.POST.get("description", ""),
                )
            except ServiceError as refusal:
                messages.error(request, refusal.message)
                return False
            messages.success(request, _("Webhook added: its secret is shown below."))
            return True

        return _once(request, event, add)
    latest = Delivery.objects.order_by("-created", "-pk")[:DELIVERIES_SHOWN]
    hooks = list(
        event.webhooks.order_by("created", "pk").prefetch_related(
            Prefetch("deliveries", queryset=latest, to_attr="latest"), "latest__tries"
        )
    )  # three queries, however many webhooks and deliveries
    for hook in hooks:
        hook.discord = is_discord(hook.url)
    context = {"event": event, "hooks": hooks, "kinds": announcements.KINDS}
    return render(request, "webhooks/event_webhooks.html", context)


ACTIONS = ("delete", "enable", "disable", "replay", "test")


@require_POST
@event_role_required(ORGANISER)
def webhook_action(request: HttpRequest, event: Event, webhook_id: int, action: str):
    """Delete, turn on again, turn off, replay a delivery (``delivery``), send a test."""
    if action not in ACTIONS:
        raise Http404(_("No such webhook action."))
    hook = Subscription.objects.filter(event=event, pk=webhook_id).first()
    if hook is None:
        raise Http404(_("No such webhook in this event."))

    def act() -> bool:
        try:
            _do(request, hook, action)
        except ServiceError as refusal:
            messages.error(request, refusal.message)
            return False
        return True

    return _once(request, event, act)


def _do(request: HttpRequest, hook: Subscription, action: str) -> None:
    if action == "delete":
        hook.delete()
        messages.success(request, _("Webhook deleted."))
    elif action == "enable":
        subscriptions.switch_on(hook)
        messages.success(request, _("Webhook turned on again."))
    elif action == "disable":
        hook.active = False
        hook.save(update_fields=["active"])
        messages.success(request, _("Webhook turned off."))
    elif action == "test":
        if not hook.active:
            raise ServiceError(_("Turn the webhook on again before sending anything to it."))
        queue([hook], announcements.ping(hook.event))
        messages.success(request, _("Test message queued."))
    else:
        named = request.POST.get("delivery", "")
        wanted = int(named) if named.isascii() and named.isdigit() and len(named) < 19 else None
        delivery = hook.deliveries.filter(pk=wanted).first() if wanted else None
        if delivery is None:
            raise ServiceError(_("No such delivery of this webhook."))
        subscriptions.replay(delivery)
        messages.success(request, _("Delivery queued to be sent again."))
