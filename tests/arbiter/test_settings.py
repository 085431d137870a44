"""Settings come from the environment with an embedded default that needs nothing running."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from arbiter import env

ROOT = Path(__file__).resolve().parents[2]


def settings_in_subprocess(environ: dict[str, str], expression: str) -> str:
    """Import the real settings module under ``environ`` and print one expression."""
    clean = {k: v for k, v in os.environ.items() if k not in _SETTING_NAMES}
    code = f"import arbiter.settings as s; print({expression})"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **environ},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


_SETTING_NAMES = {
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CACHE_URL",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "EMAIL_HOST",
    "EMAIL_BACKEND",
}


def test_default_database_is_a_sqlite_file_under_var(tmp_path):
    config = env.database_config({}, tmp_path)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == str(tmp_path / "var" / "arbiter.sqlite3")


def test_postgres_url_is_parsed_into_django_database_settings(tmp_path):
    config = env.database_config(
        {"DATABASE_URL": "postgres://arb:s3cret@db.example.org:6543/arbiter"}, tmp_path
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("arbiter", "arb", "s3cret")
    assert (config["HOST"], config["PORT"]) == ("db.example.org", 6543)


def test_bad_database_url_names_the_setting(tmp_path):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        env.database_config({"DATABASE_URL": "nonsense://x"}, tmp_path)


def test_celery_is_eager_without_a_broker():
    config = env.celery_config({})
    assert config["CELERY_TASK_ALWAYS_EAGER"] is True
    assert config["CELERY_BROKER_URL"] == "memory://"


def test_celery_uses_a_real_broker_when_one_is_named():
    config = env.celery_config({"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"})
    assert config["CELERY_TASK_ALWAYS_EAGER"] is False
    assert config["CELERY_BROKER_URL"] == "redis://127.0.0.1:6379/0"
    assert config["CELERY_RESULT_BACKEND"] == "redis://127.0.0.1:6379/0"


def test_cache_is_redis_only_when_cache_url_is_given():
    assert "LocMemCache" in env.cache_config({})["default"]["BACKEND"]
    redis = env.cache_config({"CACHE_URL": "redis://127.0.0.1:6379/1"})["default"]
    # Django's RedisCache, with Redis errors turned into misses (web/cache.py).
    assert redis["BACKEND"] == "web.cache.ResilientRedisCache"
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        env.cache_config({"CACHE_URL": "memcached://x"})


def test_yes_no_and_list_settings():
    assert env.env_bool({"DEBUG": "False"}, "DEBUG", True) is False
    assert env.env_bool({}, "DEBUG", True) is True
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        env.env_bool({"DEBUG": "maybe"}, "DEBUG", True)
    assert env.env_list({"ALLOWED_HOSTS": "a.org, b.org,"}, "ALLOWED_HOSTS", []) == [
        "a.org",
        "b.org",
    ]


def test_trusted_proxies_default_to_loopback_and_accept_the_old_name():
    assert env.trusted_proxies({}) == ["127.0.0.1", "::1"]
    assert env.trusted_proxies({"TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.7"}) == [
        "10.0.0.0/8",
        "192.0.2.7",
    ]
    assert env.trusted_proxies({"FORWARDED_ALLOW_IPS": "*"}) == ["*"]
    both = {"TRUSTED_PROXIES": "10.0.0.1", "FORWARDED_ALLOW_IPS": "*"}
    assert env.trusted_proxies(both) == ["10.0.0.1"]
    assert env.trusted_proxies({"TRUSTED_PROXIES": ""}) == []  # no proxy: never believed
    with pytest.raises(ImproperlyConfigured, match=r"TRUSTED_PROXIES.*'10\.0\.0\.300'"):
        env.trusted_proxies({"TRUSTED_PROXIES": "10.0.0.300"})


def test_outbound_trusted_private_is_empty_by_default_and_checked():
    assert env.outbound_trusted_private({}) == []
    entries = {"OUTBOUND_TRUSTED_PRIVATE": "push.lan:8443, [::1]:9"}
    assert env.outbound_trusted_private(entries) == ["push.lan:8443", "[::1]:9"]
    for bad in ("push.lan", "push.lan:0", "::1:9", "push.lan:https"):
        with pytest.raises(ImproperlyConfigured, match="OUTBOUND_TRUSTED_PRIVATE"):
            env.outbound_trusted_private({"OUTBOUND_TRUSTED_PRIVATE": bad})


def test_secret_key_is_required_once_debug_is_off():
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        env.secret_key({}, debug=False)
    assert env.secret_key({"SECRET_KEY": "x" * 60}, debug=False) == "x" * 60


def test_real_settings_module_embedded_default():
    out = settings_in_subprocess(
        {}, "s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.DEBUG"
    )
    assert out == "django.db.backends.sqlite3 True True"


def test_real_settings_module_production_style():
    out = settings_in_subprocess(
        {
            "DEBUG": "false",
            "SECRET_KEY": "k" * 64,
            "ALLOWED_HOSTS": "arbiter.example.org",
            "DATABASE_URL": "postgres://u:p@127.0.0.1:5432/arbiter",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
        },
        "s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.ALLOWED_HOSTS",
    )
    assert out == "arbiter.postgresql False ['arbiter.example.org']"  # pooled: production


def test_check_deploy_reports_no_warnings_with_production_settings():
    environ = {k: v for k, v in os.environ.items() if k not in _SETTING_NAMES}
    environ.update(
        DEBUG="false",
        SECRET_KEY="v3ry-l0ng-r4nd0m-" + "Zq8#pL2@xW9!mN4$kR7%tY1^bV6&cJ3*" * 2,
        ALLOWED_HOSTS="arbiter.example.org",
        CSRF_TRUSTED_ORIGINS="https://arbiter.example.org",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_naming_a_mail_server_sends_real_mail_and_none_prints_it():
    expression = "s.EMAIL_BACKEND.rsplit('.', 2)[-2]"
    assert settings_in_subprocess({"EMAIL_HOST": "smtp.example.org"}, expression) == "smtp"
    assert settings_in_subprocess({}, expression) == "console"
    chosen = {"EMAIL_HOST": "smtp.example.org", "EMAIL_BACKEND": "x.locmem.EmailBackend"}
    assert settings_in_subprocess(chosen, expression) == "locmem"


def test_a_left_over_trusted_proxy_count_is_warned_about(monkeypatch):
    from accounts.checks import retired_proxy_count

    monkeypatch.delenv("TRUSTED_PROXY_COUNT", raising=False)
    assert retired_proxy_count() == []
    monkeypatch.setenv("TRUSTED_PROXY_COUNT", "2")
    [warning] = retired_proxy_count()
    assert warning.id == "accounts.W001" and "TRUSTED_PROXIES" in warning.hint


def test_a_print_job_is_called_stalled_before_the_broker_would_hand_its_work_out_again():
    """The stall bound is below the visibility timeout, whatever the timeout is set to:
    a job lost with a killed worker is sent again by the sweep, not after the timeout."""
    broker = {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}
    for visibility in (None, "15", "60", "3600"):
        given = {**broker, **({"CELERY_VISIBILITY_TIMEOUT": visibility} if visibility else {})}
        transport = env.celery_config(given)["CELERY_BROKER_TRANSPORT_OPTIONS"]
        stall = env.print_job_config(given)["PRINT_JOB_STALL_SECONDS"]
        assert 1 <= stall < transport["visibility_timeout"], (visibility, stall)
    assert env.print_job_config(broker)["PRINT_JOB_STALL_SECONDS"] <= 5 * 60
    config = env.print_job_config({**broker, "PRINT_JOB_STALL_SECONDS": "3"})
    assert config["PRINT_JOB_STALL_SECONDS"] == 3
    with pytest.raises(ImproperlyConfigured, match="PRINT_JOB_STALL_SECONDS"):
        env.print_job_config({**broker, "PRINT_JOB_STALL_SECONDS": "900"})
    with pytest.raises(ImproperlyConfigured, match="PRINT_JOB_STALL_SECONDS"):
        env.print_job_config({**broker, "PRINT_JOB_STALL_SECONDS": "0"})


def test_the_running_settings_call_a_job_stalled_before_the_visibility_timeout():
    from django.conf import settings

    visibility = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}).get(
        "visibility_timeout", env.DEFAULT_VISIBILITY_TIMEOUT
    )
    assert 1 <= settings.PRINT_JOB_STALL_SECONDS < visibility
    # The sweep runs often enough to notice a stall within the bound again.
    schedule = settings.CELERY_BEAT_SCHEDULE["printing-requeue-stalled"]
    assert schedule["task"] == "printing.requeue_stalled"
    assert schedule["schedule"] <= settings.PRINT_JOB_STALL_SECONDS
    # Periodic tasks go to the small queue: a huge print on the main one cannot hold them up.
    assert schedule["options"]["queue"] == settings.PRINT_SMALL_QUEUE


def test_a_worker_started_without_queues_takes_the_small_queue_too():
    """`celery -A arbiter worker` with no --queues (the README's command) must not leave
    small print jobs to nobody."""
    from arbiter.celery import app

    names = [queue.name for queue in app.conf.task_queues]
    assert names[0] == app.conf.task_default_queue + "-small"
    assert app.conf.task_default_queue in names


PG_URL = "postgres://arb@db.example.org/arbiter"


def pool_of(environ: dict[str, str], tmp_path, debug: bool = False) -> dict | None:
    config = env.database_config({"DATABASE_URL": PG_URL, **environ}, tmp_path, debug=debug)
    return config["OPTIONS"].get("pool")


def test_production_pools_postgres_connections_by_default_one_per_thread_and_socket(tmp_path):
    """DEBUG off: a pool as large as the threads a web process runs on the database at once
    (GUNICORN_THREADS requests and the live sockets' look-ups), none opened ahead of need."""
    config = env.database_config({"DATABASE_URL": PG_URL}, tmp_path, debug=False)
    assert config["OPTIONS"]["pool"] == {"min_size": 0, "max_size": 2, "timeout": 5}
    assert config["ENGINE"] == "arbiter.postgresql"  # the pool that answers a restart promptly
    assert config["CONN_MAX_AGE"] == 0
    assert config["CONN_HEALTH_CHECKS"] is True  # a connection dropped by a restart is not lent
    assert pool_of({"GUNICORN_THREADS": "4"}, tmp_path)["max_size"] == 5
    assert pool_of({"GUNICORN_THREADS": "4", "DB_CONN_MAX_AGE": "0"}, tmp_path)["max_size"] == 5


def test_development_and_sqlite_have_no_pool(tmp_path):
    assert pool_of({}, tmp_path, debug=True) is None
    plain = env.database_config({"DATABASE_URL": PG_URL}, tmp_path)  # DEBUG's default: on
    assert "pool" not in plain["OPTIONS"] and plain["ENGINE"] == "django.db.backends.postgresql"
    sqlite = env.database_config({}, tmp_path, debug=False)
    assert sqlite["ENGINE"] == "django.db.backends.sqlite3" and "pool" not in sqlite["OPTIONS"]


def test_db_pool_size_sets_the_pool_or_turns_it_off(tmp_path):
    assert pool_of({"DB_POOL_SIZE": "8"}, tmp_path)["max_size"] == 8
    assert pool_of({"DB_POOL_SIZE": "3"}, tmp_path, debug=True)["max_size"] == 3
    off = env.database_config({"DATABASE_URL": PG_URL, "DB_POOL_SIZE": "0"}, tmp_path, debug=False)
    assert "pool" not in off["OPTIONS"] and off["ENGINE"] == "django.db.backends.postgresql"


def test_kept_connections_asked_for_without_a_pool_size_mean_no_pool(tmp_path):
    """DB_CONN_MAX_AGE is the operator's explicit choice; the pool is only a default."""
    config = env.database_config(
        {"DATABASE_URL": PG_URL, "DB_CONN_MAX_AGE": "60"}, tmp_path, debug=False
    )
    assert "pool" not in config["OPTIONS"] and config["CONN_MAX_AGE"] == 60
    assert config["ENGINE"] == "django.db.backends.postgresql"


def test_a_pool_and_kept_connections_together_are_refused_by_name(tmp_path):
    both = {"DATABASE_URL": "postgres://db/a", "DB_POOL_SIZE": "4", "DB_CONN_MAX_AGE": "60"}
    with pytest.raises(ImproperlyConfigured, match="DB_POOL_SIZE=4 and DB_CONN_MAX_AGE=60"):
        env.database_config(both, tmp_path, debug=False)
    with pytest.raises(ImproperlyConfigured, match="DB_POOL_SIZE=-1"):
        env.database_config({"DATABASE_URL": "postgres://db/a", "DB_POOL_SIZE": "-1"}, tmp_path)
    with pytest.raises(ImproperlyConfigured, match="GUNICORN_THREADS"):
        pool_of({"GUNICORN_THREADS": "four"}, tmp_path)


def test_behind_pgbouncer_nothing_outlives_a_transaction_on_the_server(tmp_path):
    """Transaction mode gives each transaction any server connection: no server-side
    cursors, no prepared statements, client-side binding."""
    url = "postgres://arb@pgbouncer.example.org:6432/arbiter"
    config = env.database_config({"DATABASE_URL": url, "DB_PGBOUNCER": "true"}, tmp_path)
    assert config["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert config["OPTIONS"]["prepare_threshold"] is None
    assert config["OPTIONS"]["server_side_binding"] is False
    assert config["OPTIONS"]["connect_timeout"] == 5
    assert (config["HOST"], config["PORT"]) == ("pgbouncer.example.org", 6432)
    direct = env.database_config({"DATABASE_URL": url, "DB_PGBOUNCER": "false"}, tmp_path)
    assert not direct.get("DISABLE_SERVER_SIDE_CURSORS")
    assert "prepare_threshold" not in direct["OPTIONS"]


def test_behind_pgbouncer_the_pool_stays_as_set(tmp_path):
    """Django's pool lends PgBouncer client connections: kept when asked for, not forced."""
    url = "postgres://arb@127.0.0.1:6432/arbiter"
    pooled = {"DATABASE_URL": url, "DB_PGBOUNCER": "yes", "DB_POOL_SIZE": "5"}
    config = env.database_config(pooled, tmp_path)
    assert config["OPTIONS"]["pool"] == {"min_size": 0, "max_size": 5, "timeout": 5}
    assert config["ENGINE"] == env.POOLED_ENGINE
    assert config["DISABLE_SERVER_SIDE_CURSORS"] is True
    bare = env.database_config({"DATABASE_URL": url, "DB_PGBOUNCER": "yes"}, tmp_path)
    assert "pool" not in bare["OPTIONS"]


def test_pgbouncer_without_postgres_or_with_a_bad_word_is_refused_by_name(tmp_path):
    with pytest.raises(ImproperlyConfigured, match="DB_PGBOUNCER=true needs a PostgreSQL"):
        env.database_config({"DB_PGBOUNCER": "true"}, tmp_path)
    with pytest.raises(ImproperlyConfigured, match="DB_PGBOUNCER='transaction'"):
        env.database_config(
            {"DATABASE_URL": "postgres://db/a", "DB_PGBOUNCER": "transaction"}, tmp_path
        )


def test_the_settings_module_reads_db_pgbouncer():
    shown = settings_in_subprocess(
        {"DATABASE_URL": "postgres://arb@127.0.0.1:6432/arbiter", "DB_PGBOUNCER": "true"},
        "s.DATABASES['default']['DISABLE_SERVER_SIDE_CURSORS'], "
        "s.DATABASES['default']['OPTIONS']['prepare_threshold']",
    )
    assert shown == "True None"
