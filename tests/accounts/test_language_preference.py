"""The page's language: the browser's Accept-Language, the switcher's cookie, and an
account's saved choice, which beats both (accounts/language.py, accounts/language_views.py).

LocaleMiddleware names the language a response was made in in its Content-Language header.
"""

import pytest
from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.middleware import SessionMiddleware
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.utils import translation

from accounts import language
from accounts.models import LanguagePreference
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

URL = "/accounts/language/"


def page_language(client: Client, **headers) -> str:
    response = client.get("/", headers=headers)
    assert response.status_code == 200
    return response["Content-Language"]


def test_the_browser_chooses_when_nobody_else_did(client):
    assert page_language(client) == "en"
    assert page_language(client, accept_language="ja") == "ja"
    assert page_language(client, accept_language="de-DE,de;q=0.9,en;q=0.5") == "de"
    assert page_language(client, accept_language="fr") == "en"  # not offered: the default
    assert "Accept-Language" in client.get("/")["Vary"]


def test_a_signed_in_account_without_a_choice_follows_its_browser(login, player):
    assert page_language(login(player), accept_language="ja") == "ja"


def test_a_saved_choice_beats_the_browser(login, player):
    LanguagePreference.objects.create(user=player, language="de")
    client = login(player)
    assert page_language(client, accept_language="ja") == "de"
    assert page_language(client) == "de"


def test_the_choice_is_read_once_a_session(login, player):
    LanguagePreference.objects.create(user=player, language="de")
    client = login(player)  # the log-in copies the choice into the session
    assert client.session[language.SESSION_KEY] == "de"
    LanguagePreference.objects.filter(user=player).update(language="ja")
    assert page_language(client) == "de"  # this session keeps its copy
    # A session from before log-ins kept the choice reads it on its first request.
    session = client.session
    del session[language.SESSION_KEY]
    session.save()
    assert page_language(client) == "ja"
    assert client.session[language.SESSION_KEY] == "ja"


def test_choosing_saves_it_for_the_account_and_sets_the_cookie(login, player):
    client = login(player)
    response = client.post(URL, {"language": "ja", "next": "/events/"})
    assert response.status_code == 302 and response["Location"] == "/events/"
    assert LanguagePreference.objects.get(user=player).language == "ja"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ja"
    assert page_language(client, accept_language="de") == "ja"

    client.post(URL, {"language": "de"})
    assert LanguagePreference.objects.get(user=player).language == "de"  # one row, changed
    assert page_language(client, accept_language="ja") == "de"

    # On another device (no cookie, another browser language) the account's choice holds.
    elsewhere = Client()
    elsewhere.force_login(player)
    assert page_language(elsewhere, accept_language="ja") == "de"


def test_anonymous_visitors_get_the_cookie_and_nothing_is_saved(client):
    response = client.post(URL, {"language": "ja", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "ja" and cookie["samesite"] == "Lax" and cookie["httponly"]
    assert not LanguagePreference.objects.exists()
    assert page_language(client, accept_language="de") == "ja"  # the cookie beats the browser


@pytest.mark.parametrize("posted", [{}, {"language": ""}, {"language": "fr"}, {"language": "JA"}])
def test_a_language_not_offered_is_a_400_naming_the_field(login, player, posted):
    client = login(player)
    response = client.post(URL, posted)
    assert response.status_code == 400
    page = response.content.decode()
    assert "language" in page and "en (English)" in page and "ja (日本語)" in page
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert not LanguagePreference.objects.exists()


def test_only_a_post_changes_the_language(client):
    assert client.get(URL, {"language": "ja"}).status_code == 405
    assert client.get("/")["Content-Language"] == "en"


@pytest.mark.parametrize(
    "away",
    [
        "https://evil.example/phish",
        "//evil.example/phish",
        "http://testserver.evil.example/",
        "javascript:alert(1)",
        "https:///evil.example",
        "/\t/evil.example",
        "home",  # not a path: never looked up as a URL name
        "<script>",
    ],
)
def test_next_never_leads_off_the_site(client, away):
    response = client.post(URL, {"language": "de", "next": away})
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_without_next_it_goes_back_to_the_page_the_form_was_on(client):
    back = client.post(URL, {"language": "de"}, headers={"referer": "http://testserver/cards/"})
    assert back["Location"] == "http://testserver/cards/"
    away = client.post(URL, {"language": "de"}, headers={"referer": "https://evil.example/"})
    assert away["Location"] == "/"


def test_signing_out_drops_the_accounts_choice(player):
    LanguagePreference.objects.create(user=player, language="de")
    request = RequestFactory().get("/")
    SessionMiddleware(lambda r: None).process_request(request)
    request.user = player
    request.session[language.SESSION_KEY] = "de"
    logout(request)
    assert language.account_language(request) == language.NO_CHOICE


def test_a_choice_no_longer_offered_is_ignored(login):
    user = make_user("kim")
    LanguagePreference.objects.create(user=user, language="fr")
    assert page_language(login(user), accept_language="ja") == "ja"


def test_the_switcher_lists_the_languages_in_their_own_names():
    request = RequestFactory().get("/events/?page=2")
    request.user = AnonymousUser()
    with translation.override("de"):
        html = render_to_string("_language_switcher.html", request=request)
    assert f'action="{URL}"' in html and 'name="csrfmiddlewaretoken"' in html
    assert 'name="next" value="/events/?page=2"' in html
    assert '<option value="de" lang="de" selected>Deutsch</option>' in html
    assert '<option value="ja" lang="ja">日本語</option>' in html
    assert '<option value="en" lang="en">English</option>' in html


def test_a_requests_language_does_not_outlive_it(client):
    from django.utils import translation

    client.get("/", HTTP_ACCEPT_LANGUAGE="de")
    assert translation.get_language() == "en"


def test_the_address_taken_note_reaches_its_owner_in_the_owners_language(client):
    from django.core import mail

    from accounts.models import LanguagePreference
    from tests.conftest import make_user

    owner = make_user("ingrid")
    LanguagePreference.objects.create(user=owner, language="de")
    client.post(
        "/accounts/signup/",
        {
            "username": "someone-else",
            "email": owner.email,
            "password1": "a-long-unusual-passphrase",
            "password2": "a-long-unusual-passphrase",
        },
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    sent = [m for m in mail.outbox if m.to == [owner.email]]
    assert len(sent) == 1
    assert sent[0].subject == (
        "Jemand hat versucht, sich mit Ihrer E-Mail-Adresse bei Arbiter zu registrieren"
    )
