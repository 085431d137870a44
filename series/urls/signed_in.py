"""Any signed-in user (login_required): a new series holds only events its creator organises."""

from django.urls import path

from series import views

urlpatterns = [
    path("series/new/", views.series_create, name="create"),
]
