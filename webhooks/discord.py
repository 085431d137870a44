"""A Discord webhook URL gets Discord's own message format instead of a signed body.

Discord's "Execute Webhook" takes ``{"content": text}`` of at most 2000 characters; it
checks no signature (the URL's token is the secret), so no Standard Webhooks headers are
sent there. ``messages`` turns an announcement's body into readable text (pairings and
standings as lines), split on line boundaries into messages Discord takes: plain data in,
strings out, in the active language.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from tournaments.models import Event, Match
from web import outbound
from webhooks import announcements as kinds

LIMIT = 2000  # characters in one Discord message
PATH = "/api/webhooks/"
STANDINGS_SHOWN = 32  # a long table is cut, with a line saying how many more


def is_discord(url: str) -> bool:
    """Whether ``url`` is a Discord webhook: a Discord host, path under /api/webhooks/."""
    try:
        target = outbound.checked_url(url)
    except outbound.OutboundRefused:
        return False
    hosts = getattr(settings, "WEBHOOK_DISCORD_HOSTS", ["discord.com", "discordapp.com"])
    return outbound.host_matches(target.host, hosts) and urlsplit(url).path.startswith(PATH)


def body(content: str) -> dict[str, Any]:
    """One message; nobody is pinged, whatever a player's name says (@everyone)."""
    return {"content": content, "allowed_mentions": {"parse": []}}


def _name(player: dict | None) -> str:
    return player["name"] if player else "—"


def _pairing_line(match: dict) -> str:
    players = match["players"]
    if match["bye"]:
        return _("Bye: %(player)s") % {"player": _name(players[0])}
    return _("Table %(table)s: %(a)s vs %(b)s") % {
        "table": match["table"],
        "a": _name(players[0]),
        "b": _name(players[1] if len(players) > 1 else None),
    }


def _standings_lines(rows: list[dict]) -> list[str]:
    lines = [
        _("%(rank)s. %(name)s, %(points)s points (%(record)s)")
        % {
            "rank": row.get("rank"),
            "name": row.get("name"),
            "points": row.get("match_points"),
            "record": row.get("record"),
        }
        for row in rows[:STANDINGS_SHOWN]
    ]
    if len(rows) > STANDINGS_SHOWN:
        lines.append(_("…and %(count)s more.") % {"count": len(rows) - STANDINGS_SHOWN})
    return lines


def _result_line(data: dict) -> str:
    match = data["match"]
    players = match["players"]
    if match["bye"]:
        return _pairing_line(match)
    return _("Round %(round)s, table %(table)s: %(a)s %(score)s %(b)s (%(status)s)") % {
        "round": data["round"]["number"],
        "table": match["table"],
        "a": _name(players[0]),
        "b": _name(players[1] if len(players) > 1 else None),
        "score": match["score"] or "—",
        "status": _status_words(match["status"]),
    }


def _status_words(status: str, choices: type = Match.Status) -> str:
    """A match's (or an event's) status as the pages word it ("Confirmed"), else the code."""
    try:
        return str(choices(status).label)
    except ValueError:
        return status


def _entry_line(data: dict) -> str:
    player = _name(data["player"])
    words = {
        "entered": _("%(player)s entered the event."),
        "dropped": _("%(player)s dropped."),
        "checked_in": _("%(player)s checked in."),
    }
    return words.get(data["what"], "%(player)s: " + data["what"]) % {"player": player}


def lines(payload: dict) -> list[str]:
    """The announcement as lines of text, the event's name (in bold) first."""
    kind, data = payload["type"], payload["data"]
    event = data.get("event") or {}
    head = f"**{_escape(event.get('name', 'Arbiter'))}**"
    number = (data.get("round") or {}).get("number")
    if kind == kinds.ROUND_PAIRED:
        said = [_("Round %(round)s pairings:") % {"round": number}]
        said += [_pairing_line(m) for m in data["pairings"]]
    elif kind == kinds.ROUND_STARTED:
        said = [_("Round %(round)s has started.") % {"round": number}]
    elif kind == kinds.ROUND_CLOSED:
        said = [_("Round %(round)s is closed. Standings:") % {"round": number}]
        said += _standings_lines(data.get("standings", []))
    elif kind == kinds.RESULT_CHANGED:
        said = [_result_line(data)]
    elif kind == kinds.ENTRY_CHANGED:
        said = [_entry_line(data)]
    elif kind == kinds.EVENT_FINISHED:
        said = [_("The event has finished. Final standings:")]
        said += _standings_lines(data.get("standings", []))
    elif kind == kinds.EVENT_STATUS_CHANGED:
        status = _status_words(data["status"], Event.Status)
        said = [_("The event is now %(status)s.") % {"status": status}]
    else:
        said = [_("Test message from Arbiter: this webhook works.")]
    return [head, *(_escape(line) for line in said)]


def _escape(text: str) -> str:
    """Names as typed, not as Discord markdown (a name with * or _ stays as it is)."""
    return "".join("\\" + c if c in "\\*_~`|>" else c for c in str(text))


def split(all_lines: list[str], limit: int = LIMIT) -> list[str]:
    """Lines joined into as few messages as fit ``limit``; a line longer than that is cut."""
    messages: list[str] = []
    current = ""
    for line in all_lines:
        line = line if len(line) <= limit else line[: limit - 1] + "…"
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            messages.append(current)
            candidate = line
        current = candidate
    if current:
        messages.append(current)
    return messages


def messages(payload: dict) -> list[str]:
    """The Discord messages (each ≤ 2000 characters) that tell this announcement."""
    return split(lines(payload))
