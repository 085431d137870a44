"""Exit 0 when this machine's Arbiter answers ``GET /healthz`` with 200, else 1 (with why).

Docker's HEALTHCHECK and compose run it inside the web container; a shell or a monitoring
agent on a bare-metal host can run it too. A plain ``curl http://127.0.0.1:8000/healthz``
is not enough in production: Django answers 400 to a Host header not in ALLOWED_HOSTS, and
with SECURE_SSL_REDIRECT on it redirects plain HTTP to HTTPS. So the request names the first
allowed host and says (as the TLS proxy would) that it arrived over HTTPS.

Standard library only, settings read from the same environment as the app.
"""

from __future__ import annotations

import http.client
import os
import sys

TIMEOUT_SECONDS = 8.0


def target(env: dict[str, str]) -> tuple[str, int]:
    """Where gunicorn listens: GUNICORN_BIND's port on loopback (0.0.0.0 is not an address)."""
    bind = env.get("GUNICORN_BIND", "0.0.0.0:8000").split(",")[0].strip()
    if bind.startswith("unix:"):
        raise SystemExit("healthcheck: GUNICORN_BIND is a unix socket; check via the proxy.")
    host, _, port = bind.rpartition(":")
    host = host.strip("[]")
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    try:
        return host, int(port)
    except ValueError:
        raise SystemExit(f"healthcheck: GUNICORN_BIND={bind!r} has no port number.") from None


def host_header(env: dict[str, str]) -> str:
    """The first concrete name in ALLOWED_HOSTS ('.example.org' and '*' become usable ones)."""
    for name in env.get("ALLOWED_HOSTS", "").split(","):
        name = name.strip()
        if name == "*" or not name:
            continue
        return "www" + name if name.startswith(".") else name
    return "localhost"


def check(env: dict[str, str]) -> tuple[bool, str]:
    """(healthy, a one-line report) for GET /healthz on this machine."""
    host, port = target(env)
    connection = http.client.HTTPConnection(host, port, timeout=TIMEOUT_SECONDS)
    try:
        connection.request(
            "GET",
            "/healthz",
            headers={"Host": host_header(env), "X-Forwarded-Proto": "https"},
        )
        response = connection.getresponse()
        body = response.read(2000).decode("utf-8", "replace")
    except OSError as exc:
        return False, f"healthcheck: {host}:{port} did not answer: {exc}"
    finally:
        connection.close()
    return response.status == 200, f"healthcheck: HTTP {response.status} {body}"


def main() -> int:
    healthy, report = check(dict(os.environ))
    print(report, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
