from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _lazy("Accounts")

    def ready(self) -> None:
        from accounts import checks  # noqa: F401  (registers the start-up checks)
