"""The player-number migration numbers the registrations already stored: 1, 2, … per
event in registration order, so the prints of an event under way show #1…#n at once."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0009_event_decklist_policy")]
AFTER = [("tournaments", "0010_registration_player_number")]


def test_existing_registrations_are_numbered_per_event_in_registration_order():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    Event = apps.get_model("tournaments", "Event")
    Registration = apps.get_model("tournaments", "Registration")
    first, second = (Event.objects.create(name=n, seed=1) for n in ("First", "Second"))
    for event, names in ((first, ["a", "b", "c"]), (second, ["x", "y"])):
        for name in names:
            Registration.objects.create(event=event, name=name)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    apps = executor.loader.project_state(AFTER).apps
    Registration = apps.get_model("tournaments", "Registration")
    numbered = sorted(Registration.objects.values_list("event__name", "name", "number"))
    assert numbered == [
        ("First", "a", 1),
        ("First", "b", 2),
        ("First", "c", 3),
        ("Second", "x", 1),
        ("Second", "y", 2),
    ]
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
