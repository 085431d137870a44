import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.record.history import public_rows


class Command(BaseCommand):
    help = "Print an event's standings (a table, or the contract's JSON rows with --json)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("event_id", type=int)
        parser.add_argument("--json", action="store_true", help="print JSON rows")

    def handle(self, *args, event_id: int, **options) -> None:
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"No event has id {event_id}.")
        rows = public_rows(event)
        if options["json"]:
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=1))
            return
        if not rows:
            self.stdout.write("No standings yet: no round has a result.")
            return
        self.stdout.write(
            f"{'Rank':>4}  {'Player':<30} {'Pts':>4}  {'Record':<8} OMW%   GW%    OGW%"
        )
        for row in rows:
            flags = " (dropped)" if row.get("dropped") else ""
            flags += " (disqualified)" if row.get("disqualified") else ""
            self.stdout.write(
                f"{row['rank']:>4}  {(row['name'] + flags)[:30]:<30} {row['match_points']:>4}  "
                f"{row['record']:<8} {row['omw']:.4f} {row['gw']:.4f} {row['ogw']:.4f}"
            )
