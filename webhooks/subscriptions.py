"""Keeping webhook subscriptions: who may, which URLs, which announcements.

The URL is where the worker will POST whatever the event announces, so it passes the
outbound guard now, as it will at each send: https only, no user name, no host written as
a number, and a host that resolves only to public addresses (``localhost.``, a name
pointing at 10.0.0.1, 169.254.169.254 are refused). An operator's own listener is reached
only when ``OUTBOUND_TRUSTED_PRIVATE`` lists its ``host:port``, as for Web Push.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from series.models import Series
from series.services import may_manage as may_manage_series
from tournaments.event.roles import ORGANISER, has_role
from tournaments.models import Event, EventRole
from web import outbound
from web.errors import FieldError, ServiceError
from webhooks import announcements, signing
from webhooks.models import Delivery, Subscription

MAX_URL = 2000
MAX_PER_SCOPE = 10  # URLs one event (or series) may send to


def url_error(url: Any) -> str | None:
    """Why the site will not send to ``url``; None when the guard lets it through."""
    if not isinstance(url, str) or not url.strip():
        return _("Give the URL to send the announcements to.")
    if len(url) > MAX_URL:
        return _("The URL is longer than %(limit)s characters.") % {"limit": MAX_URL}
    try:
        target = outbound.checked_url(url)
        outbound.vetted_address(target.host, target.port)  # as the guard resolves at connect
    except outbound.OutboundRefused as refusal:
        return str(refusal)
    return None


def may_manage(user, subscription: Subscription) -> bool:
    """The event's organisers (or the series' organiser) and site staff."""
    if subscription.event_id is not None:
        return has_role(user, subscription.event, ORGANISER)
    return may_manage_series(user, subscription.series)


def visible_to(user) -> QuerySet[Subscription]:
    """The subscriptions ``user`` may see and change: of the events they organise and the
    series they run (every one, for a superuser)."""
    rows = Subscription.objects.select_related("event", "series", "owner")
    if user.is_superuser:
        return rows
    organised = EventRole.objects.filter(user=user, role=ORGANISER).values("event_id")
    return rows.filter(Q(event_id__in=organised) | Q(series__organiser=user))


def _announcements(chosen: Any) -> list[str]:
    if chosen is None or chosen == []:
        return []
    if not isinstance(chosen, list) or not all(isinstance(k, str) for k in chosen):
        raise ServiceError(_("Give the announcements as a list of names."), "announcements")
    unknown = sorted(set(chosen) - set(announcements.KINDS))
    if unknown:
        raise ServiceError(
            _("Unknown announcements: %(unknown)s (known: %(known)s).")
            % {
                "unknown": ", ".join(json.dumps(k) for k in unknown),  # as sent, escaped
                "known": ", ".join(announcements.KINDS),
            },
            "announcements",
        )
    return sorted(set(chosen))


class NotOrganiser(ServiceError):
    """The caller does not run the event or series named: a 403."""

    status = 403


def _scope(user, event: Event | None, series: Series | None) -> dict[str, Any]:
    if (event is None) == (series is None):
        raise ServiceError(_("Name either an event or a series."), "event")
    if event is not None and not has_role(user, event, ORGANISER):
        raise NotOrganiser(_("Only this event's organisers may add a webhook."), "event")
    if series is not None and not may_manage_series(user, series):
        raise NotOrganiser(_("Only the series' organiser may add a webhook."), "series")
    return {"event": event} if event is not None else {"series": series}


@transaction.atomic
def subscribe(
    user,
    *,
    url: Any,
    event: Event | None = None,
    series: Series | None = None,
    chosen: Any = None,
    description: Any = "",
) -> Subscription:
    """A new subscription owned by ``user``, with a fresh secret; refusals name the field."""
    scope = _scope(user, event, series)
    url = url.strip() if isinstance(url, str) else url
    problems = []
    refusal = url_error(url)
    if refusal:
        problems.append(FieldError(field="url", message=refusal))
    if not isinstance(description, str) or len(description) > 200:
        problems.append(
            FieldError(field="description", message=_("Describe it in at most 200 characters."))
        )
    if problems:
        raise ServiceError.of(problems)
    kinds = _announcements(chosen)
    if Subscription.objects.filter(**scope).count() >= MAX_PER_SCOPE:
        raise ServiceError(
            _("At most %(count)s webhooks per event or series.") % {"count": MAX_PER_SCOPE}, "url"
        )
    return Subscription.objects.create(
        owner=user,
        url=url,
        description=description.strip(),
        announcements=kinds,
        secret=signing.new_secret(),
        **scope,
    )


def switch_on(subscription: Subscription) -> Subscription:
    """Turn a switched-off subscription on again, its failures forgotten."""
    refusal = url_error(subscription.url)
    if refusal:
        raise ServiceError(refusal, "url")
    subscription.active, subscription.failures = True, 0
    subscription.disabled_at, subscription.disabled_reason = None, ""
    subscription.save(update_fields=["active", "failures", "disabled_at", "disabled_reason"])
    return subscription


def replay(delivery: Delivery) -> None:
    """Queue the delivery to be sent again, once the caller's transaction commits."""
    from webhooks.tasks import replay as replay_task

    if not delivery.subscription.active:
        raise ServiceError(_("Turn the webhook on again before sending anything to it."))
    delivery_id = delivery.pk
    transaction.on_commit(lambda: replay_task.delay(delivery_id), robust=True)
