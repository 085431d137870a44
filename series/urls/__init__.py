"""The series app's URLs (``series:<name>``), one module per audience.

Each module's docstring says who its pages are for and which check enforces it.
"""

from series.urls import api, organiser, public, signed_in

app_name = "series"

urlpatterns = [
    *public.urlpatterns,
    *signed_in.urlpatterns,
    *organiser.urlpatterns,
    *api.urlpatterns,
]
