"""The event itself: its state changes (create, register, drop, check in), who may do
what in it (roles, and the lookups of an event for pages and the API), what it waits for
next, its venue's clock, and the entries offered to accounts.
"""
