"""Arbiter's Django settings, all read from the environment.

Embedded default (nothing set): SQLite under var/, Celery tasks run eagerly
in-process, local-memory cache, console e-mail, DEBUG on. Production sets
DEBUG=false, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, CELERY_BROKER_URL and
CACHE_URL; see README.md and deploy/.
"""

import os
from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF
from kombu import Queue
from whitenoise.compress import Compressor

from arbiter import env as e

BASE_DIR = Path(__file__).resolve().parent.parent
ENV = os.environ

DEBUG = e.env_bool(ENV, "DEBUG", default=True)
SECRET_KEY = e.secret_key(ENV, DEBUG)
ALLOWED_HOSTS = e.env_list(
    ENV, "ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = e.env_list(ENV, "CSRF_TRUSTED_ORIGINS", [])
# The address printed in QR codes on match slips (players scan it at the table).
SITE_URL = ENV.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# The address the hall display's QR code sends phones to: in venue mode the laptop's LAN
# address (http://192.168.1.20:8000). Empty: the address the screen itself was opened at.
PUBLIC_URL = ENV.get("PUBLIC_URL", "")

INSTALLED_APPS = [
    # First: daphne's runserver serves WebSockets as well as HTTP (the quick start is live).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served from here: no CDN
    "axes",
    "django_htmx",
    "arbiter",
    "accounts",
    "tournaments",
    "decks",
    "judging",
    "precedents",
    "metagame_site",
    "rulebook",
    "printing",
    "series",
    "channels",
    "live",
    "push",
    "backups",
    "webhooks",
]

MIDDLEWARE = [
    # First (outermost): a database outage anywhere below is a 503 page, never a 500.
    "web.middleware.DatabaseUnavailableMiddleware",
    # Every request starts on the site's clock; loading an event moves to the venue's.
    "web.middleware.SiteTimeZoneMiddleware",
    # The request's language (LocaleMiddleware, below) ends with the request.
    "accounts.language.LanguageResetMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: the language cookie (the switcher sets it), else the browser's
    # Accept-Language, else LANGUAGE_CODE. URLs carry no language prefix.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in user's saved language (accounts.LanguagePreference) beats the browser's.
    "accounts.language.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A NUL or lone surrogate in a query string or form field: a 400 naming the field.
    "web.middleware.UnusableInputMiddleware",
    # Last, as django-axes asks: turns a locked-out log-in into the 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "arbiter.urls"
WSGI_APPLICATION = "arbiter.wsgi.application"
ASGI_APPLICATION = "arbiter.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.pages.context.navigation",
                "web.context_processors.local_times",
            ],
            # The kernel's template filters (it is no app): valid <time datetime="…">.
            "libraries": {"html_time": "web.html_time"},
        },
    },
]

