"""The outbound guard (web.outbound) on its own: what it refuses before sending, what it
refuses at connect time, and that a connection pinned to the vetted address still checks
TLS against the host name. Real sockets on loopback; a patched resolver stands for DNS."""

from __future__ import annotations

import datetime
import ipaddress
import socket
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.push.pushservice import Listener, start
from web import outbound
from web.outbound import OutboundRefused


@pytest.fixture
def listener():
    running = Listener()
    yield running
    running.close()


@pytest.fixture
def resolve(monkeypatch):
    """``resolve(name, *addresses)``: the resolver answers these for ``name``."""
    real = socket.getaddrinfo
    table: dict[str, list[str]] = {}

    def patched(host, port, *args, **kwargs):
        if host in table:
            return [
                (
                    socket.AF_INET6 if ":" in a else socket.AF_INET,
                    socket.SOCK_STREAM,
                    6,
                    "",
                    (a, port),
                )
                for a in table[host]
            ]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", patched)
    return lambda name, *addresses: table.__setitem__(name, list(addresses))


@pytest.mark.parametrize(
    "url",
    [
        "http://example.org/",  # plain http to a host that is not trusted
        "ftp://example.org/",
        "https://user@example.org/",
        "https://2130706433/",
        "https://127.1/",
        "https://0x7f000001/",
        "https://017700000001/",
        "https://10.0.0.1/",
        "https://[fe80::1]/",
        "https://[2002:7f00:1::]/",  # 6to4 around 127.0.0.1
        "https://example.org\\@127.0.0.1/",
        "https://exa mple.org/",
    ],
)
def test_refused_before_anything_is_sent(url, listener):
    with pytest.raises(OutboundRefused):
        outbound.post(url, timeout=2)


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "::1",
        "10.1.2.3",
        "192.168.0.1",
        "100.64.0.1",
        "169.254.169.254",
        "0.0.0.0",
        "::ffff:127.0.0.1",
        "64:ff9b::7f00:1",
        "fd00:ec2::254",
        "224.0.0.1",
    ],
)
def test_a_name_resolving_inside_is_refused_at_connect_time(resolve, listener, address):
    resolve("push.example.net", address)
    with pytest.raises(OutboundRefused, match="private address"):
        outbound.post(f"https://push.example.net:{listener.port}/", timeout=2)
    assert listener.seen() == []


def test_one_inside_answer_among_public_ones_refuses_the_name(resolve):
    resolve("push.example.net", "8.8.8.8", "127.0.0.1")
    with pytest.raises(OutboundRefused):
        outbound.vetted_address("push.example.net", 443)
    resolve("push.example.net", "8.8.8.8", "2001:4860:4860::8888")
    assert outbound.vetted_address("push.example.net", 443) == "8.8.8.8"


def test_a_trusted_private_entry_is_reached_and_nothing_else(settings, listener):
    url = f"http://127.0.0.1:{listener.port}/push"
    with pytest.raises(OutboundRefused):
        outbound.post(url, data=b"x", timeout=2)
    settings.OUTBOUND_TRUSTED_PRIVATE = [f"127.0.0.1:{listener.port + 1}"]  # another port
    with pytest.raises(OutboundRefused):
        outbound.post(url, data=b"x", timeout=2)
    assert listener.seen() == []
    settings.OUTBOUND_TRUSTED_PRIVATE = [f"127.0.0.1:{listener.port}"]
    assert outbound.post(url, data=b"x", timeout=2).status_code == 201
    assert len(listener.seen()) == 1


def test_link_local_and_metadata_are_refused_even_when_trusted(settings, resolve):
    settings.OUTBOUND_TRUSTED_PRIVATE = ["metadata.internal:80", "[fe80::1]:80"]
    resolve("metadata.internal", "169.254.169.254")
    with pytest.raises(OutboundRefused):
        outbound.vetted_address("metadata.internal", 80)
    with pytest.raises(OutboundRefused):
        outbound.checked_url("http://[fe80::1]:80/")


