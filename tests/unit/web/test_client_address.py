"""Which address is the client's: X-Forwarded-For counts only when a proxy of ours sent it."""

import pytest

from web.client_address import client_address, parse_address, parse_trusted_proxies

ONE_PROXY = parse_trusted_proxies("10.9.9.9")
TWO_PROXIES = parse_trusted_proxies("10.9.9.9, 10.0.0.0/24")
LOOPBACK = parse_trusted_proxies("127.0.0.1,::1")
ANY_PEER = parse_trusted_proxies("*")
NOBODY = parse_trusted_proxies("")


@pytest.mark.parametrize(
    ("remote", "forwarded", "trusted", "client"),
    [
        # No proxy of ours: the connection is the client, whatever the header says.
        ("198.51.100.7", "203.0.113.5", ONE_PROXY, "198.51.100.7"),
        ("198.51.100.7", "203.0.113.5", NOBODY, "198.51.100.7"),
        ("10.9.9.9", "203.0.113.5", NOBODY, "10.9.9.9"),
        # One proxy: the entry it appended (the rightmost) is the client.
        ("10.9.9.9", "203.0.113.5", ONE_PROXY, "203.0.113.5"),
        ("10.9.9.9", "made-up, 192.0.2.1, 203.0.113.5", ONE_PROXY, "203.0.113.5"),
        # Two of ours (a load balancer, then a proxy): both are skipped, from the right.
        ("10.9.9.9", "192.0.2.1, 203.0.113.5, 10.0.0.2", TWO_PROXIES, "203.0.113.5"),
        # A client claiming to be one of our proxies gains nothing: its real peer is used.
        ("10.9.9.9", "10.0.0.2, 203.0.113.5", TWO_PROXIES, "203.0.113.5"),
        # Through our proxy with no header (a health check): the proxy itself.
        ("127.0.0.1", "", LOOPBACK, "127.0.0.1"),
        # Every hop ours: the request began at the leftmost.
        ("10.9.9.9", "10.0.0.3, 10.0.0.2", TWO_PROXIES, "10.0.0.3"),
        # Our proxy wrote something that is no address: the last hop we believe.
        ("10.9.9.9", "203.0.113.5, unknown", ONE_PROXY, "10.9.9.9"),
        # Ports and brackets as some proxies write them; IPv4 seen over IPv6.
        ("10.9.9.9", "203.0.113.5:4711", ONE_PROXY, "203.0.113.5"),
        ("::1", "[2001:db8::5]:443", LOOPBACK, "2001:db8::5"),
        ("::ffff:10.9.9.9", "203.0.113.5", ONE_PROXY, "203.0.113.5"),
        # "*": the peer is always our proxy; entries are skipped only when listed.
        ("172.18.0.1", "192.0.2.1, 203.0.113.5", ANY_PEER, "203.0.113.5"),
        # No IP address for the connection at all (a Unix socket).
        ("", "203.0.113.5", ANY_PEER, None),
    ],
)
def test_client_address(remote, forwarded, trusted, client):
    assert client_address(remote, forwarded, trusted) == client


def test_a_bad_proxy_entry_is_named():
    with pytest.raises(ValueError, match=r"'10\.0\.0\.300'"):
        parse_trusted_proxies("10.0.0.1, 10.0.0.300")


def test_networks_and_any_peer_are_read():
    proxies = parse_trusted_proxies(" 10.0.0.0/8 ,*,")
    assert proxies.any_peer
    assert [str(network) for network in proxies.networks] == ["10.0.0.0/8"]


@pytest.mark.parametrize("raw", ["unknown", "", "1.2.3", "[::1"])
def test_what_is_no_address(raw):
    assert parse_address(raw) is None
