"""The event day's pages in Japanese and German: the organiser's dashboard, the judge's
console and table, the player's phone page, the hall screen, the decklist page. None
shows a string of the catalogues still in English (``tests.i18n_pages``)."""

import re

import pytest

from tests.i18n_pages import english_left_on_page

pytestmark = pytest.mark.django_db

TAGS = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S)


def shown_text(response) -> str:
    return " ".join(TAGS.sub(" ", response.content.decode()).split())


@pytest.fixture
def running(make_world):
    return make_world(8, rounds_played=1, started=True, penalties=1)


@pytest.mark.parametrize("language", ["ja", "de"])
def test_the_event_days_pages_have_no_english_left(client, running, language):
    event, match = running.event, running.round.matches.filter(is_bye=False).first()
    player = match.player_a.user
    pages = {
        running.organiser: [
            f"/events/{event.pk}/manage/",
            f"/events/{event.pk}/judge/",
            f"/events/{event.pk}/judge/tables/{match.pk}/",
            f"/events/{event.pk}/penalties/",
            f"/events/{event.pk}/hall/?screen=pairings",
            f"/events/{event.pk}/hall/?screen=clock",
            f"/events/{event.pk}/print/",
        ],
        player: [f"/events/{event.pk}/my-match/", f"/events/{event.pk}/deck/"],
    }
    for user, paths in pages.items():
        client.force_login(user)
        for path in paths:
            response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, path
            assert response["Content-Language"] == language
            left = english_left_on_page(shown_text(response), language)
            assert not left, f"{path} in {language}: still English: {left[:12]}"
