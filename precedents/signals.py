"""What the precedents app announces, once, on commit (docs/architecture.md).

``precedent_changed(precedent_id, action)``: a ruling was marked a precedent, marked
not to be followed, or had its appeal's outcome recorded (``action``: ``"marked"`` or
``"appeal"``), ``"imported"`` (it came in from another site's export: sent once for each
precedent an import added, none for those it found here already, by
``precedents.exchange.import_set``) or ``"reviewed"`` (a head judge read it against a
changed rules text). The search index is written in the change's own transaction
(precedents.index), not by a listener, so a search never sees a precedent without it;
live notices and webhooks may listen.
"""

from django.dispatch import Signal

precedent_changed = Signal()
