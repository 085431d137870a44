from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments.event.services import merge_accounts
from web.errors import ServiceError


class Command(BaseCommand):
    help = (
        "Move every event entry of a player's second account to the one they keep, so their "
        "results add up in series. Refused, moving nothing, if both played one event."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("duplicate", help="username of the account to empty")
        parser.add_argument("kept", help="username of the account that keeps the entries")

    def handle(self, *args, duplicate: str, kept: str, **options) -> None:
        users = get_user_model().objects
        accounts = {}
        for name in (duplicate, kept):
            accounts[name] = users.filter(username__iexact=name).first()
            if accounts[name] is None:
                raise CommandError(f"No account is called {name!r}.")
        try:
            moved = merge_accounts(accounts[duplicate], accounts[kept], actor=None)
        except ServiceError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Moved {moved} entries from {duplicate} to {kept}.")
