from django.contrib import admin
from django.urls import include, path
from django.views.decorators.cache import cache_page
from django.views.decorators.vary import vary_on_headers
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView

from tournaments.pages import public_events
from web import views
from web.api import ApiDocsView

handler403 = "web.views.forbidden"
handler404 = "web.api.not_found"

# The translations static/js/*.js reads (gettext, ngettext, interpolate; the djangojs
# catalogue) in the page's language. The server keeps a day's copy per language
# (cache_page keys on the active language); the browser's copy varies on what picks the
# language (Accept-Language, the language cookie, the session of a signed-in account).
javascript_catalog = vary_on_headers("Accept-Language", "Cookie")(
    cache_page(60 * 60 * 24, key_prefix="jsi18n")(JavaScriptCatalog.as_view())
)

urlpatterns = [
    path("", public_events.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path("api/docs/", ApiDocsView.as_view(), name="api_docs"),
    path("jsi18n/", javascript_catalog, name="javascript-catalog"),
    path("", include("tournaments.urls")),
    path("", include("rulebook.urls")),
    path("", include("judging.urls")),
    path("", include("precedents.urls")),
    path("", include("metagame_site.urls")),
    path("", include("decks.urls")),
    path("", include("printing.urls")),
    path("", include("series.urls")),
    path("", include("push.urls")),
    path("", include("webhooks.urls")),
]
