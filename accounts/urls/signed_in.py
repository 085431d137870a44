"""Signed-in users, for their own account: login_required."""

from django.urls import path

from accounts import calendar_views, views

urlpatterns = [
    path("token/", views.api_token, name="api_token"),
    path("calendar/new/", calendar_views.new_calendar_address, name="new_calendar_address"),
]
