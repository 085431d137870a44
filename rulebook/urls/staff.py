"""Staff of any event: login_required, then _check_judge (an organiser or judge somewhere)."""

from django.urls import path

from rulebook import views

urlpatterns = [
    path("judge/rule/", views.ruling_page, name="ruling"),
    path("judge/rule/<str:game>/<str:question>/", views.ruling_result, name="ruling_result"),
]
