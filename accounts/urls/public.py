"""Anyone: sign up (a signed-in user is sent home), log in and out, reset a password."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import views
from accounts.forms import LoginForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # Django's log-in view with a form that holds the username to its length.
    path("login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    # Django's own views; its password change pages are login_required.
    path("", include("django.contrib.auth.urls")),
]
