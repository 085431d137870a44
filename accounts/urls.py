from django.urls import include, path

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("token/", views.api_token, name="api_token"),
    path("", include("django.contrib.auth.urls")),
]
