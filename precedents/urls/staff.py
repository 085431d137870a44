"""Judges and organisers of any event (search), an event's organisers and head judge (marking)."""

urlpatterns: list = []
