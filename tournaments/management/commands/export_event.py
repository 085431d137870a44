"""``manage.py export_event EVENT_ID``: print an event as an ``arbiter-event/1`` document."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.interchange import export_event
from tournaments.models import Event


class Command(BaseCommand):
    help = (
        "Print an event as arbiter-event/1 JSON (backup, or to move it to another site). "
        "A main event is written with its Day 1 flights (phases); export the main event, "
        "not a flight, to keep them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int, help="the event's id")
        parser.add_argument(
            "--indent", type=int, default=2, help="spaces per indent level; 0 for one line"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        event_id = options["event_id"]
        event = Event.objects.filter(pk=event_id).first() if 0 < event_id < 2**63 else None
        if event is None:
            raise CommandError(f"No event has id {event_id}.")
        indent = options["indent"] or None
        self.stdout.write(json.dumps(export_event(event), indent=indent))
