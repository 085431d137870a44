"""/healthz tells a load balancer and an organiser whether the site's parts answer."""

import pytest
from django.test import override_settings


@pytest.mark.django_db
def test_healthz_is_200_with_every_part_named(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    for part in ("database", "cache", "broker"):
        assert body[part]["ok"] is True


@pytest.mark.django_db
@override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL="redis://127.0.0.1:1/0")
def test_healthz_reports_a_dead_broker_as_503(client):
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["broker"]["ok"] is False
    assert body["broker"]["error"]
    assert body["database"]["ok"] is True


@pytest.mark.django_db
def test_healthz_reports_a_dead_database_as_503(client, monkeypatch):
    from web import health

    def broken():
        raise ConnectionError("connection refused")

    monkeypatch.setitem(health.CHECKS, "database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == {
        "ok": False,
        "error": "ConnectionError: connection refused",
        "ms": response.json()["database"]["ms"],
    }
