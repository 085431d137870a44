"""Two organisers press the same button at the same instant, against real gunicorn.

Each press is a separate HTTP client (its own session or token) in its own thread,
released by a barrier, served by gunicorn with several processes, so only the
database's row lock on the event can keep them apart. Each round is raced once for
"pair" and once for "start": one set of pairings, one start, and the other press is
refused with a 4xx that says why — never a 500, never a second round.
"""

from __future__ import annotations

import datetime
import re
import threading
from collections.abc import Callable

import httpx
import pytest

from tests.integration.topology import SiteClient, Topology

pytestmark = pytest.mark.integration

PLAYERS = [f"racer{i:02d}" for i in range(1, 16)]  # odd: every round has a bye
ROUNDS = 5


def at_once(*presses: Callable[[], httpx.Response]) -> list[httpx.Response]:
    """Run each press in its own thread, released together by a barrier."""
    barrier = threading.Barrier(len(presses))
    answers: list[httpx.Response | BaseException | None] = [None] * len(presses)

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            answers[index] = presses[index]()
        except BaseException as exc:  # kept for the assertion below, not swallowed
            answers[index] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(presses))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    for answer in answers:
        if not isinstance(answer, httpx.Response):
            raise AssertionError(f"a press did not get an answer: {answer!r}")
    return answers  # type: ignore[return-value]


def one_success(answers: list[httpx.Response], success: int) -> tuple[httpx.Response, str]:
    """Exactly one press succeeded; the other was refused with a 400 naming why."""
    codes = sorted(a.status_code for a in answers)
    assert codes == sorted([success, 400]), [(a.status_code, a.text[:300]) for a in answers]
    won = next(a for a in answers if a.status_code == success)
    lost = next(a for a in answers if a.status_code == 400)
    return won, lost.json()["errors"][0]["message"]


@pytest.fixture
def race(make_topology) -> tuple[Topology, int, SiteClient, SiteClient]:
    """A 15-player event with two organisers, everyone checked in; gunicorn x 3 processes."""
    site = make_topology()
    site.start_web(workers=3, threads=2)
    tokens = site.create_users(["olive", "ola", *PLAYERS])
    olive = site.client().login("olive")
    created = olive.form(
        "/events/new/",
        {
            "name": "Race Open",
            "game": "iacta",
            "date": datetime.date.today().isoformat(),
            "status": "registration",
            "match_format": "bo3",
            "swiss_rounds": str(ROUNDS),
            "top_cut": "0",
            "round_minutes": "50",
            "decklists_public": "none",
            "print_paper": "A4",
        },
    )
    event_id = int(re.fullmatch(r"/events/(\d+)/manage/", created.headers["location"])[1])
    granted = olive.form(f"/events/{event_id}/staff/", {"username": "ola", "role": "organiser"})
    assert granted.status_code == 302
    for name in PLAYERS:
        player = site.client(token=tokens[name])
        assert player.api("POST", f"/api/v1/events/{event_id}/registrations/").status_code == 201
    olive_api = site.client(token=tokens["olive"])
    ola_api = site.client(token=tokens["ola"])
    ids = [p["registration"] for p in olive_api.get(f"/api/v1/events/{event_id}/players/").json()]
    checked = olive_api.api(
        "POST", f"/api/v1/events/{event_id}/players/", {"action": "check_in", "registrations": ids}
    )
    assert checked.json() == {"checked_in": len(PLAYERS)}
    return site, event_id, olive_api, ola_api


def assert_one_set_of_pairings(site: Topology, event_id: int, number: int) -> None:
    rows = site.sql(
        "SELECT m.player_a_id, m.player_b_id, m.is_bye FROM tournaments_match m "
        "JOIN tournaments_round r ON r.id = m.round_id WHERE r.event_id = %s AND r.number = %s",
        event_id,
        number,
    )
    seats = [p for a, b, _ in rows for p in (a, b) if p is not None]
    assert len(seats) == len(set(seats)) == len(PLAYERS), f"round {number}: {rows}"
    assert sum(1 for *_, bye in rows if bye) == 1
    counts = site.sql(
        "SELECT (SELECT count(*) FROM tournaments_round WHERE event_id = %s AND number = %s), "
        "(SELECT count(*) FROM tournaments_round WHERE event_id = %s)",
        event_id,
        number,
        event_id,
    )
    assert counts == [(1, number)]


