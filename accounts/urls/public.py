"""Anyone: sign up (a signed-in user is sent home), log in and out, reset a password."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import calendar_views, language_views, views
from accounts.forms import LoginForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("confirm-email/<str:token>/", views.confirm_email, name="confirm_email"),
    path("language/", language_views.set_language, name="set_language"),  # the switcher
    # A player's own events at a secret address (calendar apps cannot log in); any other
    # token is a 404.
    path("calendar/<str:token>.ics", calendar_views.my_calendar, name="my_calendar"),
    # Before Django's own: the reset request, rate-limited ...
    path("password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
    # ... and choosing the new password, which also ends the account's log-in lock-out.
    path(
        "reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    # Django's log-in view with a form that holds the username to its length.
    path("login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    # Django's own views; its password change pages are login_required.
    path("", include("django.contrib.auth.urls")),
]
