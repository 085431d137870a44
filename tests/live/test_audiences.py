"""The acceptance test of live-updates.md: an anonymous follower, a player and a judge on
/ws/events/<id>/ each receive exactly their audience's notices for a pairing, a report, a
dispute and an extension; a draft closes the socket with 4403."""

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.test import Client

from accounts import tokens
from arbiter.asgi import application
from live.consumers import REFUSED
from tournaments.clock import extensions as clock
from tournaments.models import Event
from tournaments.record.match_games import Score
from tournaments.results import services as results
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db(transaction=True)
QUIET = 1.0  # seconds a socket must stay silent to have received everything


def session_cookie(user) -> list[tuple[bytes, bytes]]:
    """The header a logged-in browser sends on the upgrade request."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]


def token_header(user) -> list[tuple[bytes, bytes]]:
    key = tokens.issue_token(user, rotate=True).key  # shown once: a fresh one each time
    return [(b"authorization", f"Token {key}".encode())]


async def _open(event_id: int, headers=None) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, f"/ws/events/{event_id}/", headers=headers or [])
    connected, _ = await socket.connect()
    assert connected
    return socket


async def _drain(socket: WebsocketCommunicator, event_id: int) -> list[tuple]:
    """Every notice the socket got, as (type, its own keys), until it stays quiet."""
    got = []
    while not await socket.receive_nothing(timeout=QUIET):
        body = await socket.receive_json_from()
        assert body["event"] == event_id and body["at"]
        got.append(
            (body["type"], {k: v for k, v in body.items() if k not in ("type", "event", "at")})
        )
    return got


def _seat(round_, player):
    """The player's match and their opponent."""
    match = round_.matches.filter(is_bye=False).get(Q(player_a=player) | Q(player_b=player))
    return match, (match.player_b if match.player_a_id == player.pk else match.player_a)


def test_each_caller_receives_exactly_its_audiences_notices(make_world):
    world = make_world(4, paired=False)
    event_id = world.event.pk
    player = world.registrations[0]
    judge_headers = token_header(world.judge)
    player_headers = session_cookie(player.user)

    def pair():
        return rounds.pair_next_round(world.event, world.organiser)

    async def run():
        sockets = {
            "anonymous": await _open(event_id),
            "player": await _open(event_id, player_headers),
            "judge": await _open(event_id, judge_headers),
        }
        heard = {who: [] for who in sockets}

        async def step(change):
            value = await sync_to_async(change)()
            for who, socket in sockets.items():
                heard[who].append(await _drain(socket, event_id))
            return value

        round_ = await step(pair)
        match, opponent = await sync_to_async(_seat)(round_, player)
        two_one = Score.parse("2-1")
        await step(lambda: results.report_result(match, opponent, two_one, opponent.user))
        await step(lambda: results.dispute_result(match, player, player.user, "it was 2-1 to me"))
        await step(lambda: clock.grant_extension(match, 4, "deck check", world.judge))
        for socket in sockets.values():
            await socket.disconnect()
        return heard, match

    heard, match = async_to_sync(run)()
    table = {"round": 1, "table": match.table}
    # Pairings first (then each player's own seat), then the event's and round's status.
    pairing = [("pairings", {"round": 1})]
    paired = [
        ("event", {"status": "running"}),
        ("round", {"round": 1, "status": "paired", "ends_at": None}),
    ]
    report = [("result", {**table, "status": "reported"})]
    dispute = [("result", {**table, "status": "disputed"})]
    extension = [("extension", {**table, "minutes": 4})]
    mine = ("my_match", table)
    queue = ("queue", {"kind": "dispute", **table})
    assert heard["anonymous"] == [[*pairing, *paired], report, dispute, extension]
    assert heard["judge"] == [[*pairing, *paired], report, [*dispute, queue], extension]
    assert heard["player"] == [
        [*pairing, mine, *paired],
        [*report, mine],
        [*dispute, mine],
        extension,
    ]


def test_a_draft_event_closes_the_socket_with_4403_for_everyone(make_world):
    world = make_world(4)
    Event.objects.filter(pk=world.event.pk).update(status=Event.Status.DRAFT)
    callers = [[], session_cookie(world.registrations[0].user), token_header(world.judge)]
    callers.append(session_cookie(world.organiser))

    async def run():
        codes = []
        for headers in callers:
            socket = WebsocketCommunicator(
                application, f"/ws/events/{world.event.pk}/", headers=headers
            )
            await socket.connect()
            codes.append(await socket.receive_output(timeout=1))
            await socket.disconnect()
        return codes

    assert async_to_sync(run)() == [{"type": "websocket.close", "code": REFUSED}] * 4


def test_a_rolled_back_change_sends_nothing_and_a_bad_frame_leaves_the_socket_working(
    make_world,
):
    world = make_world(4)

    def rolled_back():
        with transaction.atomic():
            rounds.start_round(world.round, world.organiser)
            transaction.set_rollback(True)

    async def run():
        socket = await _open(world.event.pk)
        await sync_to_async(rolled_back)()
        silent = await socket.receive_nothing(timeout=QUIET)
        await socket.send_to(text_data="{not json")
        await socket.send_to(text_data='["a list"]')
        await socket.send_to(bytes_data=b"\x00\xff")
        await socket.send_json_to({"type": "ping"})
        pong = await socket.receive_json_from(timeout=1)
        await sync_to_async(rounds.start_round)(world.round, world.organiser)
        after = await socket.receive_json_from(timeout=1)
        await socket.disconnect()
        return silent, pong, after

    silent, pong, after = async_to_sync(run)()
    assert silent
    assert pong == {"type": "pong"}
    assert after["type"] == "round" and after["status"] == "started"
