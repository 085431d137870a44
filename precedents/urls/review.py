"""Precedents whose cited rules changed: the head judge of the ruling's event, or site staff."""

urlpatterns: list = []
