from django.urls import path

from rulebook import api, views

app_name = "rulebook"

urlpatterns = [
    path("api/v1/rules/", api.RulesCatalogue.as_view(), name="api_catalogue"),
    path("api/v1/rules/<str:game>/<str:question>/", api.Adjudicate.as_view(), name="api_rule"),
    path("rules/", views.reference_index, name="index"),
    path("rules/<str:game>/", views.reference, name="reference"),
    path("judge/rule/", views.ruling_page, name="ruling"),
    path("judge/rule/<str:game>/<str:question>/", views.ruling_result, name="ruling_result"),
]
