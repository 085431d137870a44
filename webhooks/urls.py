"""Webhooks: the API (IsAuthenticated, then subscriptions.may_manage per webhook) and the
event's organiser page (event_role_required(ORGANISER))."""

from django.urls import path

from webhooks import api, views

app_name = "webhooks"

urlpatterns = [
    path("api/v1/webhooks/", api.WebhookList.as_view(), name="api_list"),
    path("api/v1/webhooks/<int:webhook_id>/", api.WebhookDetail.as_view(), name="api_detail"),
    path(
        "api/v1/webhooks/<int:webhook_id>/deliveries/",
        api.DeliveryList.as_view(),
        name="api_deliveries",
    ),
    path(
        "api/v1/webhooks/<int:webhook_id>/deliveries/<int:delivery_id>/replay/",
        api.DeliveryReplay.as_view(),
        name="api_replay",
    ),
    path("events/<int:event_id>/webhooks/", views.event_webhooks, name="event"),
    path(
        "events/<int:event_id>/webhooks/<int:webhook_id>/<str:action>/",
        views.webhook_action,
        name="action",
    ),
]
