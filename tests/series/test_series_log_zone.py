"""The series log's times name their zone: a series spans events in several venues, so
its log is in the site's zone and the page says which."""

import pytest
import time_machine

from series import services
from tests.conftest import finished_event, make_user

pytestmark = pytest.mark.django_db


def test_the_series_log_names_the_zone_of_its_times(client, organiser, settings):
    settings.TIME_ZONE = "Asia/Tokyo"
    people = [make_user(n) for n in ("ada", "bo", "cy", "di")]
    week = finished_event(organiser, people, "Week 1", rounds_played=2, seed=5)
    with time_machine.travel("2026-12-05 14:40:00+00:00", tick=False):
        series = services.create_series(
            organiser,
            [week],
            name="Winter League",
            method="placings",
            placing_points="1: 10, 2: 8",
            participation=1,
        )
    client.force_login(organiser)
    page = client.get(f"/series/{series.pk}/manage/").content.decode()
    log = page[page.index('<ul class="log">') :]
    log = log[: log.index("</section>")]
    assert "23:40" in log  # 14:40 UTC in Tokyo
    assert "Asia/Tokyo (JST, UTC+09:00)" in log
