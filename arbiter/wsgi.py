"""WSGI entry point (gunicorn arbiter.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
application = get_wsgi_application()
