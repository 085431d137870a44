from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = _lazy("Webhooks")

    def ready(self) -> None:
        from webhooks import listeners

        listeners.connect()  # the domain's announcements reach subscribed URLs
