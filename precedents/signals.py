"""What the precedents app announces, once, on commit (docs/architecture.md).

``precedent_changed(precedent_id, action)``: a ruling was marked a precedent, marked
not to be followed, or had its appeal's outcome recorded (``action``: ``"marked"`` or
``"appeal"``), ``"imported"`` (it came in from another site's export: sent once for each
precedent an import added, none for those it found here already, by
``precedents.exchange.import_set``) or ``"reviewed"`` (a head judge read it against a
changed rules text). The search index is written in the change's own transaction
(precedents.index), not by a listener, so a search never sees a precedent without it;
live notices and webhooks may listen.

``action="flagged"`` is sent once per run of ``precedents.review.flag_changed_rules`` (after
a ``migrate``, or ``manage.py review_precedents``), not once per precedent: a new rules file
may touch thousands of precedents at once. It is sent only when the run wrote something,
with ``precedent_id=None``, ``precedent_ids`` (every precedent whose review changed:
flagged, flagged with other texts, or unflagged because its rules read as kept again) and
``count`` (how many of them are now flagged).
"""

from django.dispatch import Signal

precedent_changed = Signal()
