"""``makemessages`` that also reads ``_lazy("…")``: the site's alias for gettext_lazy
(``from django.utils.translation import gettext_lazy as _lazy``), which xgettext would
not know as a translation call."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=_lazy"]
