"""Times as machines read them on a page: ``<time datetime="{{ moment|html_datetime }}">``.

Django's ``c`` format writes microseconds (``08:01:12.348977``), which no valid HTML
date/time string has (a fraction of a second has at most three digits), so a browser or
a screen reader cannot read it. Loaded as ``{% load html_time %}`` (``TEMPLATES``'
``libraries``): the kernel is not an app.
"""

from __future__ import annotations

import datetime

from django import template
from django.utils import timezone

register = template.Library()


@register.filter
def html_datetime(moment: datetime.datetime | datetime.date | None) -> str:
    """``moment`` as a valid HTML global date and time, to the second, in the page's zone
    with its offset (``2026-12-05T17:09:08+09:00``); a date as a date; "" for none."""
    if moment is None or moment == "":
        return ""
    if not isinstance(moment, datetime.datetime):
        return moment.isoformat() if isinstance(moment, datetime.date) else ""
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return moment.replace(microsecond=0).isoformat()