(BASE_DIR / "var").mkdir(exist_ok=True)  # the embedded SQLite file and media live here
DATABASES = {"default": e.database_config(ENV, BASE_DIR, debug=DEBUG)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
CACHES = e.cache_config(ENV)
# Live notices (live-updates.md) travel through this layer to the sockets.
CHANNEL_LAYERS = e.channel_layers(ENV)
# After every round closes: an arbiter-event/1 snapshot and a database backup written to
# ARBITER_BACKUP_DIR (venue mode: the venue folder's backups/), the last N of each kept.
globals().update(e.backup_config(ENV, BASE_DIR))

# Web Push (push/): pairings sent to a player's closed phone through their browser's push
# service. Optional: without all three nothing is offered or sent. Generate the keys with
# `manage.py push_keys`; the subject is a mailto: or https: address push services may use
# to reach the operator.
WEBPUSH_VAPID_PUBLIC_KEY = ENV.get("WEBPUSH_VAPID_PUBLIC_KEY", "").strip()
WEBPUSH_VAPID_PRIVATE_KEY = ENV.get("WEBPUSH_VAPID_PRIVATE_KEY", "").strip()
WEBPUSH_VAPID_SUBJECT = ENV.get("WEBPUSH_VAPID_SUBJECT", "").strip()
# The push services a subscription may name (a host, or a suffix on a dot boundary), in
# every mode: Google FCM, Mozilla autopush, Apple and Windows push by default.
WEBPUSH_ALLOWED_HOSTS = e.env_list(
    ENV,
    "WEBPUSH_ALLOWED_HOSTS",
    ["fcm.googleapis.com", "push.services.mozilla.com", "push.apple.com", "notify.windows.com"],
)
# Every request to an address a user supplied goes through web.outbound: public addresses
# only. host:port entries listed here (a self-hosted push service) may be private too.
OUTBOUND_TRUSTED_PRIVATE = e.outbound_trusted_private(ENV)

# Outgoing webhooks (webhooks/, docs/webhooks.md): attempts per delivery, the first retry's
# delay (each next one 4 times longer), failed deliveries in a row that turn a webhook off,
# and the hosts whose /api/webhooks/ URLs get Discord's message format.
WEBHOOK_MAX_ATTEMPTS = e.env_int(ENV, "WEBHOOK_MAX_ATTEMPTS", 6)
WEBHOOK_RETRY_BASE_SECONDS = e.env_int(ENV, "WEBHOOK_RETRY_BASE_SECONDS", 30)
WEBHOOK_DISABLE_AFTER = e.env_int(ENV, "WEBHOOK_DISABLE_AFTER", 5)
WEBHOOK_DISCORD_HOSTS = ["discord.com", "discordapp.com"]

# The judge roster (judging/routing.py): a judge call or a dispute goes first to the
# judges of its table's zone, and to every judge of the event after this many seconds
# unanswered.
JUDGE_CALL_ESCALATE_SECONDS = e.env_int(ENV, "JUDGE_CALL_ESCALATE_SECONDS", 60)

globals().update(e.celery_config(ENV))
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# A task taken by a worker that dies is given to another worker, not lost.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Workers and the web share the queue name; separate deployments (or test runs) on one
# Redis can each take their own.
CELERY_TASK_DEFAULT_QUEUE = ENV.get("CELERY_QUEUE", "celery")
# Small print jobs (PRINT_SMALL_JOB_PAGES pages or fewer: one round's slips) and the
# periodic tasks go to this queue, so a huge job's chunks on the main queue never hold
# them up. Every worker takes both queues, small first; deploy/README.md has the topology.
PRINT_SMALL_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}-small"
# What a worker started without --queues takes: both, the small one first.
CELERY_TASK_QUEUES = (Queue(PRINT_SMALL_QUEUE), Queue(CELERY_TASK_DEFAULT_QUEUE))
# When a print job counts as stalled (below the visibility timeout) and is sent again.
_print_jobs = e.print_job_config(ENV)
PRINT_JOB_STALL_SECONDS = _print_jobs["PRINT_JOB_STALL_SECONDS"]
PRINT_JOB_SWEEP_SECONDS = _print_jobs["PRINT_JOB_SWEEP_SECONDS"]
PRINT_SMALL_JOB_PAGES = _print_jobs["PRINT_SMALL_JOB_PAGES"]
# `celery -A arbiter beat` sends these. Print jobs asked for while Redis was down are kept
# as "waiting for the queue": the first sends them once it is back, even if no page polls
# them. The second sends again every job that made no progress for PRINT_JOB_STALL_SECONDS
# (its messages were lost, or its worker killed).
CELERY_BEAT_SCHEDULE = {
    "printing-resend-waiting": {
        "task": "printing.resend_waiting",
        "schedule": 60.0,
        "options": {"queue": PRINT_SMALL_QUEUE},
    },
    "printing-requeue-stalled": {
        "task": "printing.requeue_stalled",
        "schedule": float(PRINT_JOB_SWEEP_SECONDS),
        "options": {"queue": PRINT_SMALL_QUEUE},
    },
    # The judges hear of a table whose time ran out (live-updates.md, queue kind "time").
    "live-time-up": {
        "task": "tournaments.announce_time_up",
        "schedule": 10.0,
        "options": {"queue": PRINT_SMALL_QUEUE, "expires": 10.0},
    },
    # A judge call or dispute whose own delayed escalation was lost still reaches every
    # judge (judging/routing.py: each escalates once, whichever comes first).
    "judging-escalate-due": {
        "task": "judging.escalate_due",
        "schedule": 10.0,
        "options": {"queue": PRINT_SMALL_QUEUE, "expires": 10.0},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes watches every log-in (the site form and the admin's) before the normal backend.
AUTHENTICATION_BACKENDS = [
    "accounts.throttle.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
CSRF_FAILURE_VIEW = "web.views.csrf_failure"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Naming a mail server is enough to send real mail; without one, mail is printed.
EMAIL_BACKEND = ENV.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if ENV.get("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend",
)
DEFAULT_FROM_EMAIL = ENV.get("DEFAULT_FROM_EMAIL", "arbiter@localhost")
if ENV.get("EMAIL_HOST"):
    EMAIL_HOST = ENV["EMAIL_HOST"]
    EMAIL_PORT = e.env_int(ENV, "EMAIL_PORT", 587)
    EMAIL_HOST_USER = ENV.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = ENV.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = e.env_bool(ENV, "EMAIL_USE_TLS", True)

LANGUAGE_CODE = "en"
TIME_ZONE = ENV.get("TIME_ZONE", "UTC")
USE_I18N = True
# The languages a page can be shown in, each named in itself (the switcher lists them so).
LANGUAGES = [("en", "English"), ("ja", "日本語"), ("de", "Deutsch")]
# The catalogues (locale/<code>/LC_MESSAGES/django.po; `manage.py makemessages -l ja`).
LOCALE_PATHS = [BASE_DIR / "locale"]
# The date formats templates name (``|date:"DAY_FORMAT_SHORT"``), per language.
FORMAT_MODULE_PATH = ["arbiter.formats"]
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(ENV.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
WHITENOISE_USE_FINDERS = DEBUG  # serve straight from static/ until collectstatic has run
MEDIA_URL = "media/"
MEDIA_ROOT = Path(ENV.get("MEDIA_ROOT", BASE_DIR / "var" / "media"))
if e.venue_mode(ENV):  # the venue folder is owner-only: its uploads and static files too
    FILE_UPLOAD_PERMISSIONS = 0o600
    FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o700
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Source maps are fetched only by browser devtools: compressing them doubled collectstatic.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        # Tools (scorekeeping scripts, the load test) send "Authorization: Token <key>";
        # keys come from /accounts/token/ or `manage.py api_token`.
        "accounts.authentication.ToolTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # Every parser refuses a body over API_MAX_BODY_BYTES with a 413 before reading it.
    "DEFAULT_PARSER_CLASSES": [
        "web.parsers.LimitedJSONParser",
        "web.parsers.LimitedFormParser",
        "web.parsers.LimitedMultiPartParser",
    ],
    "EXCEPTION_HANDLER": "web.api.exception_handler",
    # web.openapi.AutoSchema: drf-spectacular's, documenting the parsers' refusals too.
    "DEFAULT_SCHEMA_CLASS": "web.openapi.AutoSchema",
}
# Request bodies of the API: 1 MiB, and 32 MiB for a whole event's import document.
API_MAX_BODY_BYTES = e.env_int(ENV, "API_MAX_BODY_BYTES", 1024 * 1024)
API_IMPORT_MAX_BODY_BYTES = e.env_int(ENV, "API_IMPORT_MAX_BODY_BYTES", 32 * 1024 * 1024)
# One card pool import (upload page or import_cards): at most this many cards, read and
# checked within this many seconds, or nothing is written. The demo pools hold 77 and 41
# cards; 20,000 leaves room for a real game's whole pool. Reading and checking that many
# took 1.5 s on a busy 2-core machine (the budget leaves room for a slower one); writing
# them is bounded by the row limit, not the budget.
CARD_IMPORT_MAX_ROWS = e.env_int(ENV, "CARD_IMPORT_MAX_ROWS", 20_000)
CARD_IMPORT_TIME_BUDGET = e.env_int(ENV, "CARD_IMPORT_TIME_BUDGET", 10)
# What one import may hold (tournaments.interchange.limits), counted before the document is
# checked: the first three for everybody, the _TRUSTED ones (the absolute bound, for
# everybody too) for users with the tournaments.import_published_event permission and the
# import_event command. A large real event (a regional of 2,000 over 20 rounds) fits the
# first; past a limit the import is refused with a 413 naming it, nothing written.
IMPORT_MAX_PLAYERS = e.env_int(ENV, "IMPORT_MAX_PLAYERS", 2_000)
IMPORT_MAX_ROUNDS = e.env_int(ENV, "IMPORT_MAX_ROUNDS", 20)
IMPORT_MAX_MATCHES = e.env_int(ENV, "IMPORT_MAX_MATCHES", 25_000)
IMPORT_MAX_PLAYERS_TRUSTED = e.env_int(ENV, "IMPORT_MAX_PLAYERS_TRUSTED", 20_000)
IMPORT_MAX_ROUNDS_TRUSTED = e.env_int(ENV, "IMPORT_MAX_ROUNDS_TRUSTED", 50)
IMPORT_MAX_MATCHES_TRUSTED = e.env_int(ENV, "IMPORT_MAX_MATCHES_TRUSTED", 100_000)
# Public standings are cached per results version (tournaments.record.standings); a version's
# entry is dropped after this long unused (a change makes a new key at once).
STANDINGS_CACHE_SECONDS = e.env_int(ENV, "STANDINGS_CACHE_SECONDS", 60 * 60)

# The OpenAPI schema (/api/schema/) and its docs page (/api/docs/), Swagger UI served
# from drf-spectacular-sidecar's files (nothing from a CDN; the page works offline).
SPECTACULAR_SETTINGS = {
    "TITLE": "Arbiter API",
    "DESCRIPTION": (
        "Events, rounds, results, standings, decklists, penalties, judge calls and the "
        "rules engine. Log in (session and CSRF) or send `Authorization: Token <key>` "
        "with a key from /accounts/token/ (a request with one needs no CSRF token).\n\n"
        'Every error body is `{"errors": [{"field": ..., "message": ...}]}`, `field` null '
        "when the error is about the request as a whole: 400 a body that does not fit; "
        "403 not logged in, an invalid or revoked token, a missing CSRF token or a missing "
        "role (401 is never sent); 404 an unknown object or path; 405 a method the path "
        "does not take; 413 a body over the limit the message names; 415 a body that is "
        "not JSON."
    ),
    "VERSION": "1",
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The API takes JSON; form bodies still work but are not what tools should send.
    "PARSER_WHITELIST": ["web.parsers.LimitedJSONParser"],
    "COMPONENT_SPLIT_REQUEST": True,
    "OAS_VERSION": "3.1.0",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "web.openapi.add_components",
        # ArbiterEvent and its parts, from docs/schemas/arbiter-event-1.schema.json.
        "tournaments.api.interchange.add_interchange_components",
        # PrecedentSet and its precedent, from docs/schemas/precedent-set.schema.json.
        "precedents.api.add_precedent_components",
        # The metagame report and its parts (metagame_site/api.py).
        "metagame_site.api.add_metagame_components",
        "web.openapi.expand_rules_paths",
    ],
}

# The proxies of ours whose X-Forwarded-For we believe: comma-separated addresses or
# networks (10.0.0.0/8), or "*" when nothing but our proxy can reach the web processes.
# The same variable is gunicorn's forwarded_allow_ips (deploy/gunicorn.conf.py): one list
# for both. X-Forwarded-For is read from the right, skipping our proxies; the first other
# address is the client (web/client_address.py). FORWARDED_ALLOW_IPS is its old name.
TRUSTED_PROXIES = e.trusted_proxies(ENV)

# Log-in throttling (django-axes), counted two ways, each for AXES_COOLOFF_MINUTES:
# * AXES_FAILURE_LIMIT failures for one username, from any address, lock that username
#   out: an attacker with many addresses still gets only that many guesses an account;
# * AXES_ADDRESS_FAILURE_LIMIT failures from one client address, across usernames, lock
#   that address out: one password tried against many accounts is throttled too.
# Axes has one failure limit; accounts.throttle.LoginFailureHandler weighs each count
# against its own limit. A successful log-in clears only that username's failures from
# that address. The trade-off: anyone can lock an account out for the cool-off by
# guessing wrong five times (each address at most AXES_ADDRESS_FAILURE_LIMIT times); the
# owner can still reset the password by e-mail meanwhile. A venue where all players share
# one address may want a higher address limit (deploy/README.md, "Log-in throttling").
AXES_FAILURE_LIMIT = e.env_int(ENV, "AXES_FAILURE_LIMIT", 5)
AXES_ADDRESS_FAILURE_LIMIT = e.env_int(ENV, "AXES_ADDRESS_FAILURE_LIMIT", 20)
AXES_COOLOFF_TIME = timedelta(minutes=e.env_int(ENV, "AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_HANDLER = "accounts.throttle.LoginFailureHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.throttle.lockout_response"
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.client_ip"
AXES_VERBOSE = False

# Password-reset requests an hour: per client address (then a 429, whatever address the
# form names) and e-mails per account (then silently none: the page is the same as for an
# address no account uses). Counted in the cache (accounts/ratelimit.py).
PASSWORD_RESET_ADDRESS_LIMIT = e.env_int(ENV, "PASSWORD_RESET_ADDRESS_LIMIT", 5)
PASSWORD_RESET_ACCOUNT_LIMIT = e.env_int(ENV, "PASSWORD_RESET_ACCOUNT_LIMIT", 3)

# Content Security Policy, on in every mode: only this site's own scripts, styles and
# images (no inline ones: page scripts live in static/js/). Every page, the Swagger UI at
# /api/docs/ included, works within it; a page that ever needs more should widen it for
# that view alone with django-csp's csp_update decorator. tests/e2e/test_csp.py checks.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

# Production hardening: on whenever DEBUG is off, each switch overridable.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = e.env_bool(ENV, "SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = e.env_bool(ENV, "SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = e.env_bool(ENV, "CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = e.env_int(ENV, "SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = e.env_bool(ENV, "SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = e.env_bool(ENV, "SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# The switcher's language cookie (accounts/language_views.py): like the session's, and no
# script reads it.
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": ENV.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        # django-axes logs every log-in at INFO; lock-outs are warnings.
        "axes": {"level": "WARNING"},
    },
}
