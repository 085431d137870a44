"""ASGI entry point: HTTP through Django, WebSockets (/ws/…) through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
django_http = get_asgi_application()  # sets Django up before the consumers are imported

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from arbiter import server_gc  # noqa: E402
from live.auth import live_auth  # noqa: E402
from live.origin import SiteOriginValidator  # noqa: E402
from live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_http,
        # A page of another site may not open a socket with our visitor's cookie.
        "websocket": SiteOriginValidator(live_auth(URLRouter(websocket_urlpatterns))),
    }
)
server_gc.settle()  # last: everything the server loaded is set aside from collection
