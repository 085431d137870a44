"""The series' organiser (or site staff): each view checks series.services.may_manage."""

from django.urls import path

from series import views

urlpatterns = [
    path("series/<int:series_id>/edit/", views.series_edit, name="edit"),
    path("series/<int:series_id>/manage/", views.series_manage, name="manage"),
    path("series/<int:series_id>/events/<str:action>/", views.series_event, name="event"),
    path("series/<int:series_id>/merge/", views.series_merge, name="merge"),
    path(
        "series/<int:series_id>/offers/<int:offer_id>/withdraw/",
        views.series_withdraw_offer,
        name="withdraw_offer",
    ),
]
