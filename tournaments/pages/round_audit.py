"""A Swiss round's public audit: how its pairings were made, and how to check them.

Visible exactly as the event's pairings are (``visible_event_or_404``: drafts stay their
organisers'). The page shows the engine's input and output and the server's verdict; the
downloads let anyone check the round without trusting the site: the checker
``pairing/verify.py`` (one standard-library file) and the two JSON documents.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from pairing import verify
from tournaments.event.roles import visible_event_or_404
from tournaments.models import Registration, Round
from tournaments.rounds import audit as round_audit

CHECKER = Path(verify.__file__)


def audit_page(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """The round's input, seed, pairing and proof, the verdict, and how to check them."""
    event = visible_event_or_404(request.user, event_id)
    round_ = get_object_or_404(Round, event=event, number=number)
    found = round_audit.read(round_)
    context: dict[str, Any] = {
        "event": event,
        "round": round_,
        "audits": event.rounds.filter(kind=Round.Kind.SWISS),
        "missing": round_audit.missing_reason(round_),
        "your_id": _your_id(request, event),
    }
    if found is not None:
        context.update(_audit_context(found))
        context["state_url"] = reverse("tournaments:round_audit_state", args=[event.pk, number])
        context["pairing_url"] = reverse("tournaments:round_audit_pairing", args=[event.pk, number])
    return render(request, "tournaments/round_audit.html", context)


def _your_id(request: HttpRequest, event) -> str | None:
    """The signed-in player's own id in the files, so they can find themself."""
    if not request.user.is_authenticated:
        return None
    mine = Registration.objects.filter(event=event, user=request.user).first()
    return None if mine is None else mine.public_id


def _audit_context(found: round_audit.RoundAudit) -> dict[str, Any]:
    players = found.state.get("players", [])
    points = {p["id"]: p["points"] for p in players}
    certificate = found.pairing.get("certificate") or {}
    pairs = []
    for number, (a, b) in enumerate(found.pairing.get("pairings", []), start=1):
        pairs.append(
            {
                "number": number,
                "a": a,
                "b": b,
                "a_points": points.get(a),
                "b_points": points.get(b),
                "down": points.get(a) != points.get(b),
                "table": found.tables.get(frozenset((a, b))),
            }
        )
    return {
        "audit": found,
        "verdict": found.verdict(),
        "seed": found.state.get("seed"),
        "input_rows": players[: round_audit.INPUT_ROWS],
        "input_total": len(players),
        "input_capped": len(players) > round_audit.INPUT_ROWS,
        "input_cap": round_audit.INPUT_ROWS,
        "any_avoid": any(p.get("avoid") for p in players),
        "pairs": pairs,
        "bye": found.pairing.get("bye"),
        "blossoms": len(certificate.get("blossoms", [])),
        "potentials": len(certificate.get("potentials", [])),
        "barriers": len(certificate.get("bye_barriers", [])),
        "regime": certificate.get("regime", ""),
    }


def _audit_or_404(request: HttpRequest, event_id: int, number: int) -> round_audit.RoundAudit:
    event = visible_event_or_404(request.user, event_id)
    round_ = get_object_or_404(Round, event=event, number=number)
    found = round_audit.read(round_)
    if found is None:
        raise Http404(round_audit.missing_reason(round_))
    return found


def _json_download(document: Any, filename: str) -> HttpResponse:
    response = HttpResponse(
        round_audit.document_bytes(document), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def audit_state(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """The engine's input for the round, as ``state.json``."""
    return _json_download(_audit_or_404(request, event_id, number).state, "state.json")


def audit_pairing(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """The engine's pairing with its certificate, as ``pairing.json``."""
    return _json_download(_audit_or_404(request, event_id, number).pairing, "pairing.json")


def checker(request: HttpRequest) -> FileResponse:
    """The checker itself: the repository's ``pairing/verify.py``, byte for byte."""
    return FileResponse(
        CHECKER.open("rb"), as_attachment=True, filename="verify.py", content_type="text/x-python"
    )
