"""API clients: search follows precedents.search.visible_to; import is for site staff."""

from django.urls import path

from precedents import api

urlpatterns = [
    path("api/v1/precedents/", api.PrecedentSearchView.as_view(), name="api_search"),
    path("api/v1/precedents/export/", api.PrecedentExportView.as_view(), name="api_export"),
    path("api/v1/precedents/import/", api.PrecedentImportView.as_view(), name="api_import"),
]
