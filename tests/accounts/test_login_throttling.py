"""Log-in throttling: five failures for one username from one address lock that pair out."""

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client

from tests.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"


def attempt(username, password="wrong-password", address="10.0.0.1", url=LOGIN, **headers):
    return Client().post(
        url, {"username": username, "password": password}, REMOTE_ADDR=address, **headers
    )


def fail(times, username="pat", **kwargs):
    """``times`` wrong passwords; the fifth is answered with the lock-out page."""
    for n in range(1, times + 1):
        response = attempt(username, **kwargs)
        if n >= 5:
            assert_locked_out(response)
        else:  # up to the fourth: the form again, with its error
            assert response.status_code == 200, n
            assert "correct username and password" in response.content.decode()
            assert "_auth_user_id" not in response.client.session


def assert_let_in(response, user):
    """Signed in as ``user`` and sent on to the start page."""
    assert response.status_code == 302
    assert response["Location"] == resolve_url(settings.LOGIN_REDIRECT_URL)
    assert response.client.session["_auth_user_id"] == str(user.pk)


def assert_locked_out(response):
    """The lock-out page, and nobody signed in."""
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.content.decode()
    assert "_auth_user_id" not in response.client.session


@pytest.fixture
def pat(db):
    return make_user("pat")


def test_after_five_failures_even_the_right_password_is_locked_out(pat):
    fail(5)
    response = attempt("pat", PASSWORD)
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed log-ins" in page and "15 minutes" in page
    assert response["Retry-After"] == "900"
    assert "_auth_user_id" not in response.client.session


def test_four_failures_still_let_the_right_password_in(pat):
    fail(4)
    assert_let_in(attempt("pat", PASSWORD), pat)


def test_a_successful_log_in_resets_the_count(pat):
    fail(4)
    assert_let_in(attempt("pat", PASSWORD), pat)
    fail(4)
    assert_let_in(attempt("pat", PASSWORD), pat)


def test_other_users_and_other_addresses_are_not_affected(pat):
    quinn = make_user("quinn")
    fail(5)
    assert_let_in(attempt("quinn", PASSWORD), quinn)
    assert_let_in(attempt("pat", PASSWORD, address="10.0.0.2"), pat)
    assert_locked_out(attempt("pat", PASSWORD))


def test_the_admin_log_in_is_throttled_too(db):
    make_user("root", is_staff=True, is_superuser=True)
    fail(5, "root", url=ADMIN_LOGIN)
    assert_locked_out(attempt("root", PASSWORD, url=ADMIN_LOGIN))
    assert_locked_out(attempt("root", PASSWORD))  # the same account on the site form


def test_x_forwarded_for_is_ignored_without_a_trusted_proxy(pat):
    """Otherwise an attacker would send a new made-up address with every guess."""
    for n in range(5):
        attempt("pat", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert_locked_out(attempt("pat", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99"))


def test_behind_a_trusted_proxy_the_forwarded_client_address_counts(pat, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.9.9.9"  # every request arrives from the proxy
    for _ in range(5):
        attempt("pat", address=proxy, HTTP_X_FORWARDED_FOR="spoofed, 203.0.113.5")
    blocked = attempt("pat", PASSWORD, address=proxy, HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert_locked_out(blocked)
    other_client = attempt("pat", PASSWORD, address=proxy, HTTP_X_FORWARDED_FOR="203.0.113.6")
    assert_let_in(other_client, pat)


def test_the_test_clients_login_still_works(client, pat):
    """``Client.login`` authenticates without a request: nothing to throttle."""
    assert client.login(username="pat", password=PASSWORD)
