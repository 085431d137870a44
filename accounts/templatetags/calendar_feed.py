"""``{% my_calendar_url as url %}``: the signed-in account's private calendar address, for
My events (a page of the tournaments app, which imports no other app)."""

from __future__ import annotations

from django import template
from django.urls import reverse

from accounts import calendar_feed

register = template.Library()


@register.simple_tag(takes_context=True)
def my_calendar_url(context) -> str:
    """The address a calendar app must be given (made on first asking)."""
    request = context["request"]
    token = calendar_feed.feed_token(request.user)
    return request.build_absolute_uri(reverse("my_calendar", args=[token]))
