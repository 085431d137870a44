"""API clients, anyone: the public standings, as the series page shows them."""

from django.urls import path

from series import api

urlpatterns = [
    path("api/v1/series/", api.SeriesList.as_view(), name="api_list"),
    path("api/v1/series/<int:series_id>/", api.SeriesDetail.as_view(), name="api_detail"),
]
