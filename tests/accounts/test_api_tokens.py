"""API tokens for tools: the account page, the command, and what the API does with them."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.conftest import make_user
from tests.tournaments.test_round_lifecycle import make_event
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def test_the_token_page_needs_a_login(client):
    response = client.get("/accounts/token/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/accounts/token/")
    assert client.post("/accounts/token/", {"action": "create"}).status_code == 302
    assert not Token.objects.exists()


def test_create_regenerate_and_revoke_from_the_page(login, organiser):
    client = login(organiser)
    page = client.get("/accounts/token/")
    assert b"You have no API token" in page.content

    client.post("/accounts/token/", {"action": "create"})
    first = Token.objects.get(user=organiser).key
    page = client.get("/accounts/token/").content.decode()
    assert first in page and f"Authorization: Token {first}" in page

    client.post("/accounts/token/", {"action": "regenerate"})
    second = Token.objects.get(user=organiser).key
    assert second != first

    response = client.post("/accounts/token/", {"action": "revoke"}, follow=True)
    assert not Token.objects.filter(user=organiser).exists()
    assert b"revoked" in response.content


def test_the_page_refuses_a_post_without_csrf(organiser):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    response = client.post("/accounts/token/", {"action": "create"})
    assert response.status_code == 403
    assert "CSRF" in response.content.decode()
    assert not Token.objects.exists()


def test_the_nav_links_to_the_token_page(login, organiser):
    assert b'href="/accounts/token/"' in login(organiser).get("/").content


def test_a_token_authenticated_post_needs_no_csrf(organiser):
    event = make_event(organiser, 4)
    key = Token.objects.create(user=organiser).key
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
    key = Token.objects.create(user=organiser).key
    Token.objects.filter(user=organiser).delete()
    response = Client().post(
        f"/api/v1/events/{event.pk}/rounds/", HTTP_AUTHORIZATION=f"Token {key}"
    )
    assert response.status_code in (401, 403)
    message = response.json()["errors"][0]["message"]
    assert "not valid" in message and "/accounts/token/" in message
    assert not Round.objects.exists()


def test_a_deactivated_users_token_is_refused(organiser):
    key = Token.objects.create(user=organiser).key
    organiser.is_active = False
    organiser.save()
    response = Client().get("/api/v1/events/", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code in (401, 403)
    assert "deactivated" in response.json()["errors"][0]["message"]


def test_the_command_prints_the_key_and_rotates_it(organiser):
    out = StringIO()
    call_command("api_token", "olive", stdout=out)
    key = out.getvalue().strip()
    assert key == Token.objects.get(user=organiser).key

    again = StringIO()
    call_command("api_token", "olive", stdout=again)
    assert again.getvalue().strip() == key  # unchanged without --rotate

    rotated = StringIO()
    call_command("api_token", "olive", "--rotate", stdout=rotated)
    assert rotated.getvalue().strip() not in ("", key)
    assert not Token.objects.filter(key=key).exists()


def test_the_command_names_an_unknown_user():
    make_user("someone")
    with pytest.raises(CommandError, match="nobody"):
        call_command("api_token", "nobody")
