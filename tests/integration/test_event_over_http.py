"""A whole 16-player event driven over HTTP against the production topology.

The organiser works through the pages (event form, staff, check-in, the dashboard's
next-step button, the print page) and the API where it exists; players use their API
tokens; the judge settles a dispute on the judge pages. Every result is reported by
the players and remembered here, so the standings the site publishes are checked
against a recomputation, and the database is read at the end with SQL to prove that
no result was lost or doubled.
"""

from __future__ import annotations

import csv
import datetime
import html
import io
import re
from dataclasses import dataclass, field

import pytest
from pypdf import PdfReader

from tests.integration.topology import ROOT, SiteClient, Topology, wait_until

pytestmark = pytest.mark.integration

PLAYERS = [f"player{i:02d}" for i in range(1, 17)]
SWISS_ROUNDS = 4
TOP_CUT = 4
# Scores as the first player of each table reports them (their own wins first).
SCORES = ["2-0", "2-1", "0-2", "1-2", "1-1", "2-1", "1-1-1", "0-2"]
DISPUTED_ROUND, DISPUTED_TABLE = 2, 3
JUDGE_SCORE = "2-1"  # what the judge settles the disputed table at (first player's wins)


@dataclass
class Ledger:
    """What the players reported, to check the site's standings and rows against."""

    names: dict[str, str] = field(default_factory=dict)  # public id -> name
    results: list[tuple[int, str, str, tuple[int, int, int]]] = field(default_factory=list)
    actions: dict[int, list[str]] = field(default_factory=dict)  # match id -> logged actions

    def expected_standings(self, rounds: int) -> dict[str, tuple[int, str]]:
        """Per player: (match points, "W-L-D") with 3/1/0 points, Swiss rounds only."""
        tally = {pid: [0, 0, 0] for pid in self.names}
        for number, a, b, (wins_a, wins_b, _draws) in self.results:
            if number > rounds:
                continue
            if wins_a == wins_b:
                tally[a][2] += 1
                tally[b][2] += 1
            else:
                winner, loser = (a, b) if wins_a > wins_b else (b, a)
                tally[winner][0] += 1
                tally[loser][1] += 1
        return {pid: (3 * w + d, f"{w}-{lo}-{d}") for pid, (w, lo, d) in tally.items()}


def legal_decklist(index: int) -> str:
    """A legal 44-card Iacta list from the demo pool (as arbiter/demo.py builds one)."""
    with (ROOT / "decks" / "demo" / "iacta-demo-cards.csv").open(newline="") as handle:
        cards = list(csv.DictReader(handle))

    def names(**where: str) -> list[str]:
        return sorted(c["name"] for c in cards if all(c[k] == v for k, v in where.items()))

    main = names(syndicate=("EMB", "IRN", "TID")[index % 3])
    neutral = [n for n in names(tier="neutral") if n != "Loose Change"]
    splash = names(syndicate=("MTH", "SLT")[index % 2])
    lines = [f"4 {name}" for name in main[index % 4 : index % 4 + 8]]
    lines += [f"4 {name}" for name in neutral[index % 5 : index % 5 + 2]]
    lines += [f"4 {splash[index % len(splash)]}", "", "Sideboard"]
    lines += [f"2 {name}" for name in neutral[8:11]]
    return "\n".join(lines)


def redirect_target(response) -> str:
    assert response.status_code == 302, f"expected a redirect, got {response.status_code}"
    return response.headers["location"]


def ok(response, status: int = 200) -> dict | list:
    assert response.status_code == status, (
        f"{response.request.method} {response.request.url}: "
        f"{response.status_code} {response.text[:500]}"
    )
    return response.json()


def messages_of(client: SiteClient, path: str) -> str:
    """The page the organiser lands on after a form, as text (flash messages included)."""
    return client.get(path).text


def create_event(organiser: SiteClient) -> int:
    form = {
        "name": "Topology Open",
        "game": "iacta",
        "date": datetime.date.today().isoformat(),
        "venue": "Loopback Hall",
        "status": "registration",
        "match_format": "bo3",
        "swiss_rounds": str(SWISS_ROUNDS),
        "top_cut": str(TOP_CUT),
        "round_minutes": "50",
        "registration_cap": "16",
        "decklists_public": "none",
        "print_paper": "A4",
    }
    location = redirect_target(organiser.form("/events/new/", form))
    match = re.fullmatch(r"/events/(\d+)/manage/", location)
    assert match, f"event form redirected to {location}"
    return int(match[1])


