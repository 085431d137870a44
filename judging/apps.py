from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class JudgingConfig(AppConfig):
    name = "judging"
    verbose_name = _lazy("Judging")

    def ready(self) -> None:
        """The players are told of penalties at their table on My match; a dispute goes
        to its zone's judges first (judging.routing)."""
        from judging.notices import penalty_notices
        from judging.routing import dispute_changed
        from tournaments import signals
        from tournaments.results.notices import add_source

        add_source(penalty_notices)
        signals.result_changed.connect(dispute_changed, dispatch_uid="judging.routing.dispute")
