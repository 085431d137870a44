"""Anyone: no decorator; public precedents carry no names, like the rules pages."""

urlpatterns: list = []
