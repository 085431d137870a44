"""Backups after each round: the event as an ``arbiter-event/1`` snapshot, and the database.

An app of its own because a backup is a listener of the round's close
(``tournaments.signals.round_status_changed``), not a step of closing: the close commits
whether or not a backup can be written.
"""
