"""The decks app's URLs (``decks:<name>``), one module per audience (see each docstring)."""

from decks.urls import api, organiser, player, public, signed_in, staff

app_name = "decks"

urlpatterns = [
    *public.urlpatterns,
    *player.urlpatterns,
    *signed_in.urlpatterns,
    *staff.urlpatterns,
    *organiser.urlpatterns,
    *api.urlpatterns,
]
