"""The rulebook app's URLs (``rulebook:<name>``), one module per audience (see each docstring)."""

from rulebook.urls import api, public, staff

app_name = "rulebook"

urlpatterns = [*api.urlpatterns, *public.urlpatterns, *staff.urlpatterns]
