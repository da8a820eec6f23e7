"""The phones' page's listening socket: the port asked for, or a free one when it is
taken and was not chosen."""

from __future__ import annotations

import errno
import socket

import pytest
from netns import has_ipv6_loopback

from sorry_lan.net.weblisten import bound_also, web_socket, web_sockets

LOCAL = "127.0.0.1"


def test_a_taken_port_not_chosen_falls_back_to_a_free_one() -> None:
    with socket.socket() as taken:
        taken.bind((LOCAL, 0))
        taken.listen()
        port = taken.getsockname()[1]
        with web_socket(LOCAL, port) as sock:
            assert sock.getsockname()[1] not in (port, 0)
            assert not sock.getblocking()
        with pytest.raises(OSError) as refused:
            web_socket(LOCAL, port, fallback=False)
        assert refused.value.errno == errno.EADDRINUSE


def test_a_free_port_is_the_one_listened_on() -> None:
    with socket.socket() as probe:
        probe.bind((LOCAL, 0))
        port = probe.getsockname()[1]
    with web_socket(LOCAL, port) as sock:
        assert sock.getsockname() == (LOCAL, port)



ipv6 = pytest.mark.skipif(not has_ipv6_loopback(), reason="no IPv6 loopback here")


def _connects(address: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family) as probe:
        probe.settimeout(5)
        return probe.connect_ex((address, port)) == 0


@ipv6
def test_the_page_listens_on_ipv6_too_at_the_same_port_ipv6_only() -> None:
    socks = web_sockets(LOCAL, 0, also=("::1",))
    try:
        v4, v6 = socks
        port = v4.getsockname()[1]
        assert v6.getsockname()[:2] == ("::1", port)
        assert v6.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY) == 1
        assert not v6.getblocking()
        assert _connects(LOCAL, port) and _connects("::1", port)
    finally:
        for sock in socks:
            sock.close()


@ipv6
def test_a_port_taken_for_ipv6_only_leaves_the_ipv4_page(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with socket.socket(socket.AF_INET6) as taken:
        taken.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        taken.bind(("::1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with caplog.at_level("INFO", "sorry_lan.net.weblisten"):
            socks = web_sockets(LOCAL, port, fallback=False, also=("::1",))
        try:
            assert [s.getsockname()[:2] for s in socks] == [(LOCAL, port)]
            assert "not served on ::1 too" in caplog.text
        finally:
            for sock in socks:
                sock.close()
    assert bound_also("192.0.2.1", 0) is None  # (no address of this machine: logged)
