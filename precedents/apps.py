from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate
from django.utils.translation import gettext_lazy as _lazy


class PrecedentsConfig(AppConfig):
    name = "precedents"
    verbose_name = _lazy("Ruling precedents")

    def ready(self) -> None:
        from precedents.index import forget
        from precedents.review import after_migrate

        post_delete.connect(forget, sender=self.get_model("Precedent"), dispatch_uid="precedents")
        # Deploys migrate after shipping new rules files: precedents resting on a rule
        # whose text changed are flagged then (precedents.review).
        post_migrate.connect(after_migrate, sender=self, dispatch_uid="precedents_review")
