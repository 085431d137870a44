"""gunicorn settings for Arbiter's web processes; every value comes from the environment.

Used by the image (``gunicorn --config deploy/gunicorn.conf.py arbiter.asgi:application``),
by the systemd unit and by the tests on loopback, so nothing here assumes Docker. The
variables and their defaults are listed in deploy/.env.example.

Each worker process is uvicorn (arbiter/asgi_worker.py): it serves HTTP and the live
WebSockets (/ws/…) of ``arbiter.asgi``; notices reach every process's sockets through the
channel layer in Redis (REDIS_URL).
"""

from __future__ import annotations

import contextlib
import os
import resource


def _env_int(name: str, default: int, minimum: int = 0) -> int:
    """A whole-number setting; a typo stops gunicorn with the variable's name, not a trace."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise RuntimeError(f"{name}={raw!r} is not a whole number.") from None
    if value < minimum:
        raise RuntimeError(f"{name}={value} must be at least {minimum}.")
    return value


def _cpu_count() -> int:
    """CPUs this process may run on (a container's cpuset, not the whole host, when set)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# Where to listen. Behind a reverse proxy on the same machine, 127.0.0.1:8000 is enough;
# in a container it must be 0.0.0.0. Several addresses may be given, comma-separated.
bind = [part.strip() for part in os.environ.get("GUNICORN_BIND", "0.0.0.0:8000").split(",")]

# uvicorn inside gunicorn: HTTP and WebSockets from the ASGI application.
worker_class = "arbiter.asgi_worker.ArbiterWorker"
wsgi_app = "arbiter.asgi:application"

# Processes: the usual 2 x CPUs + 1. threads is how many requests each process runs in
# Django at once (each on a thread with its own database connection; the others wait), so
# (workers x (threads + 1) x web machines) + Celery workers must stay under PostgreSQL's
# max_connections (deploy/README.md, "Connection counts"); the + 1 is the live sockets'
# look-ups. Open WebSockets take no thread.
workers = _env_int("WEB_CONCURRENCY", 2 * _cpu_count() + 1, minimum=1)
threads = _env_int("GUNICORN_THREADS", 1, minimum=1)

# A worker whose event loop stops answering for this long is killed and restarted; a slow
# request on its thread holds one of the worker's threads until it ends (PDFs render on
# Celery, so no page needs long). graceful_timeout is how long a stopping worker may finish
# its requests; its WebSockets are closed with 1012 (their pages reconnect).
timeout = _env_int("GUNICORN_TIMEOUT", 30, minimum=1)
graceful_timeout = _env_int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = _env_int("GUNICORN_KEEPALIVE", 5)

# Recycle each worker after about this many HTTP requests, jittered so they do not all
# restart at once: it bounds any slow memory growth. 0 turns recycling off. WebSockets do
# not count; a recycled worker's sockets close with 1012 and their pages reconnect. A
# recycled (or HUP-replaced) worker drops no request: it answers what reaches it with
# Connection: close and lets idle kept-alive connections go at their keepalive timeout
# (arbiter/asgi_worker.py), so it takes up to `keepalive` seconds to go.
max_requests = _env_int("GUNICORN_MAX_REQUESTS", 1000)
max_requests_jitter = _env_int("GUNICORN_MAX_REQUESTS_JITTER", 100)

# Logs to standard output/error, for docker logs and journald. "-" means stdout.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")

# The proxies whose X-Forwarded-* headers are believed: comma-separated IPs or networks, or
# * when only the proxy can reach gunicorn (compose). The same TRUSTED_PROXIES that Django
# reads for the client's address (arbiter/env.py); FORWARDED_ALLOW_IPS is its old name.
# Django alone applies it (the worker leaves uvicorn's own proxy headers off); it is set
# here too so that --print-config shows what is trusted.
_trusted_proxies = os.environ.get("TRUSTED_PROXIES")
if _trusted_proxies is None:
    _trusted_proxies = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
forwarded_allow_ips = _trusted_proxies

# Workers' heartbeat files: on a disk-backed /tmp a slow disk can make gunicorn think a
# worker hung; /dev/shm is memory.
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

# gunicorn 25.1+ opens a control socket under $HOME by default; several gunicorns under one
# user (the test suite, more than one site) would fight over it. Off unless a path is given.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", "")
control_socket_disable = not control_socket
if not control_socket:
    del control_socket


def _raise_open_files_limit() -> None:
    """Every open WebSocket is a file descriptor; 1,024 (a common soft limit) is too few.

    The soft limit goes up to the hard one (inherited by the workers); the unit and the
    compose file set the hard one (LimitNOFILE, ulimits).
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 1_048_576 if hard == resource.RLIM_INFINITY else hard
        # Refused: the limit stays as it was; the operator's guide says how to raise it.
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


_raise_open_files_limit()
