from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _lazy

from accounts import ratelimit, services


class SignUpForm(UserCreationForm):
    first_name = forms.CharField(max_length=150, required=False, label=_lazy("First name"))
    last_name = forms.CharField(max_length=150, required=False, label=_lazy("Last name"))
    email = forms.EmailField(
        required=True,
        help_text=_lazy(
            "For password resets and event notices, once you confirm it from the"
            " message we send there."
        ),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "first_name", "last_name", "email")

    def clean_email(self) -> str:
        """Whether an account uses the address is not said here (services.sign_up)."""
        return self.cleaned_data["email"].strip()


class LimitedPasswordResetForm(PasswordResetForm):
    """Django's reset form, sending at most settings.PASSWORD_RESET_ACCOUNT_LIMIT e-mails an
    hour to one account; past it the account is skipped as if it did not exist, so the
    page (and its timing, give or take an e-mail) says nothing about who has an account."""

    def get_users(self, email):
        for user in super().get_users(email):
            if ratelimit.hit(services.reset_limit_per_account(), f"user:{user.pk}"):
                yield user


class LoginForm(AuthenticationForm):
    """Django's log-in form, with the username held to its column's length.

    Django's form only sets ``max_length`` on the field (no validator), so any length
    reached ``authenticate`` and django-axes, which stores the name of a failed log-in
    in a 255-character column: a longer one was a 500 on PostgreSQL. Now it is the
    form's error, and no log-in is attempted.
    """

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))
