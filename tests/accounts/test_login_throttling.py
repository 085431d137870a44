"""Log-in throttling: five failures for one username, from any address, lock that username
out; twenty failures from one address, across usernames, lock that address out. The
address is X-Forwarded-For's only when the connection comes from a proxy of ours."""

import re

import pytest
from django.conf import settings
from django.core import mail
from django.shortcuts import resolve_url
from django.test import Client

from tests.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"
PROXY = "10.9.9.9"
ADDRESS_LIMIT = 20  # AXES_ADDRESS_FAILURE_LIMIT's default


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


def test_other_users_are_not_affected(pat):
    quinn = make_user("quinn")
    fail(5)
    assert_let_in(attempt("quinn", PASSWORD), quinn)
    assert_locked_out(attempt("pat", PASSWORD))


def test_five_failures_for_one_username_from_five_addresses_lock_it_out(pat):
    """An attacker with many addresses still gets five guesses at one account."""
    for n in range(1, 5):
        attempt("pat", address=f"198.51.100.{n}")
    assert_locked_out(attempt("pat", address="198.51.100.5"))
    assert_locked_out(attempt("pat", PASSWORD, address="198.51.100.6"))


def test_failures_across_usernames_from_one_address_lock_that_address_out(pat):
    """Guessing one common password for many accounts is throttled too."""
    quinn = make_user("quinn")
    for n in range(ADDRESS_LIMIT - 1):
        response = attempt(f"someone{n}", address="198.51.100.7")
        assert response.status_code == 200, n
    assert_locked_out(attempt("someone-else", address="198.51.100.7"))
    # Every log-in from that address waits, even with a right password ...
    assert_locked_out(attempt("pat", PASSWORD, address="198.51.100.7"))
    # ... while the same accounts log in from elsewhere.
    assert_let_in(attempt("quinn", PASSWORD, address="198.51.100.8"), quinn)


def test_logging_in_to_ones_own_account_does_not_reset_the_addresss_count(pat):
    """Otherwise an attacker with one real account would log in to it between guesses."""
    mallory = make_user("mallory")
    for n in range(ADDRESS_LIMIT - 2):
        attempt(f"someone{n}", address="198.51.100.7")
    attempt("pat", address="198.51.100.7")
    assert_let_in(attempt("mallory", PASSWORD, address="198.51.100.7"), mallory)
    assert_locked_out(attempt("someone-else", address="198.51.100.7"))
    # and pat's own failure from there still counts towards pat's five
    for n in range(3):
        attempt("pat", address=f"198.51.100.{20 + n}")
    assert_locked_out(attempt("pat", address="198.51.100.30"))


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


@pytest.fixture
def behind_one_proxy(settings):
    """A site configured for one proxy of ours at PROXY (TRUSTED_PROXY_COUNT=1 as it was)."""
    settings.TRUSTED_PROXIES = [PROXY]
    settings.TRUSTED_PROXY_COUNT = 1


def test_a_direct_client_cannot_spoof_x_forwarded_for_behind_a_configured_proxy(
    pat, behind_one_proxy
):
    """The issue's case: 12 wrong passwords, each with another made-up address, from a
    client that is not the proxy; then the right one must not log in."""
    for n in range(12):
        attempt("pat", address="198.51.100.7", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    right = attempt("pat", PASSWORD, address="198.51.100.7", HTTP_X_FORWARDED_FOR="192.0.2.99")
    assert_locked_out(right)


def test_a_direct_client_spreading_guesses_over_made_up_addresses_is_one_address(
    db, behind_one_proxy
):
    """Across usernames too: the spoofed header does not give each guess a fresh address."""
    quinn = make_user("quinn")
    for n in range(ADDRESS_LIMIT):
        attempt(f"someone{n}", address="198.51.100.7", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    spoofed = {"HTTP_X_FORWARDED_FOR": "192.0.2.250"}
    assert_locked_out(attempt("quinn", PASSWORD, address="198.51.100.7", **spoofed))
    assert_let_in(attempt("quinn", PASSWORD, address="198.51.100.8", **spoofed), quinn)


def test_behind_a_trusted_proxy_the_forwarded_client_address_counts(pat, behind_one_proxy):
    for n in range(ADDRESS_LIMIT):  # one client, through the proxy, many usernames
        attempt(f"someone{n}", address=PROXY, HTTP_X_FORWARDED_FOR="spoofed, 203.0.113.5")
    blocked = attempt("pat", PASSWORD, address=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert_locked_out(blocked)
    other_client = attempt("pat", PASSWORD, address=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.6")
    assert_let_in(other_client, pat)


def test_behind_a_trusted_proxy_one_username_is_limited_from_any_client(pat, behind_one_proxy):
    quinn = make_user("quinn")
    for n in range(1, 5):
        attempt("pat", address=PROXY, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
    assert_locked_out(attempt("pat", address=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.5"))
    assert_locked_out(attempt("pat", PASSWORD, address=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.6"))
    assert_let_in(
        attempt("quinn", PASSWORD, address=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.1"), quinn
    )


def test_behind_two_proxies_both_are_skipped(pat, settings):
    """A load balancer (10.0.0.0/24) in front of the TLS proxy: both appended an entry."""
    settings.TRUSTED_PROXIES = [PROXY, "10.0.0.0/24"]
    for n in range(ADDRESS_LIMIT):
        chain = f"192.0.2.{n}, 203.0.113.5, 10.0.0.2"  # made-up, client, load balancer
        attempt(f"someone{n}", address=PROXY, HTTP_X_FORWARDED_FOR=chain)
    chain = "203.0.113.5, 10.0.0.2"
    assert_locked_out(attempt("pat", PASSWORD, address=PROXY, HTTP_X_FORWARDED_FOR=chain))
    chain = "203.0.113.6, 10.0.0.2"
    assert_let_in(attempt("pat", PASSWORD, address=PROXY, HTTP_X_FORWARDED_FOR=chain), pat)


def test_the_test_clients_login_still_works(client, pat):
    """``Client.login`` authenticates without a request: nothing to throttle."""
    assert client.login(username="pat", password=PASSWORD)


def test_choosing_a_new_password_by_e_mail_ends_the_accounts_lock_out(client, pat):
    """Anyone can lock an account out with five wrong guesses; its owner, who can read its
    e-mail, gets back in by resetting the password instead of waiting."""
    for n in range(1, 6):
        attempt("pat", address=f"198.51.100.{n}")  # someone else, from five addresses
    assert_locked_out(attempt("pat", PASSWORD, address="203.0.113.9"))
    client.post(
        "/accounts/password_reset/", {"email": "pat@example.org"}, REMOTE_ADDR="203.0.113.9"
    )
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True, REMOTE_ADDR="203.0.113.9")
    new = {"new_password1": "reset-long-passphrase", "new_password2": "reset-long-passphrase"}
    client.post(form_page.request["PATH_INFO"], new, REMOTE_ADDR="203.0.113.9")
    assert_let_in(attempt("pat", "reset-long-passphrase", address="203.0.113.9"), pat)


def test_a_new_password_does_not_end_an_addresss_lock_out(pat):
    for n in range(ADDRESS_LIMIT):
        attempt(f"someone{n}", address="198.51.100.7")
    Client().post("/accounts/password_reset/", {"email": "pat@example.org"})
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    browser = Client()
    form_page = browser.get(link, follow=True)
    new = {"new_password1": "reset-long-passphrase", "new_password2": "reset-long-passphrase"}
    browser.post(form_page.request["PATH_INFO"], new)
    assert_locked_out(attempt("pat", "reset-long-passphrase", address="198.51.100.7"))
