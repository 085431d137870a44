"""Navigation facts every page needs (is this user judging or organising anything?)."""

from django.http import HttpRequest


def navigation(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_is_judge": False}
    from tournaments.roles import judges_any_event

    return {"nav_is_judge": judges_any_event(user)}
