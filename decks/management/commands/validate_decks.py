import time

from django.core.management.base import BaseCommand, CommandError

from decks.services import revalidate_event
from tournaments.models import Event


class Command(BaseCommand):
    help = "Check every decklist of an event against the current card pool and rules."

    def add_arguments(self, parser) -> None:
        parser.add_argument("event_id", type=int)

    def handle(self, *args, event_id: int, **options) -> None:
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"No event has id {event_id}.")
        started = time.perf_counter()
        counts = revalidate_event(event)
        seconds = time.perf_counter() - started
        self.stdout.write(
            f"{counts['checked']} decklists checked in {seconds:.2f} s: {counts['legal']} legal, "
            f"{counts['checked'] - counts['legal']} not legal, {counts['changed']} changed."
        )
