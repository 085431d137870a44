"""Production responses carry the security headers and cookie flags browsers act on.

The real settings module is loaded in a subprocess under a production environment
(DEBUG=false and so on, as tests/arbiter/test_settings.py does), with a throwaway SQLite
database, and answers real requests through Django's test client over HTTPS.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What deploy/ sets, minus the services: the headers do not depend on them.
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "h3ad3rs-" + "Zq8#pL2@xW9!mN4$kR7%tY1^bV6&cJ3*" * 2,
    "ALLOWED_HOSTS": "arbiter.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://arbiter.example.org",
}
PROBE = r"""
import json
import django
django.setup()
from django.core.management import call_command
# What a log-in reads and writes (accounts: the saved language); the rest is not needed.
for app in ("auth", "sessions", "axes", "accounts"):
    call_command("migrate", app, verbosity=0)
from django.contrib.auth.models import User
from django.test import Client

User.objects.create_user("olive", password="a-long-unusual-passphrase")
client = Client(HTTP_HOST="arbiter.example.org")
api = client.get("/api/v1/events/", secure=True)
login = client.post(
    "/accounts/login/",
    {"username": "olive", "password": "a-long-unusual-passphrase"},
    secure=True,
)
plain = Client(HTTP_HOST="arbiter.example.org").get("/api/v1/events/")
print(json.dumps({
    "api": {"status": api.status_code, "headers": dict(api.headers)},
    "login": {
        "status": login.status_code,
        "headers": dict(login.headers),
        "cookies": {
            name: {**dict(morsel), "secure": bool(morsel["secure"]),
                   "httponly": bool(morsel["httponly"])}
            for name, morsel in login.cookies.items()
        },
    },
    "plain": {"status": plain.status_code, "location": plain.headers.get("Location")},
}))
"""


def probe(tmp_path: Path, **extra: str) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
        and not k.startswith(("SECURE_", "SESSION_", "CSRF_"))
    }
    env.update(PRODUCTION, DATABASE_URL=f"sqlite:///{tmp_path / 'headers.sqlite3'}", **extra)
    env["DJANGO_SETTINGS_MODULE"] = "arbiter.settings"
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def production(tmp_path_factory) -> dict:
    return probe(tmp_path_factory.mktemp("production"))


def test_every_response_carries_the_hardening_headers(production):
    for name in ("api", "login"):
        headers = production[name]["headers"]
        assert headers["Strict-Transport-Security"] == (
            "max-age=31536000; includeSubDomains; preload"
        ), name
        assert headers["X-Content-Type-Options"] == "nosniff", name
        assert headers["Referrer-Policy"] == "same-origin", name
        assert headers["X-Frame-Options"] == "DENY", name
        assert headers["Cross-Origin-Opener-Policy"] == "same-origin", name


def test_the_content_security_policy_allows_only_this_site(production):
    policy = production["api"]["headers"]["Content-Security-Policy"]
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert directives == {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }


def test_session_and_csrf_cookies_are_secure(production):
    login = production["login"]
    assert login["status"] == 302, login
    session = login["cookies"]["sessionid"]
    assert session["secure"] and session["httponly"]
    assert session["samesite"] == "Lax"
    csrf = login["cookies"]["csrftoken"]
    assert csrf["secure"] and csrf["samesite"] == "Lax"


def test_plain_http_is_sent_to_https(production):
    assert production["plain"]["status"] == 301
    assert production["plain"]["location"].startswith("https://arbiter.example.org/")


def test_hsts_preload_can_be_turned_off():
    """Preloading is hard to undo, so a deployment can leave it out (SECURE_HSTS_PRELOAD)."""
    code = "import arbiter.settings as s; print(s.SECURE_HSTS_PRELOAD, s.SECURE_HSTS_SECONDS)"
    env = {**os.environ, **PRODUCTION, "SECURE_HSTS_PRELOAD": "false"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.stdout.split() == ["False", "31536000"], result.stderr
