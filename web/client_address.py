"""Who the client is: the connection's address, or X-Forwarded-For when a proxy of ours says so.

Plain data in and out, no Django: settings parse ``TRUSTED_PROXIES`` with
:func:`parse_trusted_proxies` (the same variable gunicorn's ``forwarded_allow_ips``
reads), and log-in throttling and rate limits ask :func:`client_address`.

Each proxy appends the address it received the request from to X-Forwarded-For, so the
header is read from the right: while an entry belongs to one of our proxies it is skipped,
and the first entry that does not is the client. Anything further left was written by the
client (or by proxies we know nothing of) and cannot be believed. A request that does not
come from one of our proxies is its own client, whatever it claims.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

ANY_PEER = "*"
DEFAULT_TRUSTED_PROXIES = "127.0.0.1,::1"


@dataclass(frozen=True)
class TrustedProxies:
    """The proxies whose X-Forwarded-For we believe.

    ``any_peer`` (``*``): every connection comes from a proxy of ours, because nothing else
    can reach the web processes (compose publishes gunicorn on the host's loopback only).
    It vouches for the connection alone: X-Forwarded-For entries are skipped only when they
    are in ``networks``, so ``*`` still takes the rightmost entry the proxy wrote.
    """

    networks: tuple[IPNetwork, ...] = ()
    any_peer: bool = False

    def vouches_for_peer(self, address: IPAddress) -> bool:
        """Whether a connection from ``address`` is one of our proxies."""
        return self.any_peer or self.is_proxy(address)

    def is_proxy(self, address: IPAddress) -> bool:
        """Whether an address named in X-Forwarded-For is one of our proxies."""
        return any(address in network for network in self.networks)


def parse_trusted_proxies(raw: str) -> TrustedProxies:
    """``"127.0.0.1,::1"``, ``"10.0.0.0/8, 192.0.2.7"`` or ``"*"``; "" trusts no proxy.

    A bad entry raises ``ValueError`` naming it: a typo must stop the site, not silently
    trust nobody (everyone would then share the proxy's address and lock each other out).
    """
    networks: list[IPNetwork] = []
    any_peer = False
    for entry in (part.strip() for part in raw.split(",")):
        if not entry:
            continue
        if entry == ANY_PEER:
            any_peer = True
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(
                f"{entry!r} is not an IP address or network (e.g. 10.0.0.5, 10.0.0.0/8, *)"
            ) from None
    return TrustedProxies(networks=tuple(networks), any_peer=any_peer)


def parse_address(raw: str) -> IPAddress | None:
    """An address as proxies write it (``1.2.3.4``, ``1.2.3.4:5678``, ``[::1]:80``), or None.

    IPv4 addresses seen over IPv6 (``::ffff:1.2.3.4``) become plain IPv4, so one client is
    one client whichever way the socket was opened.
    """
    text = raw.strip()
    if text.startswith("[") and "]" in text:
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # IPv4 with a port; IPv6 has at least two colons
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def client_address(remote_addr: str, forwarded_for: str, trusted: TrustedProxies) -> str | None:
    """The client's address as text, or None when the connection has no IP address.

    ``remote_addr`` is the connection's peer (REMOTE_ADDR), ``forwarded_for`` the raw
    X-Forwarded-For header ("" when absent).
    """
    peer = parse_address(remote_addr or "")
    if peer is None:
        return None
    if not trusted.vouches_for_peer(peer):
        return str(peer)
    nearest = peer  # the closest address we have reason to believe
    for entry in reversed(forwarded_for.split(",")):
        if not entry.strip():
            continue
        hop = parse_address(entry)
        if hop is None:  # our own proxy wrote something that is no address: stop here
            return str(nearest)
        if not trusted.is_proxy(hop):
            return str(hop)
        nearest = hop
    # Every hop was a proxy of ours: the request began at the leftmost of them.
    return str(nearest)
