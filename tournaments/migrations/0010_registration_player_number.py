"""Every registration gets its event's short player number (#1, #2, …), in registration
order, so pages and prints can tell two players of the same name apart without showing
an internal id."""

from django.db import migrations, models


def number_existing(apps, schema_editor):
    """Number each event's registrations 1, 2, … in the order they registered."""
    Registration = apps.get_model("tournaments", "Registration")
    event_ids = Registration.objects.values_list("event_id", flat=True).distinct()
    for event_id in event_ids.iterator():
        rows = Registration.objects.filter(event_id=event_id).order_by("registered_at", "pk")
        numbered = []
        for number, registration in enumerate(rows.only("pk"), start=1):
            registration.number = number
            numbered.append(registration)
        Registration.objects.bulk_update(numbered, ["number"], batch_size=500)


class Migration(migrations.Migration):
    # PostgreSQL refuses to alter a table with row changes pending in the same
    # transaction: the numbering commits on its own before the constraint is added.
    atomic = False

    dependencies = [
        ("tournaments", "0009_event_decklist_policy"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="number",
            field=models.PositiveIntegerField(
                blank=True,
                editable=False,
                help_text="The player's short number in this event (#1, #2, … in registration order).",
                null=True,
            ),
        ),
        migrations.RunPython(number_existing, migrations.RunPython.noop, atomic=True),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.UniqueConstraint(
                fields=("event", "number"), name="one_player_number_per_event"
            ),
        ),
    ]
