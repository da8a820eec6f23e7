"""The listening sockets of the phone's page (``sorry_lan.web`` serves on them).

:func:`web_sockets` binds where the table listens (its ``--bind`` address, every IPv4
address by default) at the port asked for: the game's port + 1 unless one was
chosen, or a free port the system picks when that one is taken and none was
chosen; and, on that same port, at each ``also`` address the game listens on too
(``"::"``: IPv6, where the machine has it), each an IPv6-only socket beside the IPv4
one.  An ``also`` address that cannot be had (no IPv6 stack, the port taken for IPv6
only) is logged and left out: the page is served on the others.
:func:`bound_also` binds such a socket without listening (a laptop's standby keeps
its port + 1 for both families); :func:`listening` makes a socket bound already
listen.  It serves nothing itself.
"""

from __future__ import annotations

import errno
import logging
import socket
from collections.abc import Sequence

log = logging.getLogger(__name__)

#: The listen backlog: a family's phones opening the page at once.
BACKLOG = 32


def web_sockets(
    host: str, port: int, *, fallback: bool = True, also: Sequence[str] = ()
) -> list[socket.socket]:
    """Non-blocking TCP sockets listening at ``host``:``port`` (the first; at a free
    port when ``port`` is in use and ``fallback``: a port not chosen by the person)
    and at each of ``also`` on the first one's port, those that could be bound.
    Raises OSError when the first cannot be had."""
    first = _bound(host, port, fallback)
    socks = [first]
    try:
        bound = int(first.getsockname()[1])
        socks += [s for s in (bound_also(extra, bound) for extra in also) if s is not None]
        return [listening(s) for s in socks]
    except BaseException:
        for sock in socks:
            sock.close()
        raise


def web_socket(host: str, port: int, *, fallback: bool = True) -> socket.socket:
    """The one socket of :func:`web_sockets` at ``host`` (no ``also`` address)."""
    return web_sockets(host, port, fallback=fallback)[0]


def listening(sock: socket.socket) -> socket.socket:
    """``sock``, bound already (a port kept for the page), listening, non-blocking."""
    sock.listen(BACKLOG)
    sock.setblocking(False)
    return sock


def bound_also(address: str, port: int, *, reuse: bool = True) -> socket.socket | None:
    """A TCP socket bound (not listening) at ``address``:``port``, IPv6-only when it is
    an IPv6 address (so it sits beside an IPv4 socket on the same port, as the game's
    own listeners do); None, logged, when it cannot be had (no IPv6 on this machine,
    the port taken for that family alone).  ``reuse``: with SO_REUSEADDR (a port kept
    for later is bound without it, so that no other program's socket shares it)."""
    try:
        return _socket_at(address, port, reuse)
    except OSError as exc:
        log.info("the phones' page is not served on %s too (port %d): %s",
                 address, port, exc.strerror or exc)
        return None


def _socket_at(address: str, port: int, reuse: bool = True) -> socket.socket:
    """A TCP socket bound at ``address``:``port``; an IPv6 one only for IPv6 (where
    the system has the option: Windows is so by default, Linux and macOS are not)."""
    v6 = ":" in address
    if v6 and not socket.has_ipv6:
        raise OSError(errno.EAFNOSUPPORT, "this Python has no IPv6")
    sock = socket.socket(socket.AF_INET6 if v6 else socket.AF_INET, socket.SOCK_STREAM)
    try:
        if reuse:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if v6 and hasattr(socket, "IPV6_V6ONLY"):
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind((address, port))
    except BaseException:
        sock.close()
        raise
    return sock


def _bound(host: str, port: int, fallback: bool) -> socket.socket:
    for chosen in (port, 0) if fallback and port else (port,):
        try:
            return _socket_at(host, chosen)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE and chosen:
                continue
            raise
    raise OSError(errno.EADDRINUSE, f"port {port} is in use")
