"""The precedents app's URLs (``precedents:<name>``), one module per audience."""

from precedents.urls import api, public, review, staff

app_name = "precedents"

urlpatterns = [*api.urlpatterns, *public.urlpatterns, *staff.urlpatterns, *review.urlpatterns]
