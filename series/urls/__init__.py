"""Series URLs: public pages and API first, then the organiser's (each view checks
``series.services.may_manage``)."""

from django.urls import path

from series import api, views

app_name = "series"

urlpatterns = [
    path("series/", views.series_list, name="list"),
    path("series/new/", views.series_create, name="create"),
    path("series/<int:series_id>/", views.series_detail, name="detail"),
    path("series/<int:series_id>/standings.csv", views.series_csv, name="csv"),
    path("series/<int:series_id>/standings.pdf", views.series_pdf, name="pdf"),
    path("series/<int:series_id>/players/<str:player>/", views.series_player, name="player"),
    path("series/<int:series_id>/edit/", views.series_edit, name="edit"),
    path("series/<int:series_id>/manage/", views.series_manage, name="manage"),
    path("series/<int:series_id>/events/<str:action>/", views.series_event, name="event"),
    path("series/<int:series_id>/merge/", views.series_merge, name="merge"),
    path("api/v1/series/", api.SeriesList.as_view(), name="api_list"),
    path("api/v1/series/<int:series_id>/", api.SeriesDetail.as_view(), name="api_detail"),
]
