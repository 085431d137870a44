from django.core.management.base import BaseCommand

from precedents.models import Precedent
from precedents.review import flag_changed_rules
from rules_engine import reference


class Command(BaseCommand):
    help = (
        "Flag the precedents citing a rule whose text changed in the rules files (also run "
        "after every migrate); unflag those whose rules read as they were kept again."
    )

    def handle(self, *args, **options) -> None:
        reference.reload()  # the files as they are now, whatever this process read before
        flagged = flag_changed_rules()
        waiting = Precedent.objects.filter(needs_review=True).count()
        self.stdout.write(
            f"{flagged} precedents flagged for review by this run; {waiting} wait for review "
            "in all (/judge/precedents/review/)."
        )
