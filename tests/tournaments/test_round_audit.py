"""A public audit per Swiss round (issue 34): the engine's input, its pairing with the proof
of optimality, the server's verdict, and the files and command to check it without us."""

from __future__ import annotations

import json
import subprocess
import sys
from html import escape
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from pairing import swiss, verify
from tournaments.event import services
from tournaments.models import Event, EventLog, Round
from tournaments.rounds import audit as round_audit
from tournaments.rounds import services as rounds

pytestmark = pytest.mark.django_db

CHECKER = Path(verify.__file__)


def audit_url(round_: Round, tail: str = "") -> str:
    return f"/events/{round_.event_id}/rounds/{round_.number}/audit/{tail}"


def seated(round_: Round) -> set[frozenset]:
    return {
        frozenset((m.player_a.public_id, m.player_b.public_id))
        for m in round_.matches.filter(is_bye=False).select_related("player_a", "player_b")
    }


@pytest.fixture
def second_round(make_world):
    """Nine players, round 1 played: round 2 is paired with a pair-down and a bye."""
    world = make_world(9, rounds_played=1)
    return world


# --- what a paired round keeps ----------------------------------------------------------------


def test_a_paired_round_keeps_its_input_and_a_pairing_the_checker_proves(second_round):
    round_ = second_round.round
    state, pairing = round_.audit["state"], round_.audit["pairing"]
    assert state["round"] == 2 and state["seed"] == round_.seed == pairing["seed"]
    ids = {r.public_id for r in second_round.registrations}
    assert {p["id"] for p in state["players"]} == ids
    assert all("name" not in p for p in state["players"])
    assert {frozenset(p) for p in pairing["pairings"]} == seated(round_)
    bye = round_.matches.get(is_bye=True).player_a.public_id
    assert pairing["bye"] == bye
    proven = verify.verify(state, pairing)
    assert proven["pairs"] == 4 and proven["bye"] == bye and proven["players"] == 9


def test_the_stored_input_replays_to_the_same_pairing_and_proof(second_round):
    stored = second_round.round.audit
    replayed = swiss.pair_state(json.loads(json.dumps(stored["state"])), certificate=True)
    assert replayed["pairings"] == stored["pairing"]["pairings"]
    assert replayed["bye"] == stored["pairing"]["bye"]
    assert replayed["certificate"] == stored["pairing"]["certificate"]


def test_the_replay_command_prints_the_same_pairing(second_round):
    stored = second_round.round.audit
    done = subprocess.run(
        [sys.executable, "-m", "pairing.swiss", "--certificate"],
        input=json.dumps(stored["state"]),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(swiss.__file__).resolve().parents[1],
    )
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed["pairings"] == stored["pairing"]["pairings"]
    assert printed["certificate"] == stored["pairing"]["certificate"]


def test_a_re_pair_stores_the_new_pairing(make_world):
    world = make_world(8, rounds_played=1)
    before = dict(world.round.audit)
    round_ = rounds.repair_round(world.round, world.organiser, "A player was late")
    assert round_.audit["state"]["seed"] == round_.seed != before["state"]["seed"]
    assert {frozenset(p) for p in round_.audit["pairing"]["pairings"]} == seated(round_)
    verify.verify(round_.audit["state"], round_.audit["pairing"])
    found = round_audit.read(round_)
    assert not found.tables_changed and len(found.repairs) == 1


def test_awarded_byes_are_outside_the_input_and_named(make_world, client):
    world = make_world(9, paired=False)
    lucky = world.registrations[0]
    services.award_byes(world.event, lucky, 1, world.organiser)
    round_ = rounds.pair_next_round(world.event, world.organiser)
    assert lucky.public_id not in {p["id"] for p in round_.audit["state"]["players"]}
    assert round_.audit["awarded_byes"] == [lucky.public_id]
    verify.verify(round_.audit["state"], round_.audit["pairing"])
    found = round_audit.read(round_)
    assert not found.tables_changed  # the awarded bye is no bye of the engine's
    page = client.get(audit_url(round_)).content.decode()
    assert "Awarded byes" in page and lucky.public_id in page


# --- the page -----------------------------------------------------------------------------------


