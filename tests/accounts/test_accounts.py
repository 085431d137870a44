"""Sign up, log in, log out, change and reset a password."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail

from tests.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def test_sign_up_creates_the_account_and_logs_in(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newplayer",
            "email": "new@example.org",
            "first_name": "Nia",
            "last_name": "Player",
            "password1": "a-long-unusual-passphrase",
            "password2": "a-long-unusual-passphrase",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert response.context["user"].username == "newplayer"
    # The address is the account's once confirmed (tests/accounts/test_signup_privacy.py).
    assert User.objects.get(username="newplayer").email == ""
    assert [message.to for message in mail.outbox] == [["new@example.org"]]


def test_sign_up_explains_what_is_wrong(client):
    make_user("taken")
    response = client.post(
        "/accounts/signup/",
        {"username": "taken", "email": "taken@example.org", "password1": "x", "password2": "y"},
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "username" in errors and "password2" in errors
    assert "email" not in errors  # whether an account uses an address is never said
    assert User.objects.filter(username="taken").count() == 1


def test_log_in_and_log_out(client):
    make_user("lee")
    response = client.post(
        "/accounts/login/", {"username": "lee", "password": PASSWORD}, follow=True
    )
    assert response.context["user"].is_authenticated
    response = client.post("/accounts/logout/", follow=True)
    assert not response.context["user"].is_authenticated


def test_wrong_password_does_not_log_in(client):
    make_user("lee")
    response = client.post("/accounts/login/", {"username": "lee", "password": "nope"})
    assert response.status_code == 200
    assert not response.context["user"].is_authenticated
    assert response.context["form"].non_field_errors()


def test_change_password(client):
    user = make_user("lee")
    client.force_login(user)
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-long-passphrase",
            "new_password2": "another-long-passphrase",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("another-long-passphrase")


def test_reset_password_by_email_link(client):
    user = make_user("lee")
    client.post("/accounts/password_reset/", {"email": "lee@example.org"})
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    response = client.post(
        form_page.request["PATH_INFO"],
        {"new_password1": "reset-long-passphrase", "new_password2": "reset-long-passphrase"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("reset-long-passphrase")
