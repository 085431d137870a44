"""The installable app: the manifest and the service worker at the site's root, the icons
they name, and the head of every page linking the manifest."""

import io
import json

import pytest
from django.contrib.staticfiles import finders
from PIL import Image

pytestmark = pytest.mark.django_db


def test_the_manifest_makes_arbiter_an_installable_app(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Arbiter" and manifest["short_name"] == "Arbiter"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/me/events/" and manifest["scope"] == "/"
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert set(sizes) == {"192x192", "512x512"}
    for size, icon in sizes.items():
        assert icon["type"] == "image/png"
        served = client.get(icon["src"])  # from this site, as a PNG of the size it says
        assert served.status_code == 200
        image = Image.open(io.BytesIO(b"".join(served.streaming_content)))
        assert image.format == "PNG" and f"{image.width}x{image.height}" == size


def test_the_service_worker_is_served_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    first, _, source = response.content.decode().partition("\n")
    assert first.startswith("self.ARBITER_SW = ") and first.endswith(";")
    config = json.loads(first.removeprefix("self.ARBITER_SW = ").removesuffix(";"))
    assert config["logout"] == "/accounts/logout/" and len(config["version"]) == 12
    assert "/static/js/my-match.js" in config["shell"] and "/static/js/live.js" in config["shell"]
    for url in config["shell"]:  # every file the worker caches on install exists
        assert finders.find(url.removeprefix("/static/")), url
    assert 'addEventListener("push"' in source and "offline" in source


def test_every_page_links_the_manifest(client):
    body = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in body
    assert '<meta name="theme-color"' in body
