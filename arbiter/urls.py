from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from web import views
from web.api import ApiDocsView

handler403 = "web.views.forbidden"
handler404 = "web.api.not_found"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path("api/docs/", ApiDocsView.as_view(), name="api_docs"),
    path("", include("tournaments.urls")),
    path("", include("rulebook.urls")),
    path("", include("judging.urls")),
    path("", include("decks.urls")),
    path("", include("printing.urls")),
    path("", include("series.urls")),
    path("", include("push.urls")),
]
