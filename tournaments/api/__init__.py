"""The event API (``/api/v1/``): events, rounds and results; time extensions; the
``arbiter-event/1`` export and import. The same services and permissions as the pages.
"""
