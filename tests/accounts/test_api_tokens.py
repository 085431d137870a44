"""API tokens for tools: the account page, the command, and what the API does with them.

Keys are kept as digests: shown once when made, never stored, never shown again.
"""

import importlib
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client

from accounts import tokens
from accounts.models import ApiToken
from tests.conftest import make_user
from tests.tournaments.test_round_lifecycle import make_event
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def test_the_token_page_needs_a_login(client):
    response = client.get("/accounts/token/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/accounts/token/")
    assert client.post("/accounts/token/", {"action": "create"}).status_code == 302
    assert not ApiToken.objects.exists()


def test_create_regenerate_and_revoke_from_the_page(login, organiser):
    client = login(organiser)
    page = client.get("/accounts/token/")
    assert b"You have no API token" in page.content

    made = client.post("/accounts/token/", {"action": "create"})
    first = shown_key(made)
    assert f"Authorization: Token {first}" in made.content.decode()
    assert "no-store" in made["Cache-Control"]  # no browser or proxy keeps the page
    assert api_status(first) == 200

    client.post("/accounts/token/", {"action": "regenerate"})
    assert ApiToken.objects.filter(user=organiser).count() == 1
    assert api_status(first) == 403  # the old key stops working at once

    response = client.post("/accounts/token/", {"action": "revoke"}, follow=True)
    assert not ApiToken.objects.filter(user=organiser).exists()
    assert b"revoked" in response.content


def shown_key(response) -> str:
    """The key the page shows in its one showing."""
    assert response.status_code == 200
    page = response.content.decode()
    start = page.index('id="api-token-key"')
    value = page.index('value="', start) + len('value="')
    return page[value : page.index('"', value)]


def api_status(key: str) -> int:
    return Client().get("/api/v1/events/", HTTP_AUTHORIZATION=f"Token {key}").status_code


def test_the_key_is_shown_once_and_the_database_keeps_only_its_digest(login, organiser):
    client = login(organiser)
    key = shown_key(client.post("/accounts/token/", {"action": "create"}))
    assert len(key) == 40
    assert api_status(key) == 200  # the key shown once is the one the API accepts

    page = client.get("/accounts/token/").content.decode()
    token = ApiToken.objects.get(user=organiser)
    assert key not in page  # never shown again: only that it exists, and how it starts
    assert token.prefix == key[:8] and token.prefix in page
    assert "You have an API token" in page
    again = client.post("/accounts/token/", {"action": "create"}, follow=True)
    assert key not in again.content.decode()  # a second "create" does not show it either
    assert ApiToken.objects.get(user=organiser).digest == token.digest

    assert token.digest == tokens.digest(key) != key
    assert key not in database_text()


def database_text() -> str:
    """Every value of every table, as text: a clear key anywhere would be in it."""
    values = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            values += [str(value) for row in cursor.fetchall() for value in row]
    return "\n".join(values)


def test_the_page_refuses_a_post_without_csrf(organiser):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    response = client.post("/accounts/token/", {"action": "create"})
    assert response.status_code == 403
    assert "CSRF" in response.content.decode()
    assert not ApiToken.objects.exists()


def test_the_nav_links_to_the_token_page(login, organiser):
    assert b'href="/accounts/token/"' in login(organiser).get("/").content


def test_a_token_authenticated_post_needs_no_csrf(organiser):
    event = make_event(organiser, 4)
    key = tokens.issue_token(organiser).key
    tool = Client(enforce_csrf_checks=True)
    response = tool.post(f"/api/v1/events/{event.pk}/rounds/", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 201, response.content
    assert Round.objects.filter(event=event).count() == 1


def test_a_session_post_without_csrf_is_still_refused(organiser):
    """The token is what lifts the CSRF check, not the API itself."""
    event = make_event(organiser, 4)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(organiser)
    response = browser.post(f"/api/v1/events/{event.pk}/rounds/")
    assert response.status_code == 403
    assert "CSRF" in response.json()["errors"][0]["message"]
    assert not Round.objects.filter(event=event).exists()


def test_a_revoked_token_is_refused_with_a_message(organiser):
    event = make_event(organiser, 4)
    key = tokens.issue_token(organiser).key
    ApiToken.objects.filter(user=organiser).delete()
    response = Client().post(
        f"/api/v1/events/{event.pk}/rounds/", HTTP_AUTHORIZATION=f"Token {key}"
    )
    assert response.status_code in (401, 403)
    message = response.json()["errors"][0]["message"]
    assert "not valid" in message and "/accounts/token/" in message
    assert not Round.objects.exists()


def test_a_deactivated_users_token_is_refused(organiser):
    key = tokens.issue_token(organiser).key
    organiser.is_active = False
    organiser.save()
    response = Client().get("/api/v1/events/", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code in (401, 403)
    assert "deactivated" in response.json()["errors"][0]["message"]


def test_the_command_prints_the_key_once_and_rotates_it(organiser):
    out = StringIO()
    call_command("api_token", "olive", stdout=out)
    key = out.getvalue().strip()
    assert api_status(key) == 200
    assert ApiToken.objects.get(user=organiser).digest == tokens.digest(key)

    with pytest.raises(CommandError, match="shown only when made") as refused:
        call_command("api_token", "olive", stdout=StringIO())
    assert key not in str(refused.value) and key[:8] in str(refused.value)

    rotated = StringIO()
    call_command("api_token", "olive", "--rotate", stdout=rotated)
    assert rotated.getvalue().strip() not in ("", key)
    assert api_status(key) == 403
    assert api_status(rotated.getvalue().strip()) == 200


def test_the_command_names_an_unknown_user():
    make_user("someone")
    with pytest.raises(CommandError, match="nobody"):
        call_command("api_token", "nobody")


def test_keys_kept_in_clear_before_are_hashed_and_keep_working(organiser):
    """The migration: DRF's authtoken table (clear keys) becomes digests and is dropped."""
    migration = importlib.import_module("accounts.migrations.0002_api_tokens_hashed")
    key = "0123456789abcdef0123456789abcdef01234567"
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created timestamp NOT NULL, user_id integer NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token VALUES (%s, %s, %s)",
            [key, "2026-11-30 09:15:00", organiser.pk],
        )
    assert migration.hash_clear_keys(apps, connection) == 1

    assert "authtoken_token" not in connection.introspection.table_names()
    token = ApiToken.objects.get(user=organiser)
    assert (token.digest, token.prefix) == (tokens.digest(key), "01234567")
    assert token.created.isoformat() == "2026-11-30T09:15:00+00:00"
    assert api_status(key) == 200  # the tool holding the old key goes on working
    assert key not in database_text()
