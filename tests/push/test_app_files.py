"""The installable app: the manifest and the service worker at the site's root, the icons
they name, and the head of every page linking the manifest."""

import io
import json

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.utils import translation
from PIL import Image
from py_vapid import Vapid

from push.management.commands.push_keys import new_keys

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


def test_the_manifest_names_its_app_and_offers_a_maskable_icon(client):
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    # The start page: what browsers took as the identity of apps installed before the id.
    assert manifest["id"] == manifest["start_url"] == "/me/events/"
    (maskable,) = [icon for icon in manifest["icons"] if icon["purpose"] == "maskable"]
    served = client.get(maskable["src"])
    image = Image.open(io.BytesIO(b"".join(served.streaming_content))).convert("RGBA")
    assert f"{image.width}x{image.height}" == maskable["sizes"]
    # Safe for any mask: opaque to the corners, and everything but the background colour
    # within the safe zone, the circle of 40% of the side around the centre.
    width = image.width
    background = image.getpixel((0, 0))
    assert background[3] == 255
    centre, safe = (width - 1) / 2, 0.4 * width
    pixels = image.load()
    for y in range(0, width, 2):
        for x in range(0, width, 2):
            if pixels[x, y] != background:
                assert (x - centre) ** 2 + (y - centre) ** 2 <= safe**2, (x, y)


@pytest.mark.parametrize(("accept", "lang"), [("ja", "ja"), ("de", "de"), ("en", "en")])
def test_the_manifest_is_written_in_the_requests_language(client, accept, lang):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE=accept)
    manifest = json.loads(response.content)
    assert (manifest["lang"], manifest["dir"]) == (lang, "ltr")
    with translation.override(lang):
        assert manifest["description"] == translation.gettext(
            "Your table, opponent and round clock; report the result."
        )
    assert "Accept-Language" in response["Vary"] and "Cookie" in response["Vary"]


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


def test_the_page_offers_push_only_with_vapid_keys(client, make_world, settings):
    world = make_world(4)
    client.force_login(world.registrations[0].user)
    url = f"/events/{world.event.pk}/my-match/"
    settings.WEBPUSH_VAPID_PUBLIC_KEY = settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    body = client.get(url).content.decode()
    assert "data-push-key" not in body and "data-push-subscribe" not in body
    public, private = new_keys()
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = public, private
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:to@example.org"
    body = client.get(url).content.decode()
    assert f'data-push-key="{public}"' in body and 'data-push-subscribe="/push/subscribe/"' in body
    assert private not in body


def test_push_keys_prints_a_pair_pywebpush_signs_with():
    out = io.StringIO()
    call_command("push_keys", "--subject", "mailto:ops@example.org", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().splitlines())
    assert lines["WEBPUSH_VAPID_SUBJECT"] == "mailto:ops@example.org"
    signer = Vapid.from_string(lines["WEBPUSH_VAPID_PRIVATE_KEY"])
    header = signer.sign({"sub": "mailto:ops@example.org", "aud": "https://push.example.net"})
    assert f"k={lines['WEBPUSH_VAPID_PUBLIC_KEY']}" in header["Authorization"]
    assert Vapid.verify(header["Authorization"])


def test_the_worker_is_served_from_the_collected_files_too(client, settings, tmp_path):
    """Production may hold only the collected copy of the static files."""
    settings.STATICFILES_DIRS = []
    settings.STATIC_ROOT = tmp_path
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "sw.js").write_text("/* collected */\n", encoding="utf-8")
    response = client.get("/sw.js")
    assert response.status_code == 200 and "/* collected */" in response.content.decode()
