"""Every request the site makes to an address a user supplied goes through one guard
(web.outbound): a static check that no other module of the site imports an HTTP client,
and that the one caller of pywebpush hands it the guard's session."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What the running site is made of; tests, benchmarks, scripts and deploy/ (the container's
# health check of its own loopback port) are not the site sending to users' addresses.
SITE = [
    p
    for p in ROOT.iterdir()
    if p.is_dir() and (p / "__init__.py").exists() and p.name not in {"tests", "benchmarks"}
]
HTTP_CLIENTS = ("requests", "httpx", "urllib3", "urllib.request", "http.client", "aiohttp")
GUARD = ROOT / "web" / "outbound.py"


def _imported(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _site_modules():
    for package in SITE:
        for path in sorted(package.rglob("*.py")):
            yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _is_client(name: str) -> bool:
    return any(name == c or name.startswith(f"{c}.") for c in HTTP_CLIENTS)


def test_only_the_guard_imports_an_http_client():
    wrong = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path, tree in _site_modules()
        if path != GUARD
        for name in _imported(tree)
        if _is_client(name)
    ]
    assert wrong == []


def test_every_webpush_call_is_given_the_guards_session():
    calls = [
        (path, node)
        for path, tree in _site_modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "webpush"
    ]
    assert calls, "push/sender.py calls pywebpush's webpush()"
    for path, call in calls:
        keywords = {k.arg for k in call.keywords}
        assert "requests_session" in keywords, f"{path.relative_to(ROOT)}:{call.lineno}"


def test_the_check_sees_an_http_client():
    assert _is_client("urllib.request") and _is_client("requests.adapters")
    assert not _is_client("urllib.parse")
    assert "httpx" in _imported(ast.parse("import httpx\n"))
