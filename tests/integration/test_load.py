"""The 512-player round of benchmarks/load_round.py, run against the topology in CI.

Every player reports within the minute, nothing answers 5xx, every agreed result is
stored once as reported, and the tables whose players disagree wait for a judge.
"""

from __future__ import annotations

import logging

import pytest

from benchmarks.load_round import print_report, run_load, start_site

pytestmark = pytest.mark.integration

PLAYERS = 512
CONFLICTS = 8


def test_every_player_of_a_512_player_round_reports_within_a_minute(make_topology, caplog):
    caplog.set_level(logging.WARNING, logger="httpx")  # not a log line per request
    site = make_topology()
    start_site(site)
    report = run_load(site, players=PLAYERS, conflicts=CONFLICTS, limit=60.0)
    print_report(report)  # the figures, in the test log (-s or -rP)
    assert report.failures == [], report.failures
    assert report.integrity_failures == [], report.integrity_failures
    assert report.status_counts == {"200": PLAYERS}
    assert report.server_errors == report.transport_errors == 0
    assert report.matches == PLAYERS // 2 and report.conflicts == CONFLICTS
    assert report.window_seconds <= 60.0
