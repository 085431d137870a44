"""A push service on this machine for the tests: an HTTP server in a thread that keeps every
POST pywebpush makes, answers with the status (or redirect) a test sets per path, and a
browser's side of a subscription (its keys) so a test can decrypt what arrived. Beside it,
a bare listener that records every connection made to it: the internal address an attacker
wants the worker to reach, which must record none."""

from __future__ import annotations

import base64
import os
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    server: ThreadingHTTPServer
    received: list[Received] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)  # path -> status (default 201)
    redirects: dict[str, str] = field(default_factory=dict)  # path -> Location of a 307

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class Browser:
    """A browser's keys for one subscription: what PushSubscription.toJSON() sends, and the
    private half that decrypts a message (RFC 8291)."""

    def __init__(self, endpoint: str):
        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def to_json(self) -> dict:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> bytes:
        return http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )


def start() -> PushService:
    holder: dict[str, PushService] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            service = holder["service"]
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            headers = {name.lower(): value for name, value in self.headers.items()}
            service.received.append(Received(self.path, headers, body))
            if self.path in service.redirects:
                self.send_response(307)
                self.send_header("Location", service.redirects[self.path])
            else:
                self.send_response(service.answers.get(self.path, 201))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):  # keep the test output quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder["service"] = PushService(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return holder["service"]


class Listener:
    """A TCP listener on 127.0.0.1 that records every connection made to it (and answers
    each like a push service that took the message): the worker must never reach it."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.connections: list[tuple[str, int]] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, peer = self.sock.accept()
            except OSError:  # closed: the test is over
                return
            self.connections.append(peer)
            with conn:
                conn.settimeout(1)
                try:
                    conn.recv(65536)
                    conn.sendall(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
                except OSError:
                    pass

    def seen(self, settle: float = 0.3) -> list[tuple[str, int]]:
        """The connections so far, after ``settle`` seconds for the last to be accepted."""
        # A fixed wait is the point: most callers prove that nothing connects here, and no
        # event marks a connection that never comes, only the time it was given to come.
        time.sleep(settle)
        return list(self.connections)

    def close(self) -> None:
        self.sock.close()
