"""Outgoing webhooks: an organiser's URL hears the event's announcements, signed (Standard
Webhooks) or, for a Discord webhook, as readable messages (docs/webhooks.md)."""