def test_anyone_sees_a_public_rounds_audit_by_id_only(second_round, client):
    round_ = second_round.round
    response = client.get(audit_url(round_))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Checked on the server: valid and optimal." in page
    assert str(round_.seed) in page
    for registration in second_round.registrations:
        assert registration.public_id in page
        assert registration.display_name not in page  # ids only: names check nothing
    for link in ("state.json", "pairing.json"):
        assert f'href="{audit_url(round_, link)}"' in page
    assert 'href="/pairing/verify.py"' in page
    assert "python3 verify.py state.json pairing.json" in page
    assert "python -m pairing.swiss --certificate &lt; state.json" in page
    assert 'aria-live="polite"' in page and "data-audit-check" in page
    assert "js/pairing-verify.js" in page and "js/round-audit.js" in page
    assert "tables were changed" not in page


def test_a_signed_in_player_is_told_their_own_id(second_round, client):
    registration = second_round.registrations[3]
    client.force_login(registration.user)
    page = client.get(audit_url(second_round.round)).content.decode()
    assert f"You are <strong>{registration.public_id}</strong>" in page


def test_the_pairings_page_links_each_swiss_round_to_its_audit(second_round, client):
    round_ = second_round.round
    page = client.get(f"/events/{round_.event_id}/pairings/?round=2").content.decode()
    assert f'href="{audit_url(round_)}"' in page
    assert "How these pairings were made / verify" in page


def test_a_draft_events_audit_is_its_organisers_alone(second_round, client, organiser):
    round_ = second_round.round
    Event.objects.filter(pk=round_.event_id).update(status=Event.Status.DRAFT)
    for tail in ("", "state.json", "pairing.json"):
        assert client.get(audit_url(round_, tail)).status_code == 404, tail
    api = f"/api/v1/events/{round_.event_id}/rounds/2/audit/"
    assert APIClient().get(api).status_code in (401, 403)
    client.force_login(organiser)
    assert client.get(audit_url(round_)).status_code == 200
    assert client.get(audit_url(round_, "state.json")).status_code == 200


def test_an_unknown_round_is_not_found(second_round, client):
    url = f"/events/{second_round.event.pk}/rounds/9/audit/"
    assert client.get(url).status_code == 404
    assert client.get(url + "state.json").status_code == 404


def test_a_round_paired_before_proofs_says_so(second_round, client):
    round_ = second_round.round
    Round.objects.filter(pk=round_.pk).update(audit={})
    response = client.get(audit_url(round_))
    assert response.status_code == 200
    assert "This round was paired before pairings carried proofs." in response.content.decode()
    assert client.get(audit_url(round_, "state.json")).status_code == 404
    assert client.get(audit_url(round_, "pairing.json")).status_code == 404
    answer = APIClient().get(f"/api/v1/events/{round_.event_id}/rounds/2/audit/")
    assert answer.status_code == 404
    assert "before pairings carried proofs" in answer.json()["errors"][0]["message"]


def test_a_top_cut_round_has_no_audit(make_world, client):
    world = make_world(8, rounds_played=3, paired=False, swiss_rounds=3, top_cut=4)
    cut = rounds.start_top_cut(world.event, world.organiser)
    assert cut.audit == {}
    response = client.get(audit_url(cut))
    assert response.status_code == 200 and "Top-cut rounds" in response.content.decode()
    assert client.get(audit_url(cut, "state.json")).status_code == 404
    pairings = client.get(f"/events/{cut.event_id}/pairings/").content.decode()
    assert "How these pairings were made" not in pairings


def test_after_a_swap_the_page_says_the_tables_changed(make_world, client):
    world = make_world(8, rounds_played=1)
    round_ = world.round
    first, second = world.table(1), world.table(2)
    rounds.swap_players(round_, first.player_b, second.player_b, world.organiser, "Mix-up")
    found = round_audit.read(round_)
    assert found.tables_changed
    assert {frozenset(p) for p in found.not_seated} == {
        frozenset((first.player_a.public_id, first.player_b.public_id)),
        frozenset((second.player_a.public_id, second.player_b.public_id)),
    }
    page = client.get(audit_url(round_)).content.decode()
    assert "The tables were changed after pairing." in page
    assert "The proof is about the program" in page
    assert escape(str(EventLog.WORDS["swap"])) in page and "(tables 1, 2)" in page
    assert "Mix-up" not in page  # the organiser's reason stays in their log
    assert "Checked on the server: valid and optimal." in page  # of the engine's pairing
    api = APIClient().get(f"/api/v1/events/{round_.event_id}/rounds/{round_.number}/audit/")
    assert api.json()["tables_changed"] is True


