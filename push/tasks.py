"""Celery finds an app's tasks in its ``tasks`` module: the pairing pushes."""

from __future__ import annotations

import logging

from celery import shared_task
from django.urls import reverse

from push import config, sender
from push.models import PushSubscription
from tournaments.models import Round
from tournaments.rounds.my_match import seat_text
from web import outbound

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def send_pairing_pushes(round_id: int) -> int:
    """Send each seated player of the round with a subscription their seat; how many
    messages the push services took. A round gone or re-paired since is read as it is now."""
    if not config.enabled():
        return 0
    round_ = Round.objects.select_related("event").filter(pk=round_id).first()
    if round_ is None:
        return 0
    event = round_.event
    seats = {}
    matches = round_.matches.select_related("player_a__user", "player_b__user")
    for match in matches:
        for me in match.players():
            if me.user_id is not None:
                seats[me.user_id] = (match, me)
    if not seats:
        return 0
    url = reverse("tournaments:my_match", args=[event.pk])
    taken = 0
    subscribed = PushSubscription.objects.filter(user_id__in=seats).order_by("pk")
    with outbound.session() as session:
        for subscription in subscribed:
            match, me = seats[subscription.user_id]
            message = sender.Message(
                title=event.name,
                body=seat_text(match, me),
                url=url,
                tag=f"arbiter-{event.pk}-pairing",
            )
            taken += sender.send(subscription, message, session)
    logger.info("round %s: %s pairing pushes taken of %s", round_id, taken, len(seats))
    return taken
