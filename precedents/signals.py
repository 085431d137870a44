"""What the precedents app announces, once, on commit (docs/architecture.md).

``precedent_changed(precedent_id, action)``: a ruling was marked a precedent, marked
not to be followed, or had its appeal's outcome recorded (``action``: ``"marked"`` or
``"appeal"``). Search indexes and, later, exports listen; the service never calls them.
"""

from django.dispatch import Signal

precedent_changed = Signal()