def test_a_redirect_is_handed_back_never_followed(settings, listener):
    service = start()
    try:
        settings.OUTBOUND_TRUSTED_PRIVATE = [
            f"127.0.0.1:{service.port}",
            f"127.0.0.1:{listener.port}",
        ]
        service.redirects["/hook"] = f"http://127.0.0.1:{listener.port}/internal-admin"
        with outbound.session() as guarded:
            answer = guarded.post(f"{service.url}/hook", data=b"x", allow_redirects=True, timeout=2)
            assert answer.status_code == 307 and answer.history == []
            answer = guarded.get(f"{service.url}/hook", timeout=2)  # GET follows by default
        assert [r.path for r in service.received] == ["/hook"]
        assert listener.seen() == []
    finally:
        service.server.shutdown()
        service.server.server_close()


def test_proxies_are_never_used(settings, listener, monkeypatch):
    """A proxy would connect instead of the vetted address: none from the environment,
    and one passed by a caller is refused."""
    settings.OUTBOUND_TRUSTED_PRIVATE = [f"127.0.0.1:{listener.port}"]
    monkeypatch.setenv("HTTPS_PROXY", "http://10.9.9.9:3128")
    monkeypatch.setenv("HTTP_PROXY", "http://10.9.9.9:3128")
    assert outbound.post(f"http://127.0.0.1:{listener.port}/", timeout=2).status_code == 201
    with pytest.raises(OutboundRefused):
        outbound.post(
            f"http://127.0.0.1:{listener.port}/",
            proxies={"http": "http://10.9.9.9:3128"},
            timeout=2,
        )


def test_host_matching_is_exact_or_on_a_dot_boundary():
    entries = ["fcm.googleapis.com", "127.0.0.1"]
    assert outbound.host_matches("fcm.googleapis.com", entries)
    assert outbound.host_matches("eu.fcm.googleapis.com", entries)
    assert not outbound.host_matches("evilfcm.googleapis.com", entries)
    assert not outbound.host_matches("fcm.googleapis.com.evil.example", entries)
    assert outbound.host_matches("127.0.0.1", entries)
    assert not outbound.host_matches("1.127.0.0.1", entries)
    assert outbound.normalised_host("FCM.GoogleAPIs.com.") == "fcm.googleapis.com"
    assert outbound.normalised_host("bücher.example") == "xn--bcher-kva.example"


def _certificate(tmp_path, name: str):
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = tmp_path / f"{name}.pem", tmp_path / f"{name}.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


@pytest.fixture
def tls_service(tmp_path):
    """An https server on 127.0.0.1 with a certificate for push.example.test; it records
    the server name (SNI) each client asked for."""
    cert_file, key_file = _certificate(tmp_path, "push.example.test")
    names: list[str | None] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    context.sni_callback = lambda sock, name, ctx: names.append(name)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1], cert_file, names
    server.shutdown()
    server.server_close()


def test_tls_is_checked_against_the_host_name_not_the_pinned_address(
    settings, resolve, tls_service
):
    port, ca, names = tls_service
    settings.OUTBOUND_TRUSTED_PRIVATE = [f"push.example.test:{port}", f"other.example.test:{port}"]
    resolve("push.example.test", "127.0.0.1")
    resolve("other.example.test", "127.0.0.1")
    answer = outbound.post(
        f"https://push.example.test:{port}/", data=b"x", verify=str(ca), timeout=5
    )
    assert answer.status_code == 201
    assert names == ["push.example.test"]
    with pytest.raises(requests.exceptions.SSLError):  # the certificate names another host
        outbound.post(f"https://other.example.test:{port}/", data=b"x", verify=str(ca), timeout=5)
    assert ipaddress.ip_address(outbound.vetted_address("push.example.test", port)).is_loopback