def print_slips(organiser: SiteClient, event_id: int, number: int) -> bytes:
    """Request the round's match slips on the print page, follow the job, download."""
    response = organiser.form(
        f"/events/{event_id}/print/new/", {"kind": "match_slips", "round": str(number)}
    )
    job = re.search(r"#job-(\d+)$", redirect_target(response))
    assert job, response.headers["location"]
    row_path = f"/events/{event_id}/print/jobs/{job[1]}/"

    def download_link() -> str | None:
        row = organiser.get(row_path)
        assert row.status_code == 200, row.text[:300]
        assert "Failed" not in row.text, row.text
        link = re.search(r'href="([^"]+/download/)"', row.text)
        return link[1] if link else None

    href = wait_until(download_link, 180, f"print job {job[1]} to finish", interval=1)
    pdf = organiser.get(href)
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    return pdf.content


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(content)).pages)


def score_for(a: int, b: int, draws: int) -> str:
    return f"{a}-{b}" + (f"-{draws}" if draws else "")


def parse(score: str) -> tuple[int, int, int]:
    parts = [int(p) for p in score.split("-")]
    return (parts[0], parts[1], parts[2] if len(parts) == 3 else 0)


class EventRun:
    """The people of one event and the steps they take, each over HTTP."""

    def __init__(self, site: Topology, event_id: int, tokens: dict[str, str]):
        self.site = site
        self.event_id = event_id
        self.players = {name: site.client(token=tokens[name]) for name in PLAYERS}
        self.organiser = site.client().login("olive")
        self.judge = site.client().login("jude")
        self.ledger = Ledger()

    def player_for(self, public_name: str) -> SiteClient:
        return self.players[public_name]

    def round(self, number: int) -> dict:
        return ok(self.organiser.get(f"/api/v1/events/{self.event_id}/rounds/{number}/"))

    def next_step(self, action: str) -> None:
        """The dashboard's one button; the page must then show no error."""
        manage = f"/events/{self.event_id}/manage/"
        location = redirect_target(
            self.organiser.form(f"/events/{self.event_id}/next/", {"action": action})
        )
        assert location == manage
        page = messages_of(self.organiser, manage)
        assert "flash-error" not in page and "flash-success" in page, page[:3000]

    def play(self, number: int, *, top_cut: bool = False) -> None:
        """Every table reports: the first player reports, the opponent confirms."""
        for index, match in enumerate(self.round(number)["matches"]):
            assert not match["bye"], "16 players: no byes"
            first, second = match["players"]
            self.ledger.names.setdefault(first["id"], first["name"])
            self.ledger.names.setdefault(second["id"], second["name"])
            score = SCORES[(index + number) % len(SCORES)]
            if top_cut and parse(score)[0] == parse(score)[1]:
                score = "2-1"
            reporter = self.player_for(first["name"])
            opponent = self.player_for(second["name"])
            path = f"/api/v1/matches/{match['id']}"
            reported = ok(reporter.api("POST", f"{path}/report/", {"score": score}))
            assert reported["status"] == "reported" and reported["score"] == score
            disputed = not top_cut and (number, match["table"]) == (
                DISPUTED_ROUND,
                DISPUTED_TABLE,
            )
            if disputed:
                self.settle_dispute(match, opponent)
                score = JUDGE_SCORE
            else:
                confirmed = ok(opponent.api("POST", f"{path}/confirm/"))
                assert confirmed["status"] == "confirmed" and confirmed["score"] == score
                self.ledger.actions[match["id"]] = ["report", "confirm"]
            self.ledger.results.append((number, first["id"], second["id"], parse(score)))

    def settle_dispute(self, match: dict, opponent: SiteClient) -> None:
        """The opponent disputes; the judge sees it on the console and enters the result."""
        path = f"/api/v1/matches/{match['id']}"
        disputed = ok(opponent.api("POST", f"{path}/dispute/", {"reason": "It was 1-2"}))
        assert disputed["status"] == "disputed"
        # Disputed is not a result: the organiser cannot close the round over it.
        refused = self.organiser.api(
            "POST", f"/api/v1/events/{self.event_id}/rounds/{DISPUTED_ROUND}/close/"
        )
        assert refused.status_code == 400
        missing = re.search(
            r"no confirmed result \(([\d, …]+)\)", refused.json()["errors"][0]["message"]
        )
        assert missing and str(match["table"]) in missing[1].replace("…", "").split(", ")
        console = self.judge.get(f"/events/{self.event_id}/judge/")
        assert console.status_code == 200
        first, second = (p["name"] for p in match["players"])
        table_page = f"/events/{self.event_id}/judge/tables/{match['id']}/"
        assert f'href="{table_page}">Table {match["table"]}</a>' in console.text
        assert f"{first} v {second}: the players disagree on the result." in console.text
        response = self.judge.form(
            f"/events/{self.event_id}/matches/{match['id']}/result/",
            {
                "score": JUDGE_SCORE,
                "reason": "Judge call: game 3 was won by the first player",
                "version": disputed["version"],  # the result the judge saw: the dispute
            },
        )
        redirect_target(response)
        settled = [m for m in self.round(DISPUTED_ROUND)["matches"] if m["id"] == match["id"]]
        assert settled[0]["status"] == "final" and settled[0]["score"] == JUDGE_SCORE
        # The judge's entry over a dispute is logged as its settlement.
        self.ledger.actions[match["id"]] = ["report", "dispute", "settle"]


