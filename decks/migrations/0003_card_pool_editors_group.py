"""The "Card pool editors" group, holding decks.edit_card_pool: site staff add people to it.

Django creates model permissions after migrating, so this migration creates the one it
needs (the same row that step would make). Undoing it removes the group only.
"""

from django.db import migrations

GROUP = "Card pool editors"
CODENAME = "edit_card_pool"
PERMISSION_NAME = "Can change the card pool every event shares"


def create_group(apps, schema_editor):
    """The group and its permission, once: running it on a database that has them adds none."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    card_type, _ = ContentType.objects.get_or_create(app_label="decks", model="card")
    permission, _ = Permission.objects.get_or_create(
        content_type=card_type, codename=CODENAME, defaults={"name": PERMISSION_NAME}
    )
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(permission)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("decks", "0002_card_pool_permission_and_revision_author"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
