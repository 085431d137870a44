"""What the input fuzz test sends to: every endpoint of the site that reads fields, found
from the code rather than listed by hand, so a new form or API body is fuzzed unasked.

An endpoint's fields are the union of what each source knows:

* the OpenAPI schema (drf-spectacular) for API bodies and query parameters;
* the view's own source: ``request.POST.get("x")``, ``Reader``'s ``fields.text("x")`` and
  the like, in the view and in the module's helpers it calls;
* the Django ``Form`` classes the view builds (their ``base_fields``);
* the ``<form>`` elements of the rendered pages (``forms_in_page``), which also give the
  values a real user would send (hidden inputs, options, buttons).
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

from django import forms
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve
from drf_spectacular.generators import SchemaGenerator

from tests.security.test_access_table import admin_routes, site_urls
from tournaments.once import FORM_FIELD

BODY_METHODS = ("post", "put", "patch", "delete")
# Fields nobody types: Django's CSRF token, and the log-in page's way back.
NOT_FIELDS = frozenset({"csrfmiddlewaretoken"})


@dataclass
class Endpoint:
    """One URL name and method, with the fields it reads and values seen for them."""

    key: str
    method: str
    route: str
    api: bool
    fields: set[str] = field(default_factory=set)
    files: set[str] = field(default_factory=set)
    seen: dict[str, list[Any]] = field(default_factory=dict)  # field -> plausible values
    path_values: dict[str, list[str]] = field(default_factory=dict)  # e.g. action enums
    schema_types: dict[str, str] = field(default_factory=dict)

    def note(self, name: str, value: Any = None) -> None:
        if name in NOT_FIELDS or not name:
            return
        self.fields.add(name)
        if value is not None and value not in self.seen.setdefault(name, []):
            self.seen[name].append(value)


# --- the view's source -------------------------------------------------------------------

_READS = re.compile(
    r"\b(?:POST|GET|data|query_params|fields|form|params)\s*\.\s*"
    r"(?:get|getlist|text|integer|id|ids|row|boolean|choice|mapping|has)\(\s*[\"'](\w+)[\"']"
)
_SUBSCRIPT = re.compile(r"\b(?:POST|GET|data)\[\s*[\"'](\w+)[\"']\s*\]")
_FORM_CLASS = re.compile(r"\b([A-Z]\w*Form)\s*\(")
_CALLS = re.compile(r"\b(_?[a-z]\w*)\s*\(")
# A page's write answered once (tournaments/once.py: ``form_once``, or a helper named
# ``..._once`` around it) reads the form's one-time token; ``api_once`` reads a header.
_FORM_ONCE = re.compile(r"\b(?!api_once)\w+_once\s*\(")


def _target(callback) -> Any:
    return getattr(callback, "view_class", None) or inspect.unwrap(callback)


def _source(obj) -> str:
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        return ""


@cache
def source_reads(callback) -> tuple[frozenset[str], frozenset[str], tuple[type, ...]]:
    """(body fields, query fields, Form classes) that a view's code reads.

    Reads in module-level helpers the view calls (one level down) count as the view's.
    Which of GET and POST a generic ``data`` means is not known, so those count as both.
    """
    target = _target(callback)
    text = _source(target)
    module = inspect.getmodule(target)
    names = vars(module) if module else {}
    helpers = []
    for called in set(_CALLS.findall(text)):
        helper = names.get(called)
        if inspect.isfunction(helper) and helper.__module__ == getattr(module, "__name__", ""):
            helpers.append(_source(helper))
    whole = "\n".join([text, *helpers])
    body, query = set(), set()
    for match in _READS.finditer(whole):
        line = whole[max(0, match.start() - 20) : match.end()]
        (query if "GET" in line or "query_params" in line else body).add(match.group(1))
    body.update(_SUBSCRIPT.findall(whole))
    if _FORM_ONCE.search(whole):
        body.add(FORM_FIELD)
    form_classes = []
    for found in (getattr(target, "form_class", None), *map(names.get, _FORM_CLASS.findall(whole))):
        if inspect.isclass(found) and issubclass(found, forms.BaseForm):
            form_classes.append(found)
    return frozenset(body), frozenset(query), tuple(dict.fromkeys(form_classes))


def form_fields(form_class: type) -> tuple[set[str], set[str]]:
    """(fields, file fields) of a Django form class."""
    fields, files = set(), set()
    for name, form_field in form_class.base_fields.items():
        (files if isinstance(form_field, forms.FileField) else fields).add(name)
    return fields, files


# --- the OpenAPI schema ------------------------------------------------------------------


@cache
def openapi() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def _resolve(schema: dict, spec: dict) -> dict:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def body_properties(operation: dict, spec: dict) -> dict[str, dict]:
    """The top-level properties of an operation's JSON body (oneOf/allOf branches merged)."""
    content = (operation.get("requestBody") or {}).get("content", {})
    schema = (content.get("application/json") or {}).get("schema") or {}
    found: dict[str, dict] = {}
    pending = [schema]
    while pending:
        part = _resolve(pending.pop(), spec)
        found.update(part.get("properties") or {})
        for key in ("oneOf", "anyOf", "allOf"):
            pending.extend(part.get(key) or [])
    return found


