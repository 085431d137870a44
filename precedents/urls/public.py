"""Anyone: no decorator; public precedents carry no names, like the rules pages."""

from django.urls import path

from precedents import views

urlpatterns = [
    path("rules/<str:game>/precedents/", views.public_page, name="public"),
]
