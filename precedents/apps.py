from django.apps import AppConfig
from django.db.models.signals import post_delete
from django.utils.translation import gettext_lazy as _lazy


class PrecedentsConfig(AppConfig):
    name = "precedents"
    verbose_name = _lazy("Ruling precedents")

    def ready(self) -> None:
        from precedents.index import forget

        post_delete.connect(forget, sender=self.get_model("Precedent"), dispatch_uid="precedents")
