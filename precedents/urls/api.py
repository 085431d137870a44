"""API clients: search follows precedents.search.visible_to; import is for site staff."""

urlpatterns: list = []
