"""The listening socket of the phone's page (``sorry_lan.web`` serves on it).

:func:`web_socket` binds where the table listens (its ``--bind`` address, every IPv4
address by default) at the port asked for: the game's port + 1 unless one was
chosen, or a free port the system picks when that one is taken and none was
chosen; :func:`listening` makes a socket bound already (a laptop's standby kept
its port + 1) listen.  It serves nothing itself.
"""

from __future__ import annotations

import errno
import socket

#: The listen backlog: a family's phones opening the page at once.
BACKLOG = 32


def web_socket(host: str, port: int, *, fallback: bool = True) -> socket.socket:
    """A non-blocking TCP socket listening at ``host``:``port``; at a free port when
    ``port`` is in use and ``fallback`` (a port not chosen by the person).  Raises
    OSError otherwise."""
    return listening(_bound(host, port, fallback))


def listening(sock: socket.socket) -> socket.socket:
    """``sock``, bound already (a port kept for the page), listening, non-blocking."""
    sock.listen(BACKLOG)
    sock.setblocking(False)
    return sock


def _bound(host: str, port: int, fallback: bool) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for chosen in (port, 0) if fallback and port else (port,):
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, chosen))
        except OSError as exc:
            sock.close()
            if exc.errno == errno.EADDRINUSE and chosen:
                continue
            raise
        return sock
    raise OSError(errno.EADDRINUSE, f"port {port} is in use")