def schema_operations() -> dict[str, list[tuple[str, str, dict]]]:
    """URL name -> (schema path, method, operation) for every operation of the schema.

    A schema path belongs to the pattern that resolves it with each ``{parameter}`` as
    "1" (the rules API's one pattern serves a schema path per question).
    """
    spec = openapi()
    owners: dict[str, list[tuple[str, str, dict]]] = {}
    for path, operations in spec["paths"].items():
        try:
            key = resolve(re.sub(r"\{\w+\}", "1", path)).view_name
        except Resolver404:
            continue
        for method, operation in operations.items():
            if method in ("get", *BODY_METHODS):
                owners.setdefault(key, []).append((path, method, operation))
    return owners


# --- rendered pages ----------------------------------------------------------------------


class _Forms(HTMLParser):
    """Every <form> of a page: (action, method, [(field, value, is_file)])."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[tuple[str, str, list[tuple[str, str | None, bool]]]] = []
        self._open: list[tuple[str, str, list]] | None = None
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._open = (a.get("action") or "", (a.get("method") or "get").lower(), [])
            self.forms.append(self._open)
            return
        if self._open is None:
            return
        fields = self._open[2]
        name = a.get("name")
        if tag == "input" and name:
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio", "hidden", "submit") or a.get("value"):
                default = "on" if kind == "checkbox" else None
                fields.append((name, a.get("value") or default, False))
            else:
                fields.append((name, None, kind == "file"))
        elif tag == "button" and name:
            fields.append((name, a.get("value"), False))
        elif tag == "select" and name:
            self._select = name
            fields.append((name, None, False))
        elif tag == "option" and self._select and a.get("value"):
            fields.append((self._select, a["value"], False))
        elif tag == "textarea" and name:
            fields.append((name, None, False))

    def handle_endtag(self, tag):
        if tag == "form":
            self._open = None
        elif tag == "select":
            self._select = None


def forms_in_page(page_url: str, html: str) -> list[tuple[str, str, list]]:
    """The page's forms as (URL name, method, fields); forms posting off the site left out."""
    parser = _Forms()
    parser.feed(html)
    found = []
    for action, method, fields in parser.forms:
        target = urlsplit(urljoin(page_url, action or page_url))
        if target.netloc:
            continue
        try:
            match = resolve(target.path)
        except Resolver404:
            continue
        found.append((match.view_name, method, fields))
    return found


# --- the endpoint list -------------------------------------------------------------------


def endpoints() -> dict[tuple[str, str, str], Endpoint]:
    """Every (URL name, method, path) of the site that reads a field, from code and schema.

    API paths are the schema's (``{event_id}``: filled in by the test); a page's path is
    its route. The admin (Django's own forms, for site staff) is left out; rendered pages
    add their forms' fields later (``Endpoint.note``).
    """
    callbacks = {key: (route, callback) for key, route, callback in _patterns()}
    operations = schema_operations()
    spec = openapi()
    found: dict[tuple[str, str, str], Endpoint] = {}

    def endpoint(key: str, method: str, path: str, api: bool) -> Endpoint:
        return found.setdefault((key, method, path), Endpoint(key, method, path, api))

    for key, route in site_urls().items():
        _, callback = callbacks[key]
        body, query, form_classes = source_reads(callback)
        if route.startswith("api/"):
            for path, method, operation in operations.get(key, []):
                target = endpoint(key, method, path, True)
                for name, schema in body_properties(operation, spec).items():
                    target.note(name)
                    for value in _resolve(schema, spec).get("enum") or []:
                        target.note(name, value)
                for param in operation.get("parameters", []):
                    if param.get("in") == "query":
                        target.note(param["name"])
                    elif param.get("in") == "path" and "enum" in (param.get("schema") or {}):
                        target.path_values[param["name"]] = [
                            str(v) for v in param["schema"]["enum"]
                        ]
                # Fields the view reads but the schema does not state are fuzzed too.
                for name in body if method in BODY_METHODS else query:
                    if "{" in path or not key.startswith("rulebook:"):
                        target.note(name)
            continue
        if body or form_classes:
            target = endpoint(key, "post", "/" + route, False)
            for name in body:
                target.note(name)
            for form_class in form_classes:
                names, files = form_fields(form_class)
                for name in names:
                    target.note(name)
                target.files |= files
        if query:
            target = endpoint(key, "get", "/" + route, False)
            for name in query:
                target.note(name)
    return found


def _patterns():
    """(key, route, callback) of every non-admin pattern (``walk`` gives no callbacks)."""
    admin = set(admin_routes())

    def inner(resolver, prefix="", namespace=None):
        for entry in resolver.url_patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                ns = namespace
                if entry.namespace:
                    ns = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
                yield from inner(entry, route, ns)
            elif isinstance(entry, URLPattern) and route not in admin:
                name = entry.name and (f"{namespace}:{entry.name}" if namespace else entry.name)
                yield name or route, route, entry.callback

    yield from inner(get_resolver())
