"""Arbiter's Django settings, all read from the environment.

Embedded default (nothing set): SQLite under var/, Celery tasks run eagerly
in-process, local-memory cache, console e-mail, DEBUG on. Production sets
DEBUG=false, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, CELERY_BROKER_URL and
CACHE_URL; see README.md and deploy/.
"""

import os
from pathlib import Path

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

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "django_htmx",
    "arbiter",
    "accounts",
    "tournaments",
    "decks",
    "judging",
    "rulebook",
    "printing",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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
                "arbiter.context_processors.navigation",
            ],
        },
    },
]

(BASE_DIR / "var").mkdir(exist_ok=True)  # the embedded SQLite file and media live here
DATABASES = {"default": e.database_config(ENV, BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
CACHES = e.cache_config(ENV)

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

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

EMAIL_BACKEND = ENV.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
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
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(ENV.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
WHITENOISE_USE_FINDERS = DEBUG  # serve straight from static/ until collectstatic has run
MEDIA_URL = "media/"
MEDIA_ROOT = Path(ENV.get("MEDIA_ROOT", BASE_DIR / "var" / "media"))
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

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "arbiter.api.exception_handler",
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
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": ENV.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}
