"""``manage.py api_token USERNAME [--rotate]``: make a user's API key and print it, once.

Only the key's digest is kept, so an existing key cannot be printed again: ``--rotate``
replaces it (the old one is refused from then on)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts.tokens import TokenExists, issue_token


class Command(BaseCommand):
    help = (
        "Make USERNAME's API token for tools (Authorization: Token <key>) and print it: it "
        "is shown only this once. --rotate replaces an existing one (the old key stops working)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--rotate", action="store_true", help="replace the key (the old one is refused)"
        )

    def handle(self, *args, username: str, rotate: bool, **options) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No account is called {username!r}.")
        if not user.is_active:
            raise CommandError(f"{username!r} is deactivated: its token would be refused.")
        try:
            issued = issue_token(user, rotate=rotate)
        except TokenExists as exists:
            token = exists.args[0]
            raise CommandError(
                f"{username!r} already has an API token (made {token.created:%Y-%m-%d %H:%M} "
                f"UTC, starting {token.prefix}); it is shown only when made. "
                "--rotate replaces it (the old key stops working)."
            ) from None
        self.stdout.write(issued.key)
