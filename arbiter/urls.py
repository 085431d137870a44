from django.contrib import admin
from django.urls import include, path

from arbiter import views

handler403 = "arbiter.views.forbidden"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("tournaments.urls")),
    path("", include("rulebook.urls")),
    path("", include("judging.urls")),
    path("", include("decks.urls")),
    path("", include("printing.urls")),
]
