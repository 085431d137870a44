"""``manage.py demo`` builds the demo once; running it again changes nothing."""

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tournaments.models import Event, EventRole, Registration

pytestmark = pytest.mark.django_db


def demo_rows() -> tuple:
    from judging.models import JudgeCall, Penalty
    from tournaments.models import Match

    return (
        sorted(Match.objects.values_list("pk", "games", "status")),
        Penalty.objects.count(),
        JudgeCall.objects.count(),
        sorted(User.objects.values_list("username", "password")),
        sorted(Event.objects.values_list("name", "status", "date")),
        sorted(EventRole.objects.values_list("event__name", "user__username", "role")),
        sorted(Registration.objects.values_list("event__name", "user__username", "status")),
    )


def run_demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_demo_creates_accounts_and_an_open_iacta_event_and_prints_log_ins(client):
    output = run_demo()
    assert User.objects.filter(username__startswith="player").count() == 16
    event = Event.objects.get(name="Arbiter Demo Open")
    assert event.game == "iacta" and event.registration_open
    assert EventRole.objects.filter(event=event, user__username="organiser").exists()
    assert EventRole.objects.filter(event=event, user__username="judge", role="judge").exists()
    for username in ("organiser", "judge", "player01", "player16"):
        assert username in output
    # The printed log-ins work.
    line = next(line for line in output.splitlines() if " organiser " in f" {line} ")
    username, password = line.split()[-2:]
    assert client.login(username=username, password=password)


def test_demo_twice_changes_nothing():
    run_demo()
    before = demo_rows()
    output = run_demo()
    assert demo_rows() == before
    assert "nothing changed" in output


def test_demo_plays_out_an_event_with_every_feature():
    from judging.models import JudgeCall, Penalty
    from tournaments.models import Round

    run_demo()
    event = Event.objects.get(name="Arbiter Demo Championship")
    assert list(event.rounds.values_list("number", "status")) == [
        (1, Round.Status.CLOSED),
        (2, Round.Status.CLOSED),
        (3, Round.Status.CLOSED),
        (4, Round.Status.PAIRED),
    ]
    assert event.registrations.count() == 16
    assert any(p.consequences for p in Penalty.objects.filter(event=event))
    assert JudgeCall.objects.filter(event=event, resolved_at__isnull=True).exists()
    assert event.rounds.get(number=4).matches.filter(extension_minutes__gt=0).exists()
