"""Discord's format: readable lines, names not read as markdown, split under 2000."""

from webhooks import discord

STANDINGS = [
    {
        "rank": n,
        "name": f"Player number {n:03d} with a name as long as a name may be",
        "match_points": 9,
    }
    | {"record": "3-0-0"}
    for n in range(1, 200)
]


def payload(kind, **data):
    return {"type": kind, "timestamp": "2026-12-05T12:00:00+00:00", "data": data}


def test_long_standings_are_split_into_messages_discord_takes(settings):
    settings.LANGUAGE_CODE = "en"
    sent = discord.messages(
        payload("event.finished", event={"id": 1, "name": "Loop Open"}, standings=STANDINGS)
    )
    assert len(sent) > 1 and all(len(m) <= discord.LIMIT for m in sent)
    text = "\n".join(sent)
    assert text.startswith("**Loop Open**\nThe event has finished. Final standings:")
    shown = discord.STANDINGS_SHOWN
    assert (
        f"{shown}. Player number {shown:03d} with a name as long as a name may be, 9 points (3-0-0)"
        in text
    )
    assert f"…and {len(STANDINGS) - shown} more." in text


def test_every_line_survives_the_split_in_order():
    lines = [f"line {n} " + "x" * (n % 300) for n in range(100)]
    sent = discord.split(lines, limit=500)
    assert all(len(m) <= 500 for m in sent)
    assert "\n".join(sent).split("\n") == lines


def test_names_are_not_markdown_or_mentions():
    sent = discord.lines(
        payload(
            "result.changed",
            event={"id": 1, "name": "*Open*"},
            round={"number": 2},
            match={
                "table": 3,
                "bye": False,
                "status": "confirmed",
                "score": "2-1",
                "players": [{"name": "@everyone"}, {"name": "_Grace_"}],
            },
        )
    )
    assert sent == ["**\\*Open\\***", "Round 2, table 3: @everyone 2-1 \\_Grace\\_ (Confirmed)"]
    assert discord.body("x")["allowed_mentions"] == {"parse": []}  # @everyone pings nobody


def test_only_discord_webhook_paths_are_discord():
    assert discord.is_discord("https://discord.com/api/webhooks/1/abc")
    assert discord.is_discord("https://canary.discordapp.com/api/webhooks/1/abc")
    assert not discord.is_discord("https://discord.com/channels/1")
    assert not discord.is_discord("https://evildiscord.com/api/webhooks/1/abc")


def test_an_event_status_reads_as_the_pages_word_it():
    sent = discord.lines(
        payload("event.status_changed", event={"id": 1, "name": "Open"}, status="registration")
    )
    assert sent[1] == "The event is now Open for registration."
