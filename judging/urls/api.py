"""API clients: IsAuthenticated, then event_for(request, id, ORGANISER, JUDGE) in each view."""

from django.urls import path

from judging import api

urlpatterns = [
    path(
        "api/v1/events/<int:event_id>/penalties/preview/",
        api.PenaltyPreview.as_view(),
        name="api_penalty_preview",
    ),
    path(
        "api/v1/events/<int:event_id>/penalties/", api.PenaltyList.as_view(), name="api_penalties"
    ),
    path(
        "api/v1/penalties/<int:penalty_id>/void/",
        api.PenaltyVoid.as_view(),
        name="api_penalty_void",
    ),
    path("api/v1/events/<int:event_id>/calls/", api.CallList.as_view(), name="api_calls"),
    path("api/v1/calls/<int:call_id>/resolve/", api.CallResolve.as_view(), name="api_call_resolve"),
]
