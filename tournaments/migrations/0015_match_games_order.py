from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_event_self_check_in"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="games_in_order",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "Whether games lists each game's winner in the order played (a game-by-game "
                    "report); otherwise only the score is known, in score order."
                ),
            ),
        ),
    ]
