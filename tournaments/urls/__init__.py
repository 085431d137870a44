"""The tournaments app's URLs (``tournaments:<name>``), one module per audience.

Each module's docstring says who its pages are for and which check enforces it.
"""

from tournaments.urls import api, organiser, player, public, staff

app_name = "tournaments"

urlpatterns = [
    *public.urlpatterns,
    *player.urlpatterns,
    *staff.urlpatterns,
    *organiser.urlpatterns,
    *api.urlpatterns,
]
