"""A webhook receiver on this machine for the tests: an HTTP server in a thread that keeps
every POST (path, headers, raw body) and answers each with the next status a test queued
(200 once the queue is empty)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    server: ThreadingHTTPServer
    received: list[Received] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)  # answered in order, then 200

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def url(self, path: str = "/hooks/arbiter") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def next_status(self) -> int:
        return self.statuses.pop(0) if self.statuses else 200

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def start() -> Receiver:
    holder: dict[str, Receiver] = {}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            receiver = holder["receiver"]
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            headers = {name.lower(): value for name, value in self.headers.items()}
            with lock:
                receiver.received.append(Received(self.path, headers, body))
                status = receiver.next_status()
            answer = f"answered {status}".encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):  # keep the test output quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder["receiver"] = Receiver(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return holder["receiver"]
