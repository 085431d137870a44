"""Celery tasks of the judge roster: a call or dispute unanswered reaches every judge
(``judging.routing``)."""

from celery import shared_task

from judging import routing


@shared_task(name="judging.escalate_alert")
def escalate_alert(alert_id: int) -> bool:
    """Escalate one alert whose time is up (sent with a countdown when it was raised)."""
    return routing.escalate(alert_id)


@shared_task(name="judging.escalate_due")
def escalate_due() -> int:
    """Beat's safety net: escalate every alert whose own task was lost."""
    return routing.escalate_due()
