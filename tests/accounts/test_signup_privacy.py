"""Sign-up says nothing about which e-mail addresses have accounts.

Whatever address is typed, the answer is the same: the new account, signed in, and "we
sent a message to <address>". The address becomes the account's once its owner opens the
link in that message; if an account already uses it, its owner is told instead, with a
link to reset their password, and no second account gets it.
"""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail

from tests.conftest import make_user

pytestmark = pytest.mark.django_db

SIGNUP = "/accounts/signup/"
LINK = re.compile(r"http://127\.0\.0\.1:8000(/accounts/\S+/)")


def sign_up(client, username, email):
    return client.post(
        SIGNUP,
        {
            "username": username,
            "email": email,
            "password1": "a-long-unusual-passphrase",
            "password2": "a-long-unusual-passphrase",
        },
    )


def page_after(client, response):
    """Where sign-up sends the person, and the page they see there."""
    assert response.status_code == 302, response.content.decode()[:2000]
    page = client.get(response["Location"]).content.decode()
    return response["Location"], page


def without(page: str, name: str, email: str) -> str:
    """The page with the person's own name and address (which they typed) blanked out;
    the CSRF token differs per session, so it goes too."""
    page = re.sub(r"\b[A-Za-z0-9]{64}\b", "CSRF", page)
    return page.replace(name, "NAME").replace(email, "EMAIL")


def link_in(message, start: str = "/accounts/confirm-email/") -> str:
    """The path of the first link in ``message`` that starts with ``start``."""
    return next(path for path in LINK.findall(message.body) if path.startswith(start))


@pytest.fixture
def pat(db):
    return make_user("pat")  # pat@example.org


def test_signing_up_with_a_taken_address_looks_like_any_sign_up(client, pat, settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    fresh = sign_up(client, "newbie", "new@example.org")
    fresh_location, fresh_page = page_after(client, fresh)
    client.logout()

    taken = sign_up(client, "intruder", "PAT@example.org")
    taken_location, taken_page = page_after(client, taken)

    assert "already" not in taken_page
    assert taken_location == fresh_location
    assert without(taken_page, "intruder", "PAT@example.org") == without(
        fresh_page, "newbie", "new@example.org"
    )
    # Neither account has an address yet; pat's is untouched and is pat's alone.
    assert User.objects.get(username="intruder").email == ""
    assert User.objects.get(username="newbie").email == ""
    assert list(User.objects.filter(email__iexact="pat@example.org")) == [pat]


def test_the_owner_of_a_taken_address_is_told_and_can_reset(client, pat, settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    sign_up(client, "intruder", "pat@example.org")
    [note] = mail.outbox
    assert note.to == ["pat@example.org"]
    assert "tried to sign up" in note.body and "pat" in note.body
    client.logout()
    form = client.get(link_in(note, "/accounts/reset/"), follow=True)
    response = client.post(
        form.request["PATH_INFO"],
        {"new_password1": "reset-long-passphrase", "new_password2": "reset-long-passphrase"},
    )
    assert response.status_code == 302
    pat.refresh_from_db()
    assert pat.check_password("reset-long-passphrase")


def test_a_new_address_is_the_accounts_once_its_link_is_opened(client, db, settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    response = sign_up(client, "newbie", "New@Example.org")
    assert response.status_code == 302
    newbie = User.objects.get(username="newbie")
    [message] = mail.outbox
    assert message.to == ["New@Example.org"]
    link = link_in(message)

    client.logout()  # the link works on another device too
    page = client.get(link)
    assert page.status_code == 200 and "New@Example.org" in page.content.decode()
    newbie.refresh_from_db()
    assert newbie.email == ""  # opening the page changes nothing; its button does
    confirmed = client.post(link)
    assert confirmed.status_code == 302
    newbie.refresh_from_db()
    assert newbie.email == "New@Example.org"


def test_a_changed_link_confirms_nothing(client, db, settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    sign_up(client, "newbie", "new@example.org")
    link = link_in(mail.outbox[0])
    forged = link[:-6] + ("A" if link[-6] != "A" else "B") + link[-5:]
    response = client.post(forged)
    assert response.status_code == 200
    assert "no longer valid" in response.content.decode()
    assert User.objects.get(username="newbie").email == ""


def test_an_address_taken_before_its_link_is_opened_is_not_shared(client, db, settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    sign_up(client, "first", "new@example.org")
    client.logout()
    sign_up(client, "second", "new@example.org")
    first_link, second_link = (link_in(message) for message in mail.outbox)
    assert client.post(first_link).status_code == 302
    refused = client.post(second_link)
    assert "already belongs to an account" in refused.content.decode()
    assert User.objects.get(username="second").email == ""
    assert User.objects.filter(email__iexact="new@example.org").count() == 1


def test_sign_ups_cannot_flood_an_inbox(client, pat, settings):
    """The notes count against the account's password-reset e-mails (3 an hour)."""
    for n in range(6):
        client.logout()
        sign_up(client, f"intruder{n}", "pat@example.org")
    assert len(mail.outbox) == 3
    for n in range(6):
        client.logout()
        sign_up(client, f"newbie{n}", "fresh@example.org")
    assert len(mail.outbox) == 6


def test_a_confirmed_address_receives_password_resets(client, db, settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    sign_up(client, "newbie", "new@example.org")
    client.post(link_in(mail.outbox[0]))
    client.logout()
    client.post("/accounts/password_reset/", {"email": "new@example.org"})
    assert len(mail.outbox) == 2 and mail.outbox[1].to == ["new@example.org"]
    assert "password" in mail.outbox[1].subject.lower()
