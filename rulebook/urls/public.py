"""Anyone: no decorator; the rules texts are public, like the printed rulebooks."""

from django.urls import path

from rulebook import views

urlpatterns = [
    path("rules/", views.reference_index, name="index"),
    path("rules/<str:game>/", views.reference, name="reference"),
]