@pytest.fixture
def event_run(topology: Topology) -> EventRun:
    imported = topology.manage("import_cards", "iacta", "decks/demo/iacta-demo-cards.csv")
    assert imported.returncode == 0, imported.stderr
    tokens = topology.create_users(["olive", "jude", *PLAYERS])
    organiser = topology.client().login("olive")
    event_id = create_event(organiser)
    staff = organiser.form(f"/events/{event_id}/staff/", {"username": "jude", "role": "judge"})
    assert redirect_target(staff) == f"/events/{event_id}/manage/"
    assert "jude is now a judge" in organiser.get(f"/events/{event_id}/manage/").text
    return EventRun(topology, event_id, tokens)


def register_and_submit_decks(run: EventRun) -> None:
    event = run.event_id
    for index, name in enumerate(PLAYERS):
        player = run.players[name]
        registered = ok(player.api("POST", f"/api/v1/events/{event}/registrations/"), 201)
        assert registered["status"] == "registered"
        deck = ok(
            player.api(
                "PUT",
                f"/api/v1/events/{event}/decklists/mine/",
                {"text": legal_decklist(index), "submit": True},
            )
        )
        assert deck["legal"] and deck["status"] == "submitted", deck["violations"]
    # A fifth copy of a card: refused over the API and on the page, the rule named.
    player = run.players[PLAYERS[0]]
    illegal = legal_decklist(0).replace("4 ", "5 ", 1)
    card = illegal.splitlines()[0][2:]
    refused = player.api(
        "PUT", f"/api/v1/events/{event}/decklists/mine/", {"text": illegal, "submit": True}
    )
    assert refused.status_code == 400 and "not legal" in refused.text, refused.text
    checked = ok(
        player.api("POST", "/api/v1/decklists/legality/", {"event": event, "text": illegal})
    )
    violations = [v for v in checked["violations"] if card in v["message"]]
    assert not checked["legal"] and violations, checked["violations"]
    page = run.site.client().login(PLAYERS[0])
    shown = page.form(f"/events/{event}/deck/", {"decklist": illegal, "action": "submit"})
    assert shown.status_code == 200 and "flash-error" in shown.text
    assert html.escape(violations[0]["message"]) in shown.text
    # The refused submissions left the legal list in place.
    kept = ok(player.api("GET", f"/api/v1/events/{event}/decklists/mine/"))
    assert kept["status"] == "submitted" and kept["legal"]


