"""The app's root files (manifest, service worker) and push subscriptions."""

from django.urls import path

from push import views

app_name = "push"

urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    # Logged in: a browser's PushSubscription.toJSON() as the body.
    path("push/subscribe/", views.subscribe, name="subscribe"),
    path("push/unsubscribe/", views.unsubscribe, name="unsubscribe"),
]
