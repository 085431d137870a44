"""API clients, anyone: AllowAny; the rules engine answers questions, it keeps nothing."""

from django.urls import path

from rulebook import api

urlpatterns = [
    path("api/v1/rules/", api.RulesCatalogue.as_view(), name="api_catalogue"),
    path("api/v1/rules/<str:game>/<str:question>/", api.Adjudicate.as_view(), name="api_rule"),
]
