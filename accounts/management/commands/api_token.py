"""``manage.py api_token USERNAME [--rotate]``: print a user's API key (created if missing)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts.tokens import issue_token


class Command(BaseCommand):
    help = (
        "Print USERNAME's API token for tools (Authorization: Token <key>), creating it if "
        "needed; --rotate replaces it so the old key stops working."
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
        self.stdout.write(issue_token(user, rotate=rotate).key)
