"""Reading Arbiter's settings from the environment.

Plain functions over a mapping (normally ``os.environ``) so the rules for the
embedded default and for production can be tested without reloading Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from web import client_address

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    """A yes/no setting; anything unrecognised is an error, not a silent False."""
    raw = env.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a yes/no value (use true or false).")


def env_list(env: Mapping[str, str], name: str, default: list[str]) -> list[str]:
    """A comma-separated list such as ALLOWED_HOSTS."""
    raw = env.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None


# Venue mode (``manage.py venue``): one laptop serving a whole hall from one SQLite file.
# WAL lets phones read while a result is written; NORMAL syncs at checkpoints only (a power
# cut may lose the last commits, never corrupt the file: the round backups cover that);
# IMMEDIATE takes the write lock when a transaction begins, so two writers wait their turn
# (up to the timeout) instead of one failing with "database is locked" halfway through.
VENUE_SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    "timeout": 20,
    "transaction_mode": "IMMEDIATE",
}
DEFAULT_BACKUPS_KEEP = 10


def venue_mode(env: Mapping[str, str]) -> bool:
    """ARBITER_VENUE: set by ``manage.py venue`` for the processes it starts."""
    return env_bool(env, "ARBITER_VENUE", False)


def venue_dir(env: Mapping[str, str], base_dir: Path) -> Path:
    """The venue folder: database, secret key, static files and backups."""
    return Path(env.get("ARBITER_VENUE_DIR") or base_dir / "var" / "venue")


def backup_config(env: Mapping[str, str], base_dir: Path) -> dict[str, Any]:
    """Where the after-round snapshots and database backups go, and how many are kept.

    ARBITER_BACKUP_DIR; by default the venue folder's backups/ in venue mode and none
    (off) otherwise. ARBITER_BACKUPS_KEEP of each kind are kept (default 10).
    """
    directory = env.get("ARBITER_BACKUP_DIR")
    if directory is None:
        directory = str(venue_dir(env, base_dir) / "backups") if venue_mode(env) else ""
    keep = env_int(env, "ARBITER_BACKUPS_KEEP", DEFAULT_BACKUPS_KEEP)
    if keep < 1:
        raise ImproperlyConfigured(f"ARBITER_BACKUPS_KEEP={keep} must be at least 1.")
    return {"ARBITER_BACKUP_DIR": directory.strip(), "ARBITER_BACKUPS_KEEP": keep}


def database_config(
    env: Mapping[str, str], base_dir: Path, *, debug: bool = True
) -> dict[str, Any]:
    """DATABASE_URL, or the embedded SQLite file that needs nothing running.

    ``debug`` is the site's DEBUG: with it off (production), PostgreSQL connections are
    pooled unless the environment says otherwise (``postgres_pool``).
    """
    url = env.get("DATABASE_URL") or f"sqlite:///{base_dir / 'var' / 'arbiter.sqlite3'}"
    try:
        # Health checks: a kept connection that died (database restarted) is replaced
        # at the start of the next request instead of failing it; with a pool, each
        # connection is checked as the pool lends it.
        config = dj_database_url.parse(
            url, conn_max_age=env_int(env, "DB_CONN_MAX_AGE", 0), conn_health_checks=True
        )
    except Exception as exc:  # dj_database_url raises several kinds for a bad URL
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {exc}") from None
    if config["ENGINE"] == "django.db.backends.sqlite3" and venue_mode(env):
        config["OPTIONS"] = dict(VENUE_SQLITE_OPTIONS)
    elif config["ENGINE"] == "django.db.backends.sqlite3":
        # WAL and a busy timeout let the dev server and an eager task share the file.
        config["OPTIONS"] = {"timeout": 20, "init_command": "PRAGMA journal_mode=WAL;"}
    elif config["ENGINE"] == POSTGRES_ENGINE:
        # An unreachable server fails a request in seconds (a 503), not after the OS's
        # TCP timeout; the URL's own ?connect_timeout= wins.
        config.setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
        pool = postgres_pool(env, debug=debug)
        if pool:
            config["OPTIONS"]["pool"] = pool
            # psycopg's pool, answering a PostgreSQL restart as promptly as no pool does
            # (arbiter/postgresql/pool.py).
            config["ENGINE"] = POOLED_ENGINE
    if env_bool(env, "DB_PGBOUNCER", False):
        if config["ENGINE"] not in (POSTGRES_ENGINE, POOLED_ENGINE):
            raise ImproperlyConfigured(
                "DB_PGBOUNCER=true needs a PostgreSQL DATABASE_URL (PgBouncer's address)."
            )
        behind_pgbouncer(config)
    return config


def behind_pgbouncer(config: dict[str, Any]) -> None:
    """DB_PGBOUNCER: DATABASE_URL is PgBouncer in transaction mode (deploy/pgbouncer/).

    There each transaction, and each statement outside one, may run on another server
    connection, so nothing may outlive a transaction on the server: no server-side
    cursors (``.iterator()`` would DECLARE a cursor one statement and FETCH from it on
    another connection), no prepared statements (named per server connection; Django
    already turns psycopg's off, said here so no OPTIONS can turn them back on), and
    parameters bound on the client (psycopg's server-side binding is off). Django's own
    pool (DB_POOL_SIZE) stays as set: its connections are PgBouncer's clients, which hold
    no PostgreSQL connection while idle, and it spares each request a connection and a
    password exchange with PgBouncer's single thread.
    """
    config["DISABLE_SERVER_SIDE_CURSORS"] = True
    options = config.setdefault("OPTIONS", {})
    options["prepare_threshold"] = None
    options["server_side_binding"] = False


POSTGRES_ENGINE = "django.db.backends.postgresql"
POOLED_ENGINE = "arbiter.postgresql"
# Seconds a request waits for a pooled connection before its 503: the same bound as
# connect_timeout without a pool. With DB_POOL_SIZE at least the threads that use the
# database at once, a request only waits while a connection is being made.
POOL_WAIT_SECONDS = 5


def postgres_pool(env: Mapping[str, str], *, debug: bool = True) -> dict[str, int] | None:
    """DB_POOL_SIZE: PostgreSQL connections kept per process and lent to a thread at a time.

    Under the ASGI server a kept connection (DB_CONN_MAX_AGE) would outlive the request's
    thread; a pool hands connections back at the end of each request instead, so a
    request does not pay for a new PostgreSQL connection (psycopg's pool, Django 5.1+).

    On by default in production (DEBUG off), at ``GUNICORN_THREADS + 1``: a web process
    runs that many threads on the database at once (its requests, and one for the live
    sockets' look-ups), so no request waits for another's connection. None is opened
    ahead of need (min_size 0): Celery closes a prefork process's pool after each task, so
    a pool that opened one connection ahead would make two per task where one is used
    (psycopg's pool also grows for the task that is waiting); as it is, a task opens one,
    as without a pool. A web process's connections stay open until they have been idle
    for psycopg's max_idle (10 minutes), one at a time. DB_POOL_SIZE=0 turns it off. A
    DB_CONN_MAX_AGE above 0 with no DB_POOL_SIZE is the operator choosing kept connections
    instead, so there is no pool; both set is an error.
    """
    conn_max_age = env_int(env, "DB_CONN_MAX_AGE", 0)
    if env.get("DB_POOL_SIZE", "").strip():
        size = env_int(env, "DB_POOL_SIZE", 0)
    elif debug or conn_max_age:
        size = 0
    else:
        size = env_int(env, "GUNICORN_THREADS", 1) + 1
    if size < 0:
        raise ImproperlyConfigured(f"DB_POOL_SIZE={size} must be 0 (no pool) or more.")
    if not size:
        return None
    if conn_max_age:
        raise ImproperlyConfigured(
            f"DB_POOL_SIZE={size} and DB_CONN_MAX_AGE={conn_max_age} cannot both be set: "
            "the pool keeps the connections, so set DB_CONN_MAX_AGE=0 (or leave it out), "
            "or DB_POOL_SIZE=0 to keep connections without a pool."
        )
    return {"min_size": 0, "max_size": size, "timeout": POOL_WAIT_SECONDS}


def celery_config(env: Mapping[str, str]) -> dict[str, Any]:
    """Eager in-process tasks unless CELERY_BROKER_URL names a real broker."""
    broker = env.get("CELERY_BROKER_URL", "").strip()
    if not broker:
        return {
            "CELERY_BROKER_URL": "memory://",
            "CELERY_RESULT_BACKEND": None,
            "CELERY_TASK_ALWAYS_EAGER": True,
            "CELERY_TASK_EAGER_PROPAGATES": True,
        }
    return {
        "CELERY_BROKER_URL": broker,
        "CELERY_RESULT_BACKEND": env.get("CELERY_RESULT_BACKEND") or _default_backend(broker),
        "CELERY_TASK_ALWAYS_EAGER": False,
        "CELERY_TASK_EAGER_PROPAGATES": False,
        **_redis_transport(env),
    }


def _default_backend(broker: str) -> str | None:
    return broker if broker.startswith(("redis://", "rediss://")) else None


# A late-acknowledged task whose worker died whole (power cut, SIGKILL, OOM) is handed out
# again only once this many seconds have passed since it was taken: Redis cannot tell a
# dead worker from a slow one. It must be longer than the longest task (a chunk of slips
# renders in seconds, joining a 2,000-slip job takes about a minute), or a task still
# running would be given to a second worker as well; kombu's default is an hour, which
# leaves a killed print job stuck that long. 15 minutes is well clear of both.
DEFAULT_VISIBILITY_TIMEOUT = 15 * 60
# Sending a task while Redis is down fails after these retries (about a second), so a
# request that enqueues work answers at once ("waiting for the queue") instead of hanging
# for Celery's default of 20 one-second retries on the result backend.
PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.3}


def _redis_transport(env: Mapping[str, str]) -> dict[str, Any]:
    """Redelivery after a lost worker (CELERY_VISIBILITY_TIMEOUT) and short retries."""
    visibility = env_int(env, "CELERY_VISIBILITY_TIMEOUT", DEFAULT_VISIBILITY_TIMEOUT)
    if visibility < 1:
        raise ImproperlyConfigured(f"CELERY_VISIBILITY_TIMEOUT={visibility} must be at least 1.")
    return {
        "CELERY_BROKER_TRANSPORT_OPTIONS": {
            "visibility_timeout": visibility,
            "socket_connect_timeout": 2,
        },
        "CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS": {
            "visibility_timeout": visibility,
            "retry_policy": dict(PUBLISH_RETRY_POLICY),
        },
        "CELERY_REDIS_SOCKET_CONNECT_TIMEOUT": 2,
        "CELERY_TASK_PUBLISH_RETRY_POLICY": dict(PUBLISH_RETRY_POLICY, interval_max=1),
    }


# A print job with no progress for this long is called stalled and sent to the workers
# again (printing/jobs.py): its queue messages were lost (Redis restarted without
# persistence) or its worker was killed. It must be shorter than the visibility timeout,
# or the broker's own redelivery would come first and the job would sit "Rendering" until
# then; and longer than any one task (joining a 2,000-slip job takes about a minute).
DEFAULT_STALL_SECONDS = 5 * 60
# How often beat looks for stalled jobs.
DEFAULT_SWEEP_SECONDS = 60
# Jobs of at most this many pages (one round's slips for 800 players) go to the small
# queue, so they never wait behind a huge job's chunks.
DEFAULT_SMALL_JOB_PAGES = 100


def print_job_config(env: Mapping[str, str]) -> dict[str, Any]:
    """When a print job counts as stalled, how often beat sweeps, what a small job is."""
    visibility = env_int(env, "CELERY_VISIBILITY_TIMEOUT", DEFAULT_VISIBILITY_TIMEOUT)
    default_stall = max(1, min(DEFAULT_STALL_SECONDS, visibility // 3))
    stall = env_int(env, "PRINT_JOB_STALL_SECONDS", default_stall)
    if not 1 <= stall < visibility:
        raise ImproperlyConfigured(
            f"PRINT_JOB_STALL_SECONDS={stall} must be at least 1 and below "
            f"CELERY_VISIBILITY_TIMEOUT ({visibility})."
        )
    sweep = env_int(env, "PRINT_JOB_SWEEP_SECONDS", min(DEFAULT_SWEEP_SECONDS, stall))
    if not 1 <= sweep <= stall:
        raise ImproperlyConfigured(
            f"PRINT_JOB_SWEEP_SECONDS={sweep} must be at least 1 and at most "
            f"PRINT_JOB_STALL_SECONDS ({stall})."
        )
    return {
        "PRINT_JOB_STALL_SECONDS": stall,
        "PRINT_JOB_SWEEP_SECONDS": sweep,
        "PRINT_SMALL_JOB_PAGES": env_int(env, "PRINT_SMALL_JOB_PAGES", DEFAULT_SMALL_JOB_PAGES),
    }


def cache_config(env: Mapping[str, str]) -> dict[str, Any]:
    """Redis when CACHE_URL is given, else a per-process memory cache."""
    url = env.get("CACHE_URL", "").strip()
    if not url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    if not url.startswith(("redis://", "rediss://")):
        raise ImproperlyConfigured(f"CACHE_URL must be a redis:// URL, not {url!r}.")
    return {
        "default": {
            # Redis errors become cache misses (logged), so pages serve while Redis is down;
            # short socket timeouts keep a page from hanging on an unreachable server.
            "BACKEND": "web.cache.ResilientRedisCache",
            "LOCATION": url,
            "TIMEOUT": 300,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


def channel_layers(env: Mapping[str, str]) -> dict[str, Any]:
    """Redis (channels-redis) when REDIS_URL is given, else the in-memory layer.

    The in-memory layer reaches only sockets served by the same process: right for the
    embedded default and venue mode (one server process), never for several web processes.
    """
    url = env.get("REDIS_URL", "").strip()
    if not url:
        return {"default": {"BACKEND": "live.memory_layer.InMemoryChannelLayer"}}
    if not url.startswith(("redis://", "rediss://")):
        raise ImproperlyConfigured(f"REDIS_URL must be a redis:// URL, not {url!r}.")
    # Redis publish/subscribe: a notice to a group is published once, and each web process
    # subscribed to the group passes it to its own sockets. The list-based layer
    # (channels_redis.core) queued a copy per process and woke every socket of a process
    # in turn to look at it: 2,000 sockets heard a pairing in 3.4-4.8 s against 1.5-1.9 s
    # (benchmarks/live_fanout.py). Delivery is at most once, as live-updates.md allows: a
    # socket that reconnects fetches afresh. Reads wait longer than redis-py's default 5 s
    # (the list layer's 5 s blocking pop timed out against it, dropping sockets);
    # connecting fails fast when Redis is down.
    host = {"address": url, "socket_timeout": 15, "socket_connect_timeout": 2}
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [host]},
        }
    }


def trusted_proxies(env: Mapping[str, str]) -> list[str]:
    """TRUSTED_PROXIES (or its old name FORWARDED_ALLOW_IPS), checked; loopback by default.

    The same text gunicorn reads for forwarded_allow_ips; a bad entry stops the site with
    its name, rather than quietly trusting no proxy.
    """
    raw = env.get("TRUSTED_PROXIES")
    if raw is None:
        raw = env.get("FORWARDED_ALLOW_IPS", client_address.DEFAULT_TRUSTED_PROXIES)
    try:
        client_address.parse_trusted_proxies(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {exc}") from None
    return [entry.strip() for entry in raw.split(",") if entry.strip()]


def outbound_trusted_private(env: Mapping[str, str]) -> list[str]:
    """OUTBOUND_TRUSTED_PRIVATE: host:port entries (web.outbound) allowed on a private
    network; empty by default. A bad entry stops the site with its name."""
    from web.outbound import parse_host_port

    entries = env_list(env, "OUTBOUND_TRUSTED_PRIVATE", [])
    for entry in entries:
        try:
            parse_host_port(entry)
        except ValueError as exc:
            raise ImproperlyConfigured(f"OUTBOUND_TRUSTED_PRIVATE: {exc}") from None
    return entries


def secret_key(env: Mapping[str, str], debug: bool) -> str:
    """SECRET_KEY; a fixed development key is only allowed while DEBUG is on."""
    key = env.get("SECRET_KEY", "").strip()
    if key:
        return key
    if debug:
        return "django-insecure-arbiter-development-key-do-not-use-in-production"
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
