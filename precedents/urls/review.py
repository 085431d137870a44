"""Precedents whose cited rules changed: the head judge of the ruling's event, or site staff."""

from django.urls import path

from precedents import review_views

urlpatterns = [
    path("judge/precedents/review/", review_views.review_list, name="review"),
    path(
        "judge/precedents/<uuid:uid>/review/",
        review_views.accept_review,
        name="accept_review",
    ),
]
