from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class MetagameSiteConfig(AppConfig):
    name = "metagame_site"
    verbose_name = _lazy("Metagame")
