"""The phones' page's listening socket: the port asked for, or a free one when it is
taken and was not chosen."""

from __future__ import annotations

import errno
import socket

import pytest

from sorry_lan.net.weblisten import web_socket

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
