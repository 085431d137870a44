"""API keys kept as digests: each key of DRF's authtoken table (kept in clear) becomes an
``ApiToken`` row with the key's SHA-256, so the tools that hold those keys keep working,
and the old table is dropped so no clear key is left in the database or its backups."""

import datetime
import hashlib

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone
from django.utils.dateparse import parse_datetime

OLD_TABLE = "authtoken_token"
PREFIX = 8


def aware(value):
    value = parse_datetime(value) if isinstance(value, str) else value
    if value is None:
        return timezone.now()
    return timezone.make_aware(value, datetime.UTC) if timezone.is_naive(value) else value


def hash_clear_keys(apps, connection) -> int:
    """Move the old table's keys in as digests and drop it; how many were moved."""
    if OLD_TABLE not in connection.introspection.table_names():
        return 0
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {q('key')}, {q('user_id')}, {q('created')} FROM {q(OLD_TABLE)}")
        rows = cursor.fetchall()
    ApiToken = apps.get_model("accounts", "ApiToken")
    ApiToken.objects.bulk_create(
        ApiToken(
            user_id=user_id,
            digest=hashlib.sha256(key.encode()).hexdigest(),
            prefix=key[:PREFIX],
            created=aware(created),
        )
        for key, user_id, created in rows
    )
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {q(OLD_TABLE)}")
        # rest_framework.authtoken is no longer installed: forget its migrations too.
        cursor.execute(f"DELETE FROM {q('django_migrations')} WHERE {q('app')} = %s", ["authtoken"])
    return len(rows)


def forwards(apps, schema_editor) -> None:
    hash_clear_keys(apps, schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("digest", models.CharField(max_length=64, unique=True)),
                ("prefix", models.CharField(max_length=8)),
                ("created", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_token",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        # Keys cannot be put back in clear: going back leaves tools to get new ones.
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
