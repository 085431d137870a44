"""Password-reset requests are limited per client address and per account, and the answer
never tells whether an account uses the address typed in.

Per account: at most RESETS_PER_ACCOUNT e-mails an hour; further requests get the same
"check your e-mail" page as any other, and nothing is sent. Per client address: at most
RESETS_PER_ADDRESS requests an hour, whatever address they name; then a 429 page, the same
for an address in use and one that is not. The client address is X-Forwarded-For's only
when the request comes from a proxy of ours.
"""

import pytest
from django.core import mail

from tests.conftest import make_user

pytestmark = pytest.mark.django_db

RESET = "/accounts/password_reset/"
DONE = "/accounts/password_reset/done/"
PROXY = "10.9.9.9"
RESETS_PER_ADDRESS = 5  # PASSWORD_RESET_ADDRESS_LIMIT's default
RESETS_PER_ACCOUNT = 3  # PASSWORD_RESET_ACCOUNT_LIMIT's default


def ask(client, email, address="198.51.100.7", **headers):
    return client.post(RESET, {"email": email}, REMOTE_ADDR=address, **headers)


def assert_neutral(response):
    """The page everyone gets: "if an account uses that address, we sent it a link"."""
    assert response.status_code == 302
    assert response["Location"] == DONE


def assert_refused(response):
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many password-reset requests" in page
    assert int(response["Retry-After"]) > 0


@pytest.fixture
def lee(db):
    return make_user("lee")


def test_fifteen_requests_for_one_account_send_three_emails(client, lee):
    """The issue's case: 15 requests (here from 15 addresses, so only the account's limit
    applies) used to send 15 e-mails."""
    for n in range(15):
        assert_neutral(ask(client, "lee@example.org", address=f"198.51.100.{n + 1}"))
    assert len(mail.outbox) == RESETS_PER_ACCOUNT
    assert {message.to[0] for message in mail.outbox} == {"lee@example.org"}


def test_a_limited_account_looks_like_no_account(client, lee):
    for n in range(RESETS_PER_ACCOUNT):
        ask(client, "lee@example.org", address=f"198.51.100.{n + 1}")
    over_the_limit = ask(client, "lee@example.org", address="198.51.100.50")
    no_account = ask(client, "nobody@example.org", address="198.51.100.51")
    assert_neutral(over_the_limit)
    assert_neutral(no_account)
    assert len(mail.outbox) == RESETS_PER_ACCOUNT


def test_the_account_limit_counts_the_account_not_the_spelling(client, lee):
    for n, spelling in enumerate(["lee@example.org", "LEE@example.org", " Lee@Example.org"]):
        ask(client, spelling, address=f"198.51.100.{n + 1}")
    ask(client, "lee@EXAMPLE.ORG", address="198.51.100.9")
    assert len(mail.outbox) == RESETS_PER_ACCOUNT


def test_one_address_gets_five_requests_an_hour_whatever_it_asks_for(client, db):
    for n in range(RESETS_PER_ADDRESS):
        make_user(f"user{n}")
        assert_neutral(ask(client, f"user{n}@example.org"))
    make_user("user9")
    assert_refused(ask(client, "user9@example.org"))
    assert_refused(ask(client, "nobody@example.org"))  # the same for an unknown address
    assert len(mail.outbox) == RESETS_PER_ADDRESS
    assert_neutral(ask(client, "user9@example.org", address="198.51.100.8"))  # elsewhere
    assert len(mail.outbox) == RESETS_PER_ADDRESS + 1


def test_a_made_up_x_forwarded_for_from_a_direct_client_is_ignored(client, db, settings):
    settings.TRUSTED_PROXIES = [PROXY]
    for n in range(RESETS_PER_ADDRESS):
        ask(client, f"user{n}@example.org", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    assert_refused(ask(client, "nobody@example.org", HTTP_X_FORWARDED_FOR="192.0.2.99"))


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit(client, db, settings):
    settings.TRUSTED_PROXIES = [PROXY]
    for n in range(RESETS_PER_ADDRESS):
        chain = f"192.0.2.{n}, 203.0.113.5"  # made-up, then the client the proxy saw
        assert_neutral(ask(client, f"user{n}@example.org", PROXY, HTTP_X_FORWARDED_FOR=chain))
    limited = ask(client, "nobody@example.org", PROXY, HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert_refused(limited)
    other = ask(client, "nobody@example.org", PROXY, HTTP_X_FORWARDED_FOR="203.0.113.6")
    assert_neutral(other)


def test_a_form_with_no_address_is_not_counted(client, db):
    for _ in range(RESETS_PER_ADDRESS + 2):
        response = client.post(RESET, {"email": ""}, REMOTE_ADDR="198.51.100.7")
        assert response.status_code == 200
    assert_neutral(ask(client, "nobody@example.org"))


def test_with_the_cache_down_resets_are_not_refused(client, lee, settings):
    """The limits live in the cache; without it, e-mails go out rather than nobody's."""
    settings.CACHES = {
        "default": {
            "BACKEND": "web.cache.ResilientRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    for _ in range(RESETS_PER_ADDRESS + 1):
        assert_neutral(ask(client, "lee@example.org"))
    assert len(mail.outbox) == RESETS_PER_ADDRESS + 1
