"""URL modules per audience: the same site as before, and each module's views admit its audience.

``fixtures/url_table.json`` is the resolver's table (route, name, view) written before the
URLs were split into modules per audience (``python -m tests.web.url_table`` rewrites it
when a URL is meant to change). tests/security/test_access_table.py checks, URL by URL,
who gets what; this file checks that the modules say it truthfully.
"""

from __future__ import annotations

import importlib
import json
import re

import pytest
from django.urls import URLPattern, resolve
from rest_framework.views import APIView

from tests.web.url_table import FIXTURE, url_rows
from tournaments.event.roles import JUDGE, ORGANISER

APPS = ("tournaments", "decks", "judging", "printing", "rulebook", "accounts", "series")
AUDIENCES = ("public", "player", "signed_in", "staff", "organiser", "api")
ADMIN_PREFIX = "admin/"

# Views in an organiser or staff module that a login alone lets in, each deciding itself.
LOGIN_ONLY = {
    "tournaments.pages.organiser_events.event_create": (
        "its creator becomes the event's first organiser"
    ),
    "tournaments.pages.judge_console.judge_console": "lists only the events the user judges",
    "rulebook.views.ruling_page": "_check_judge: an organiser or judge of any event",
    "rulebook.views.ruling_result": "_check_judge: an organiser or judge of any event",
    # A series has one organiser of its own, not an event role.
    "series.views.series_edit": "series.services.may_manage: the series' organiser",
    "series.views.series_manage": "series.services.may_manage: the series' organiser",
    "series.views.series_event": "series.services.may_manage: the series' organiser",
    "series.views.series_merge": "series.services.may_manage: the series' organiser",
    "series.views.series_withdraw_offer": "series.services.may_manage: the series' organiser",
}
ADMITS = {"organiser": {frozenset({ORGANISER})}, "staff": {frozenset({ORGANISER, JUDGE})}}


def key(row: dict) -> tuple:
    return (row["route"], row["name"], row["view"], row["kwargs"])


def test_the_url_table_is_the_one_before_the_split():
    before = sorted(key(row) for row in json.loads(FIXTURE.read_text()))
    now = sorted(key(row) for row in url_rows())
    assert [r for r in now if r not in before] == []
    assert [r for r in before if r not in now] == []
    assert len(now) == len(before)


PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")
SAMPLE = {"int": "7", "str": "word", "uuid": "5f0c8a52-6b1e-4c3e-9a55-0d7d6a3b2c11", None: "word"}


def sample_path(route: str) -> str:
    return "/" + PARAM.sub(lambda m: SAMPLE[m.group(1)], route)


@pytest.mark.parametrize(
    "row", [r for r in url_rows() if not r["route"].startswith(ADMIN_PREFIX)], ids=key
)
def test_every_route_reaches_its_own_view_so_no_module_shadows_another(row):
    found = resolve(sample_path(row["route"]))
    assert (found.route, found.view_name) == (row["route"], row["name"])


def audience_modules(app: str):
    for audience in AUDIENCES:
        try:
            yield audience, importlib.import_module(f"{app}.urls.{audience}")
        except ModuleNotFoundError:
            continue


@pytest.mark.parametrize("app", APPS)
def test_an_apps_urls_are_its_audience_modules_and_nothing_else(app):
    package = importlib.import_module(f"{app}.urls")
    modules = dict(audience_modules(app))
    assert modules, f"{app}.urls has no audience module"
    mounted = sorted(id(p) for p in package.urlpatterns)
    assert mounted == sorted(id(p) for m in modules.values() for p in m.urlpatterns)


@pytest.mark.parametrize("app", APPS)
def test_each_audience_module_says_in_one_line_who_it_is_for(app):
    for audience, module in audience_modules(app):
        doc = (module.__doc__ or "").strip()
        assert doc and "\n" not in doc, f"{app}.urls.{audience} needs a one-line docstring"


def views_of(app: str):
    for audience, module in audience_modules(app):
        for pattern in module.urlpatterns:
            if isinstance(pattern, URLPattern):
                yield audience, pattern


def dotted(callback) -> str:
    target = getattr(callback, "view_class", None) or callback
    return f"{target.__module__}.{target.__qualname__}"


@pytest.mark.parametrize("app", APPS)
def test_api_views_are_in_api_modules_and_only_there(app):
    for audience, pattern in views_of(app):
        is_api = issubclass(getattr(pattern.callback, "view_class", object), APIView)
        assert is_api == (audience == "api"), f"{pattern.name} in {app}.urls.{audience}"


@pytest.mark.parametrize("app", APPS)
def test_each_views_role_check_matches_its_modules_audience(app):
    for audience, pattern in views_of(app):
        roles = getattr(pattern.callback, "event_roles", None)
        where = f"{dotted(pattern.callback)} in {app}.urls.{audience}"
        if audience in ADMITS:
            assert roles in ADMITS[audience] or dotted(pattern.callback) in LOGIN_ONLY, where
        else:
            assert roles is None, f"{where} requires {sorted(roles)}"


def test_every_login_only_exception_is_still_mounted():
    mounted = {dotted(p.callback) for app in APPS for _, p in views_of(app)}
    assert set(LOGIN_ONLY) <= mounted
