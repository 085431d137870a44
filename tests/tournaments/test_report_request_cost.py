"""What one player's report costs the database, at a round's busiest minute.

At 512 players reporting at once, every query a report makes is made 512 times; these
pin the count so that a change that adds one is seen.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.tokens import issue_token
from tournaments.models import Match

pytestmark = pytest.mark.django_db

# Token and user; the match with its players; in the transaction: the event's shared lock,
# the match locked (with players and accounts), the match saved, the claim, the log row,
# the results version; the claims for the answer. (Savepoints are not counted.)
MOST_QUERIES_PER_REPORT = 9


def test_a_report_by_token_makes_few_queries(client, make_world):
    world = make_world(8)
    match = world.round.matches.filter(is_bye=False).order_by("table").first()
    token = issue_token(match.player_a.user)
    with CaptureQueriesContext(connection) as seen:
        response = client.post(
            f"/api/v1/matches/{match.pk}/report/",
            {"score": "2-0"},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {token.key}",
        )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "reported"
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    statements = [
        q["sql"] for q in seen.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))
    ]
    assert len(statements) <= MOST_QUERIES_PER_REPORT, "\n".join(statements)


def test_a_registered_player_of_another_table_is_still_refused(client, make_world):
    world = make_world(8)
    first, second = world.round.matches.filter(is_bye=False).order_by("table")[:2]
    token = issue_token(second.player_a.user)
    response = client.post(
        f"/api/v1/matches/{first.pk}/report/",
        {"score": "2-0"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token.key}",
    )
    assert response.status_code == 403
