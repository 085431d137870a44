"""Signed-in users, for their own account: login_required."""

from django.urls import path

from accounts import views

urlpatterns = [
    path("token/", views.api_token, name="api_token"),
]
