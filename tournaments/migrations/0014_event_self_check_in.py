from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_answeredrequest"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="self_check_in_opens",
            field=models.DateTimeField(
                blank=True,
                help_text=(
                    "From this time until round 1 is paired, registered players can check "
                    "themselves in on the event's page or My match. Empty: only the organiser "
                    "checks players in."
                ),
                null=True,
            ),
        ),
    ]
