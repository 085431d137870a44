"""What the metagame announces (docs/architecture.md, "Signals").

metagame_changed: the organiser renamed, merged, split or moved archetypes, or changed
whether the shares are shown after the event. Keyword arguments: ``event_id`` (int),
``action`` (str: "name", "merge", "unmerge", "move", "unmove", "sharing"). Sender:
``MetagameSettings``. Sent once, on commit, by ``metagame_site.services``. Nobody
listens yet: cached reports are keyed on the settings' version, not cleared by a listener.
"""

from django.dispatch import Signal

metagame_changed = Signal()
