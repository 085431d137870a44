"""Navigation facts every page needs (is this user judging anything?), for the templates."""

from django.http import HttpRequest

from tournaments.event.roles import judges_any_event


def navigation(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_is_judge": False}
    return {"nav_is_judge": judges_any_event(user)}
