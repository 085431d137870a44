from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_big_event"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="audit",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
