"""Live notices through the production topology: two web servers (two machines behind one
load balancer, each a gunicorn with one uvicorn worker) share PostgreSQL and the channel
layer in Redis. A socket held by server A hears a change made through server B, and a draft
event's socket is refused with 4403 by the real server.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.integration.topology import Topology, free_port

pytestmark = pytest.mark.integration

PLAYERS = 8
WAIT = 10.0  # seconds: "within one second on an idle server", with room for a busy CI
IDLE = 16.0  # seconds without a notice: three of the channel layer's 5 s blocking reads


def seed(site: Topology) -> dict:
    """An organiser, eight checked-in players with tokens, the event, and a draft event."""
    names = [f"live-p{i}" for i in range(1, PLAYERS + 1)]
    tokens = site.create_users(["live-olive", *names])
    code = (
        "from django.contrib.auth.models import User\n"
        "from arbiter import worlds\n"
        "from tournaments.models import Event\n"
        "olive = User.objects.get(username='live-olive')\n"
        f"users = list(User.objects.filter(username__in={names!r}).order_by('username'))\n"
        "event = worlds.build_event(users, name='Live Open', organiser=olive, judge=None, "
        "paired=False).event\n"
        "draft = worlds.build_event(2, name='Not Yet', organiser=olive, judge=None, "
        "paired=False).event\n"
        "Event.objects.filter(pk=draft.pk).update(status=Event.Status.DRAFT)\n"
        "print(event.pk, draft.pk)\n"
    )
    event_id, draft_id = map(int, site.django(code).strip().splitlines()[-1].split())
    return {"event": event_id, "draft": draft_id, "tokens": tokens, "player": names[0]}


async def next_notice(socket, wanted: str) -> dict:
    """The next notice of type ``wanted`` (others, such as the round's, are passed over)."""
    deadline = time.monotonic() + WAIT
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {wanted!r} notice within {WAIT} s")
        body = json.loads(await asyncio.wait_for(socket.recv(), timeout=left))
        if body["type"] == wanted:
            return body


def test_a_socket_on_one_web_server_hears_a_round_paired_through_another(make_topology):
    site = make_topology()
    site.start_web(workers=1, threads=2)  # server A
    port_b = free_port()
    site.start_web(workers=1, threads=2, name="web-b", port=port_b)
    world = seed(site)
    event_id, tokens = world["event"], world["tokens"]
    socket_path = f"/ws/events/{event_id}/"
    player_token = tokens[world["player"]]

    async def scenario() -> tuple[dict, dict, dict]:
        async with (
            connect(site.url_at(scheme="ws") + socket_path) as anonymous,
            connect(
                site.url_at(scheme="ws") + socket_path,
                additional_headers={"Authorization": f"Token {player_token}"},
            ) as player,
        ):
            # The organiser pairs round 1 on server B: a separate process and machine.
            paired = await asyncio.to_thread(
                site.client(token=tokens["live-olive"]).http.post,
                f"{site.url_at(port_b)}/api/v1/events/{event_id}/rounds/",
            )
            assert paired.status_code == 201, paired.text
            pairings = await next_notice(anonymous, "pairings")
            mine = await next_notice(player, "my_match")
            return paired.json(), pairings, mine

    round_, pairings, mine = asyncio.run(scenario())
    assert pairings["event"] == event_id and pairings["round"] == 1
    seat = next(
        m["table"]
        for m in round_["matches"]
        if world["player"] in [p["name"] for p in m["players"]]
    )
    assert (mine["round"], mine["table"]) == (1, seat)


def test_the_real_server_closes_a_draft_events_socket_with_4403(make_topology):
    site = make_topology()
    site.start_web(workers=1, threads=2)
    world = seed(site)

    async def close_code(event_id: int) -> int | None:
        async with connect(site.url_at(scheme="ws") + f"/ws/events/{event_id}/") as socket:
            try:
                await asyncio.wait_for(socket.recv(), timeout=WAIT)
            except ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
        return None

    assert asyncio.run(close_code(world["draft"])) == 4403


def test_an_idle_socket_stays_open_past_the_layers_blocking_reads(make_topology):
    """Nothing is said for longer than channels-redis's 5 s blocking pop: the socket stays
    open and still hears the next change (a read timeout equal to the pop's used to kill
    the socket whose turn it was, without a close frame)."""
    site = make_topology()
    site.start_web(workers=1, threads=2)
    world = seed(site)
    event_id, tokens = world["event"], world["tokens"]

    async def scenario() -> dict:
        url = site.url_at(scheme="ws") + f"/ws/events/{event_id}/"
        async with connect(url, ping_interval=None) as socket:
            await asyncio.sleep(IDLE)
            paired = await asyncio.to_thread(
                site.client(token=tokens["live-olive"]).http.post,
                f"/api/v1/events/{event_id}/rounds/",
            )
            assert paired.status_code == 201, paired.text
            return await next_notice(socket, "pairings")

    assert asyncio.run(scenario())["round"] == 1
