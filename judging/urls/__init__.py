"""The judging app's URLs (``judging:<name>``), one module per audience (see each docstring)."""

from judging.urls import api, player, staff

app_name = "judging"

urlpatterns = [*staff.urlpatterns, *player.urlpatterns, *api.urlpatterns]