def test_a_whole_event_over_http(event_run: EventRun) -> None:
    run, event = event_run, event_run.event_id
    register_and_submit_decks(run)
    checked = run.organiser.form(f"/events/{event}/check-in/", {"all": "1"})
    assert redirect_target(checked) == f"/events/{event}/manage/"
    assert "16 players checked in" in run.organiser.get(f"/events/{event}/manage/").text

    for number in range(1, SWISS_ROUNDS + 1):
        if number % 2:  # the organiser uses both the API and the dashboard's button
            paired = ok(run.organiser.api("POST", f"/api/v1/events/{event}/rounds/"), 201)
            assert paired["number"] == number
        else:
            run.next_step("pair")
        run.next_step("start")
        assert run.round(number)["status"] == "running"
        if number == 1:
            slips = pdf_text(print_slips(run.organiser, event, 1))
            for name in PLAYERS:
                assert name in slips, f"{name} missing from the match slips"
        run.play(number)
        closed = ok(run.organiser.api("POST", f"/api/v1/events/{event}/rounds/{number}/close/"))
        assert closed["status"] == "closed"

    standings = ok(run.organiser.get(f"/api/v1/events/{event}/standings/"))
    expected = run.ledger.expected_standings(SWISS_ROUNDS)
    assert {row["player"]: (row["match_points"], row["record"]) for row in standings} == expected
    points = [row["match_points"] for row in standings]
    assert points == sorted(points, reverse=True)

    top = ok(run.organiser.api("POST", f"/api/v1/events/{event}/top-cut/"), 201)
    seeds = [row["player"] for row in standings[:TOP_CUT]]
    assert [[p["id"] for p in m["players"]] for m in top["matches"]] == [
        [seeds[0], seeds[3]],
        [seeds[1], seeds[2]],
    ]
    number = top["number"]
    while True:
        run.play(number, top_cut=True)
        ok(run.organiser.api("POST", f"/api/v1/events/{event}/rounds/{number}/close/"))
        advanced = run.organiser.api("POST", f"/api/v1/events/{event}/top-cut/")
        if ok(advanced).get("finished"):
            break
        number = advanced.json()["number"]
    final = run.round(number)["matches"]
    assert len(final) == 1
    first, second = final[0]["players"]
    wins = parse(final[0]["score"])
    winner = first["name"] if wins[0] > wins[1] else second["name"]
    assert ok(run.organiser.get(f"/api/v1/events/{event}/"))["status"] == "finished"

    bracket = run.organiser.get(f"/events/{event}/bracket/").text
    final_column = bracket[bracket.index("<h2>Final</h2>") :]
    assert re.search(
        rf"<p>{first['name']}</p><p>{second['name']}</p><footer><small>"
        rf"{final[0]['score']} · Confirmed",
        final_column,
    ), final_column[:600]
    assert winner in final_column
    assert_no_result_lost_or_doubled(run)


def assert_no_result_lost_or_doubled(run: EventRun) -> None:
    """Read the rows with SQL: one match per table, each result once, as reported."""
    site, event = run.site, run.event_id
    seated = site.sql(
        "SELECT r.number, count(*), count(DISTINCT p) FROM tournaments_round r "
        "JOIN tournaments_match m ON m.round_id = r.id "
        "CROSS JOIN LATERAL (VALUES (m.player_a_id), (m.player_b_id)) AS seat(p) "
        "WHERE r.event_id = %s AND p IS NOT NULL GROUP BY r.number ORDER BY r.number",
        event,
    )
    expected_seats = [16] * SWISS_ROUNDS + [4, 2]
    assert [(n, c) for n, c, _ in seated] == list(enumerate(expected_seats, start=1))
    assert all(count == distinct for _, count, distinct in seated), "a player seated twice"
    rows = site.sql(
        "SELECT m.id, m.status, m.games, m.player_a_id, m.player_b_id, r.number "
        "FROM tournaments_match m JOIN tournaments_round r ON r.id = m.round_id "
        "WHERE r.event_id = %s",
        event,
    )
    reported = {(n, a, b): s for n, a, b, s in run.ledger.results}
    assert len(rows) == len(reported) == SWISS_ROUNDS * 8 + 3
    for match_id, status, games, a, b, number in rows:
        key = (number, f"r{a}", f"r{b}")
        assert key in reported, f"match {match_id} was never reported here"
        wins = (games.count(a), games.count(b), games.count(None))
        assert wins == reported[key], f"match {match_id}: {wins} != {reported[key]}"
        assert status in ("confirmed", "final")
    changes = site.sql(
        "SELECT c.match_id, array_agg(c.action ORDER BY c.id) FROM tournaments_resultchange c "
        "JOIN tournaments_match m ON m.id = c.match_id "
        "JOIN tournaments_round r ON r.id = m.round_id WHERE r.event_id = %s "
        "GROUP BY c.match_id",
        event,
    )
    assert dict(changes) == run.ledger.actions
    log = site.sql(
        "SELECT action, count(*) FROM tournaments_eventlog WHERE event_id = %s GROUP BY action",
        event,
    )
    counts = dict(log)
    assert counts["pair"] == counts["start"] == SWISS_ROUNDS
    assert counts["close"] == SWISS_ROUNDS + 2
    assert counts["top_cut"] == counts["top_cut_round"] == counts["finish"] == 1
