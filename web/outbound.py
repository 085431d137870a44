"""The one guard for every request the server makes to an address a user supplied.

Push endpoints (push/sender.py) and webhooks go through :func:`session` or :func:`post`.
The guard refuses, before anything is sent:

* anything but ``https`` (plain ``http`` only to an entry of ``OUTBOUND_TRUSTED_PRIVATE``),
  a user name or password in the address, and hosts written as numbers (``2130706433``,
  ``127.1``, ``0x7f000001``, ``017700000001``: only a plain dotted IPv4 is an address);
* at connect time, a host that resolves to any address that is not public (loopback,
  private, link-local and cloud metadata, carrier NAT, multicast, unspecified, reserved).
  The name is resolved here, once, and the socket is opened to the very address vetted, so
  a second answer of the DNS cannot swap it (rebinding); TLS still checks the certificate
  against the host name;
* redirects: they are never followed, the 3xx answer is handed back as it is;
* proxies from the environment: the connection goes straight to the vetted address.

``OUTBOUND_TRUSTED_PRIVATE`` lists ``host:port`` entries an operator trusts on a private
network (a self-hosted push service): for them, and only them, loopback and private
addresses are allowed. Link-local, metadata, multicast and unspecified addresses never are.
The default is empty, so out of the box nothing but public addresses is ever reached.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import idna
import requests
from django.conf import settings
from django.utils.translation import gettext as _
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.util import connection as urllib3_connection

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
DEFAULT_PORTS = {"http": 80, "https": 443}
# The last label of a host that a resolver reads as (part of) an IPv4 number: decimal,
# octal or hex. A real host name never ends so; only a plain dotted quad is taken.
NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")
# Characters that parse differently in different URL parsers: refused anywhere in a URL.
AMBIGUOUS = re.compile(r"[\\\s\x00-\x1f\x7f]")


class OutboundRefused(Exception):
    """A request the guard will not make; ``str()`` says why, for the person who asked."""


@dataclass(frozen=True)
class Target:
    """Where a checked URL points: its scheme, normalised host and port."""

    scheme: str
    host: str
    port: int

    @property
    def trusted_private(self) -> bool:
        return (self.host, self.port) in trusted_private()


def normalised_host(host: str) -> str:
    """``host`` as a resolver sees it: lower case, no trailing dot, IDNA (punycode) encoded.

    Raises ``ValueError`` for a host that is not a valid name or IP address.
    """
    host = host.strip("[]").rstrip(".").lower()
    if not host:
        raise ValueError("empty host")
    if ":" in host:  # an IPv6 literal
        return str(ipaddress.IPv6Address(host))
    return idna.encode(host, uts46=True).decode("ascii").lower()


def ip_literal(host: str) -> IPAddress | None:
    """The address a normalised host names when it is an IP literal; None for a name.

    Raises ``ValueError`` for hosts written as numbers in any other form than a plain
    dotted IPv4 (resolvers read ``127.1`` or ``2130706433`` as 127.0.0.1).
    """
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    if NUMERIC_LABEL.match(host.rsplit(".", 1)[-1]):
        raise ValueError("a host written as a number")
    return None


def host_matches(host: str, entries: Iterable[str]) -> bool:
    """Whether a normalised ``host`` is one of ``entries`` or under one (on a dot boundary):
    ``fcm.googleapis.com`` matches ``fcm.googleapis.com`` and ``eu.fcm.googleapis.com``,
    never ``evilfcm.googleapis.com``. An IP address matches only itself."""
    for entry in entries:
        try:
            wanted = normalised_host(entry)
        except ValueError:
            continue
        if host == wanted or (_is_name(wanted) and host.endswith("." + wanted)):
            return True
    return False


def _is_name(host: str) -> bool:
    """A host name, not an address (whose dots are no boundary of a domain)."""
    return ":" not in host and not NUMERIC_LABEL.match(host.rsplit(".", 1)[-1])


def parse_host_port(entry: str) -> tuple[str, int]:
    """One ``OUTBOUND_TRUSTED_PRIVATE`` entry, ``host:port`` or ``[v6]:port``, normalised.

    Raises ``ValueError`` for anything else (a port is required).
    """
    host, sep, port = entry.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{entry!r} is not host:port")
    if ":" in host and not (host.startswith("[") and host.endswith("]")):
        raise ValueError(f"{entry!r}: write an IPv6 address in brackets, [::1]:8443")
    return normalised_host(host), int(port)


def trusted_private() -> set[tuple[str, int]]:
    """The operator's ``host:port`` entries allowed to be on a private network."""
    found = set()
    for entry in getattr(settings, "OUTBOUND_TRUSTED_PRIVATE", []):
        try:
            found.add(parse_host_port(entry))
        except ValueError:
            continue  # arbiter.env refuses a bad entry at start-up; never widen here
    return found


