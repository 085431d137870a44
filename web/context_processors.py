"""Navigation facts every page needs (is this user judging or organising anything?)."""

from django.http import HttpRequest


def navigation(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_is_judge": False}
    from tournaments.roles import judges_any_event

    return {"nav_is_judge": judges_any_event(user)}


def local_times(request: HttpRequest) -> dict:
    """The venue's zone named on a page whose times are in it (``tournaments.local_time``)."""
    from tournaments.local_time import venue_zone_shown, zone_caption

    zone = venue_zone_shown()
    return {"venue_zone": zone_caption(zone) if zone else ""}
