from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.validators import MaxLengthValidator

from accounts import services


class SignUpForm(UserCreationForm):
    first_name = forms.CharField(max_length=150, required=False, label="First name")
    last_name = forms.CharField(max_length=150, required=False, label="Last name")
    email = forms.EmailField(required=True, help_text="For password resets and event notices.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "first_name", "last_name", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if services.email_in_use(email):
            raise forms.ValidationError(services.EMAIL_TAKEN)
        return email


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