def test_a_stored_pairing_that_fails_the_check_is_shown_refused(second_round, client):
    round_ = second_round.round
    stored = round_.audit
    stored["pairing"]["pairings"] = crossing_swap(stored["state"], stored["pairing"])
    Round.objects.filter(pk=round_.pk).update(audit=stored)
    page = client.get(audit_url(round_)).content.decode()
    assert "Checked on the server: refused." in page


def test_a_big_rounds_input_table_is_capped(second_round, client, monkeypatch):
    monkeypatch.setattr(round_audit, "INPUT_ROWS", 4)
    page = client.get(audit_url(second_round.round)).content.decode()
    assert "The first 4 of 9 players; state.json has them all." in page


# --- downloads and the API ----------------------------------------------------------------------


def test_the_checker_download_is_the_repositorys_file(client, db):
    response = client.get("/pairing/verify.py")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/x-python"
    assert 'attachment; filename="verify.py"' in response["Content-Disposition"]
    assert b"".join(response.streaming_content) == CHECKER.read_bytes()


def test_the_two_documents_download_as_json_the_checker_accepts(second_round, client):
    round_ = second_round.round
    files = {}
    for name in ("state.json", "pairing.json"):
        response = client.get(audit_url(round_, name))
        assert response.status_code == 200
        assert response["Content-Type"].startswith("application/json")
        assert f'filename="{name}"' in response["Content-Disposition"]
        files[name] = json.loads(response.content)
    assert files["state.json"] == round_.audit["state"]
    assert verify.verify(files["state.json"], files["pairing.json"])["pairs"] == 4


def test_the_api_gives_both_documents_and_the_verdict(second_round):
    round_ = second_round.round
    answer = APIClient().get(f"/api/v1/events/{round_.event_id}/rounds/2/audit/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["state"] == round_.audit["state"]
    assert body["pairing"] == round_.audit["pairing"]
    assert body["verdict"]["ok"] is True and body["verdict"]["proven"]["pairs"] == 4
    assert body["awarded_byes"] == [] and body["tables_changed"] is False


def test_the_schema_describes_the_audit_operation(client, db):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/events/{event_id}/rounds/{number}/audit/"]["get"]
    assert operation["operationId"] == "round_audit"
    assert "RoundAudit" in schema["components"]["schemas"]


# --- checking it yourself -----------------------------------------------------------------------


def _download_all(client, round_: Round, folder: Path) -> None:
    checker = client.get("/pairing/verify.py")
    (folder / "verify.py").write_bytes(b"".join(checker.streaming_content))
    for name in ("state.json", "pairing.json"):
        (folder / name).write_bytes(client.get(audit_url(round_, name)).content)


def _run_checker(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "verify.py", "state.json", "pairing.json"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},  # nothing of the site: the file stands alone
    )


def crossing_swap(state: dict, pairing: dict) -> list[list[str]]:
    """The pairs with one top-group player and one bottom-group player exchanged between two
    tables where neither new pair is a rematch: two pair-downs the engine would not make."""
    points = {p["id"]: p["points"] for p in state["players"]}
    met = {p["id"]: set(p["opponents"]) for p in state["players"]}
    pairs = [list(p) for p in pairing["pairings"]]
    top, bottom = max(points.values()), min(points.values())
    for i, (a, b) in enumerate(pairs):
        for j, (c, d) in enumerate(pairs):
            crossing = points[a] == points[b] == top and points[c] == points[d] == bottom
            if crossing and b not in met[d] and a not in met[c]:
                changed = [list(p) for p in pairs]
                changed[i], changed[j] = [a, c], [b, d]
                return changed
    raise AssertionError("no crossing swap in this round")


def test_the_downloaded_checker_proves_the_round_and_refuses_a_tampered_one(
    make_world, client, tmp_path
):
    world = make_world(8, rounds_played=1)
    round_ = world.round
    folder = tmp_path
    _download_all(client, round_, folder)
    untouched = _run_checker(folder)
    assert untouched.returncode == 0, untouched.stdout + untouched.stderr
    assert untouched.stdout.startswith("VALID and OPTIMAL:")

    state = json.loads((folder / "state.json").read_text())
    pairing = json.loads((folder / "pairing.json").read_text())
    pairing["pairings"] = crossing_swap(state, pairing)
    (folder / "pairing.json").write_text(json.dumps(pairing))
    tampered = _run_checker(folder)
    assert tampered.returncode == 1, tampered.stdout + tampered.stderr
    assert tampered.stdout.startswith("REFUSED: ")