def log_count(site: Topology, event_id: int, number: int, action: str) -> int:
    return site.sql(
        "SELECT count(*) FROM tournaments_eventlog "
        "WHERE event_id = %s AND round_number = %s AND action = %s",
        event_id,
        number,
        action,
    )[0][0]


def finish_round(organiser: SiteClient, event_id: int, number: int) -> None:
    """Staff enter every table's result and close the round, so the next can be paired."""
    matches = organiser.get(f"/api/v1/events/{event_id}/rounds/{number}/").json()["matches"]
    for match in matches:
        if not match["bye"]:
            entered = organiser.api(
                "POST", f"/api/v1/matches/{match['id']}/result/", {"score": "2-1"}
            )
            assert entered.status_code == 200, entered.text
    closed = organiser.api("POST", f"/api/v1/events/{event_id}/rounds/{number}/close/")
    assert closed.status_code == 200, closed.text


def test_two_organisers_pair_and_start_each_round_once(race) -> None:
    site, event_id, olive, ola = race
    rounds_path = f"/api/v1/events/{event_id}/rounds/"
    for client in (olive, ola):
        assert client.csrf is not None  # connections and cookies ready before the race
    for number in range(1, ROUNDS + 1):
        answers = at_once(
            lambda: olive.api("POST", rounds_path), lambda: ola.api("POST", rounds_path)
        )
        paired, why = one_success(answers, 201)
        assert paired.json()["number"] == number
        assert f"Round {number} is not closed yet" in why
        assert_one_set_of_pairings(site, event_id, number)
        assert log_count(site, event_id, number, "pair") == 1

        start = f"{rounds_path}{number}/start/"
        answers = at_once(*(lambda c=c, path=start: c.api("POST", path) for c in (olive, ola)))
        started, why = one_success(answers, 200)
        assert why == f"Round {number} has already started."
        stored = site.sql(
            "SELECT started_at FROM tournaments_round WHERE event_id = %s AND number = %s",
            event_id,
            number,
        )
        assert stored[0][0].isoformat() == started.json()["started_at"]
        assert log_count(site, event_id, number, "start") == 1
        finish_round(olive, event_id, number)


def test_two_organisers_press_the_dashboard_button_at_once(race) -> None:
    """The same race through the dashboard's next-step form, with logged-in sessions."""
    site, event_id, olive_api, _ = race
    olive = site.client().login("olive")
    ola = site.client().login("ola")
    manage = f"/events/{event_id}/manage/"

    def press(client: SiteClient, action: str) -> Callable[[], httpx.Response]:
        return lambda: client.form(f"/events/{event_id}/next/", {"action": action})

    for number in (1, 2):
        for action, log_action in (("pair", "pair"), ("start", "start")):
            answers = at_once(press(olive, action), press(ola, action))
            assert [a.status_code for a in answers] == [302, 302], [a.text[:300] for a in answers]
            assert all(a.headers["location"] == manage for a in answers)
            pages = [client.get(manage).text for client in (olive, ola)]
            done = [p for p in pages if "flash-success" in p]
            refused = [p for p in pages if "flash-error" in p]
            assert len(done) == len(refused) == 1, "one press done, the other refused"
            assert re.search(
                r"flash-error[^>]*>(That step is not the next one any more|Round \d+ (is not "
                r"closed yet|has already started))",
                refused[0],
            )
            assert log_count(site, event_id, number, log_action) == 1
        assert_one_set_of_pairings(site, event_id, number)
        finish_round(olive_api, event_id, number)
