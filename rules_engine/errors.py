"""Errors the engine raises; the HTTP layer maps them to 400/404."""

from __future__ import annotations


class UnknownGame(LookupError):
    """The game slug is not one Arbiter ships."""


class UnknownQuestion(LookupError):
    """The game exists but has no question with that slug."""


class PayloadError(ValueError):
    """A payload that does not fit its question.

    Carries *every* problem found, each as ``{"field": "dice[2]", "message": "..."}``,
    so a judge fixes the form once instead of once per error.
    """

    def __init__(self, errors: list[dict[str, str]]):
        self.errors = list(errors)
        super().__init__("; ".join(f"{e['field']}: {e['message']}" for e in self.errors))

    @classmethod
    def single(cls, field: str, message: str) -> PayloadError:
        return cls([{"field": field, "message": message}])
