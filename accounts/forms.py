from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

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
