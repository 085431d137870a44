"""The ``asgi_server`` fixture serves pages and the live socket on the test database."""

import json
import urllib.request

import pytest
from websockets.sync.client import connect

from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_server_serves_a_page_static_files_and_a_socket_that_hears_a_change(
    make_world, asgi_server
):
    world = make_world(4, paired=False)
    page = urllib.request.urlopen(f"{asgi_server.url}/events/{world.event.pk}/pairings/")
    assert page.status == 200 and world.event.name in page.read().decode()
    assert urllib.request.urlopen(f"{asgi_server.url}/static/js/live.js").status == 200
    with connect(f"{asgi_server.ws_url}/ws/events/{world.event.pk}/", open_timeout=5) as socket:
        rounds.pair_next_round(world.event, world.organiser)
        heard = [json.loads(socket.recv(timeout=5)) for _ in range(3)]
    assert [n["type"] for n in heard] == ["pairings", "event", "round"]  # the seats first
