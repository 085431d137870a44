"""Anyone, signed in or not: the standings count only events that are not drafts."""

from django.urls import path

from series import views

urlpatterns = [
    path("series/", views.series_list, name="list"),
    path("series/<int:series_id>/", views.series_detail, name="detail"),
    path("series/<int:series_id>/standings.csv", views.series_csv, name="csv"),
    path("series/<int:series_id>/standings.pdf", views.series_pdf, name="pdf"),
    path("series/<int:series_id>/players/<str:player>/", views.series_player, name="player"),
]