def checked_url(url: str) -> Target:
    """Where ``url`` points, when the guard may send to it; else ``OutboundRefused``.

    What can be known without resolving the host: the scheme, no user name, a host that is
    a name or a plain IP address, and an IP literal that is public (or trusted).
    """
    if not isinstance(url, str) or AMBIGUOUS.search(url):
        raise OutboundRefused(_("The address is not a URL."))
    try:
        parts = urlsplit(url)
        port = parts.port
        raw_host = parts.hostname or ""
    except ValueError:
        raise OutboundRefused(_("The address is not a URL.")) from None
    if parts.scheme not in DEFAULT_PORTS:
        raise OutboundRefused(_("The address must be an https address."))
    if "@" in parts.netloc:
        raise OutboundRefused(_("The address must not hold a user name or password."))
    if not raw_host:
        raise OutboundRefused(_("The address is not a URL with a host."))
    try:
        host = normalised_host(raw_host)
        address = ip_literal(host)
    except (ValueError, idna.IDNAError):
        raise OutboundRefused(
            _("The address's host is not a valid name (a number other than a plain IP address).")
        ) from None
    target = Target(parts.scheme, host, port or DEFAULT_PORTS[parts.scheme])
    if target.scheme == "http" and not target.trusted_private:
        raise OutboundRefused(_("The address must be an https address."))
    if address is not None and refused_address(address, trusted=target.trusted_private):
        raise OutboundRefused(
            _("The address must be a service on the internet, not a private address.")
        )
    return target


def _embedded_ipv4(address: IPAddress) -> list[ipaddress.IPv4Address]:
    """IPv4 addresses an IPv6 one carries (mapped, 6to4, Teredo, NAT64)."""
    if address.version == 4:
        return []
    found = [address.ipv4_mapped, address.sixtofour]
    if address.teredo:
        found.extend(address.teredo)
    if address in ipaddress.IPv6Network("64:ff9b::/96"):
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return [a for a in found if a is not None]


def refused_address(address: IPAddress, *, trusted: bool = False) -> bool:
    """Whether the guard refuses to connect to ``address``.

    Public addresses only; ``trusted`` (an OUTBOUND_TRUSTED_PRIVATE entry) also allows
    loopback and private ones, never link-local (cloud metadata), multicast, unspecified
    or reserved addresses.
    """
    for inner in _embedded_ipv4(address):
        if refused_address(inner, trusted=trusted):
            return True
    never = (
        address.is_link_local
        or address.is_multicast
        or address.is_unspecified
        or (address.is_reserved and not address.is_loopback)  # ::1 sits in reserved ::/8
    )
    if never:
        return True
    return not (trusted or address.is_global)


def vetted_address(host: str, port: int) -> str:
    """Resolve ``host`` once; the address to connect to, when every answer may be reached.

    One refused answer refuses the host: a name that also points inside is not a push
    service, and trying the next answer would let a resolver choose.
    """
    try:
        name = normalised_host(host)
    except (ValueError, idna.IDNAError):
        raise OutboundRefused(_("The address's host is not a valid name.")) from None
    trusted = (name, port) in trusted_private()
    try:
        answers = socket.getaddrinfo(name, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise OutboundRefused(_("The address's host does not resolve.")) from exc
    addresses = [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in answers]
    if not addresses or any(refused_address(a, trusted=trusted) for a in addresses):
        raise OutboundRefused(
            _("The address's host resolves to a private address: nothing was sent.")
        )
    return str(addresses[0])


class _VettedConnectionMixin:
    """Opens the socket to the address ``vetted_address`` chose, not to a second lookup."""

    host: str
    port: int
    timeout: Any
    source_address: Any
    socket_options: Any

    def _new_conn(self) -> socket.socket:
        address = vetted_address(self.host, self.port)
        return urllib3_connection.create_connection(
            (address, self.port),
            self.timeout,
            source_address=self.source_address,
            socket_options=self.socket_options,
        )


class _VettedHTTPConnection(_VettedConnectionMixin, HTTPConnection):
    pass


class _VettedHTTPSConnection(_VettedConnectionMixin, HTTPSConnection):
    pass


class _VettedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _VettedHTTPConnection


class _VettedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _VettedHTTPSConnection


class _VettedAdapter(HTTPAdapter):
    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _VettedHTTPPool,
            "https": _VettedHTTPSPool,
        }

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any):
        if kwargs.get("proxies"):
            raise OutboundRefused(
                _("Outgoing requests go straight to the service, never via proxy.")
            )
        checked_url(request.url or "")
        return super().send(request, *args, **kwargs)


class VettedSession(requests.Session):
    """A requests session that goes through the guard and never follows a redirect."""

    def __init__(self) -> None:
        super().__init__()
        self.trust_env = False  # no proxies or .netrc from the environment
        self.max_redirects = 0
        adapter = _VettedAdapter(max_retries=0)
        self.mount("https://", adapter)
        self.mount("http://", adapter)

    def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> requests.Response:
        checked_url(url)  # every refusal is an OutboundRefused, not one of requests' errors
        kwargs["allow_redirects"] = False
        return super().request(method, url, *args, **kwargs)

    def get_redirect_target(self, resp: requests.Response) -> None:
        return None


def session() -> VettedSession:
    """A session for outgoing requests; close it (or use ``with``) when done."""
    return VettedSession()


def post(url: str, **kwargs: Any) -> requests.Response:
    """POST through the guard: ``requests.post``'s arguments, a 3xx answer returned as is."""
    with session() as guarded:
        return guarded.post(url, **kwargs)
