"""PgBouncer and HAProxy for the topology tests, each started from the file deploy/ ships.

The shipped file is read and only its addresses, ports and file paths are changed (each
one must be found, so a reshaped file fails here instead of being silently left out);
everything else (pool mode and sizes, timeouts, retries, health checks, headers) is what
an operator deploys. Both programs come from Debian (``apt-get install pgbouncer
haproxy``; scripts/test installs them for the topology pass).
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import pwd
import re
import shutil
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.integration.topology import ROOT, Process, free_port, port_open, wait_until

PGBOUNCER_INI = ROOT / "deploy" / "pgbouncer" / "pgbouncer.ini"
HAPROXY_CFG = ROOT / "deploy" / "haproxy" / "haproxy.cfg"
BOUNCER_PASSWORD = "bouncer-pass-1"
# PgBouncer refuses to run as root (CI runs as root): it then drops to this account.
UNPRIVILEGED = "nobody"


def missing_programs() -> str | None:
    """Why the balanced topology cannot start here, or None when it can."""
    lacking = [name for name in ("pgbouncer", "haproxy") if program(name) is None]
    if lacking:
        return f"{' and '.join(lacking)} not installed: apt-get install -y pgbouncer haproxy"
    return None


def program(name: str) -> str | None:
    """Where Debian put ``name`` (/usr/sbin is not on every PATH), or None."""
    return shutil.which(name) or next(
        (str(p) for p in (Path("/usr/sbin") / name, Path("/sbin") / name) if p.exists()), None
    )


def replace_setting(text: str, pattern: str, replacement: str) -> str:
    """``text`` with the one line matching ``pattern`` (a regex, whole line) replaced."""
    new, count = re.subn(rf"(?m)^{pattern}$", replacement, text)
    if count != 1:
        raise AssertionError(f"expected one line matching {pattern!r} in the shipped file")
    return new


class PgBouncer:
    """deploy/pgbouncer/pgbouncer.ini in front of ``pg_url``'s server, on a free port."""

    def __init__(self, pg_url: str):
        parts = urlsplit(pg_url)
        self.pg_url = pg_url
        self.user = parts.username or "postgres"
        self.port = free_port()
        # Its own folder: readable by the unprivileged account, unlike pytest's tmp_path.
        self.workdir = Path(tempfile.mkdtemp(prefix="arbiter-pgbouncer-"))
        self.process: Process | None = None

    def config(self) -> str:
        parts = urlsplit(self.pg_url)
        text = PGBOUNCER_INI.read_text()
        target = f"* = host={parts.hostname or '127.0.0.1'} port={parts.port or 5432}"
        text = replace_setting(text, r"\* = host=127\.0\.0\.1 port=5432", target)
        text = replace_setting(text, r"listen_addr = .*", "listen_addr = 127.0.0.1")
        text = replace_setting(text, r"listen_port = .*", f"listen_port = {self.port}")
        auth = self.workdir / "userlist.txt"
        return replace_setting(text, r"auth_file = .*", f"auth_file = {auth}")

    def url(self, database: str) -> str:
        """What Django's DATABASE_URL names: this PgBouncer, with the userlist's password."""
        parts = urlsplit(self.pg_url)
        netloc = f"{self.user}:{BOUNCER_PASSWORD}@127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc, path=f"/{database}"))

    def start(self) -> PgBouncer:
        ini = self.workdir / "pgbouncer.ini"
        ini.write_text(self.config())
        userlist = self.workdir / "userlist.txt"
        userlist.write_text(f'"{self.user}" "{BOUNCER_PASSWORD}"\n')
        userlist.chmod(0o600)
        argv = [program("pgbouncer") or "pgbouncer", str(ini)]
        if os.geteuid() == 0:
            account = pwd.getpwnam(UNPRIVILEGED)
            for path in (self.workdir, ini, userlist):
                os.chown(path, account.pw_uid, account.pw_gid)
            argv[1:1] = ["-u", UNPRIVILEGED]
        self.process = Process("pgbouncer", argv, dict(os.environ), self.workdir / "log.txt")
        self.process.start()
        wait_until(
            lambda: port_open(self.port) or not self.process.alive,
            15,
            lambda: f"PgBouncer on port {self.port}:\n{self.output()}",
        )
        if not self.process.alive:
            raise RuntimeError(f"PgBouncer exited:\n{self.output()}")
        return self

    def output(self) -> str:
        return self.process.output() if self.process else ""

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop(timeout=10)
        shutil.rmtree(self.workdir, ignore_errors=True)


def self_signed_pem(path: Path) -> Path:
    """A certificate for 127.0.0.1 and its key in one PEM file, as HAProxy's ``crt`` reads."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    path.write_bytes(
        cert.public_bytes(serialization.Encoding.PEM)
        + key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    path.chmod(0o600)
    return path


class HAProxy:
    """deploy/haproxy/haproxy.cfg balancing the given web ports, TLS on a free port."""

    def __init__(self, workdir: Path, backends: dict[str, int]):
        self.workdir = workdir
        self.backends = backends  # server name in the shipped file -> local port
        self.https_port = free_port()
        self.http_port = free_port()
        self.process: Process | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    def config(self) -> str:
        text = HAPROXY_CFG.read_text()
        text = replace_setting(text, r"    bind :80", f"    bind 127.0.0.1:{self.http_port}")
        pem = self_signed_pem(self.workdir / "haproxy.pem")
        text = replace_setting(
            text,
            r"    bind :443 ssl crt /etc/haproxy/certs/arbiter\.pem (.*)",
            rf"    bind 127.0.0.1:{self.https_port} ssl crt {pem} \1",
        )
        for server, port in self.backends.items():
            text = replace_setting(
                text, rf"    server {server} \S+", f"    server {server} 127.0.0.1:{port}"
            )
        if os.geteuid() != 0:  # chroot and a change of user need root; CI runs as root
            for setting in ("chroot", "user", "group"):
                text = replace_setting(text, rf"    {setting} .*", "")
        return text

    def start(self) -> HAProxy:
        self.workdir.mkdir(parents=True, exist_ok=True)
        cfg = self.workdir / "haproxy.cfg"
        cfg.write_text(self.config())
        binary = program("haproxy") or "haproxy"
        # -db: in the foreground, server state changes written to its output.
        argv = [binary, "-db", "-f", str(cfg)]
        self.process = Process("haproxy", argv, dict(os.environ), self.workdir / "haproxy.log")
        self.process.start()
        wait_until(
            lambda: port_open(self.https_port) or not self.process.alive,
            15,
            lambda: f"HAProxy on port {self.https_port}:\n{self.output()}",
        )
        if not self.process.alive:
            raise RuntimeError(f"HAProxy exited:\n{self.output()}")
        return self

    def output(self) -> str:
        return self.process.output() if self.process else ""

    def marked_down(self, server: str) -> bool:
        return re.search(rf"Server arbiter_web/{server} is DOWN", self.output()) is not None

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop(timeout=10)
