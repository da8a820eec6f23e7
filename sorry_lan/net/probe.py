"""The old host's probe: is my table hosted somewhere else now, at a newer epoch?

A host cut off from most of its players (issue 19) asks each missing laptop's
standby port, every few seconds, what is there: :func:`probe` connects to each of
the laptop's addresses in turn and asks to ``spectate`` (protocol version 4).  A
laptop that is only standing by refuses (``busy``); one that hosts the table now
welcomes the spectator and sends ``succession``, whose ``table`` and ``epoch`` say
which table and how many hosts it has had.  A :class:`Sighting` of the same table
is returned with its connection still open (:class:`ProbeLink`), so that the host
core's answer (a ``Refute``: this host is alive, the claim is refused) can be sent
on it before it is closed.

It decides nothing: whether a sighting's epoch is newer, and whether to step down,
is the host core's (``HostCore.newer_epoch``); when and whom to probe too (the
core's ``Probe`` effects).  It reads nothing but the greeting's answer and the
``succession`` message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.session import ClientSession

__all__ = ["PROBE_NAME", "ProbeLink", "Sighting", "probe"]

log = logging.getLogger(__name__)

#: The name an old host's probe spectates under.
PROBE_NAME = "probe"


@dataclass(frozen=True)
class Sighting:
    """The table ``table`` hosted at ``address`` at ``epoch``, by seat ``pid`` (the
    new host's own seat; None when it has none)."""

    table: str
    epoch: int
    pid: int | None
    address: tuple[str, int]


class ProbeLink:
    """The open connection a sighting came on: :meth:`tell` a message, then :meth:`close`."""

    def __init__(self, session: ClientSession, writer: asyncio.StreamWriter) -> None:
        self.session = session
        self.writer = writer

    def tell(self, message: m.Message) -> None:
        """Send ``message`` (an ``error``: the claim is refused), if it may be sent now."""
        with contextlib.suppress(LocalProtocolError):
            self.session.send(message)
            self.writer.write(self.session.data_to_send())

    def close(self) -> None:
        if not self.writer.is_closing():
            with contextlib.suppress(LocalProtocolError):
                self.session.close()
                self.writer.write(self.session.data_to_send())
            self.writer.close()


async def probe(
    addrs: Sequence[str], port: int, table: str, *, timeout: float = 2.0
) -> tuple[Sighting, ProbeLink] | None:
    """Ask each of ``addrs`` (at ``port``) in turn what it hosts: the first sighting
    of ``table`` there, with its open link, or None (nobody hosts it there: refused,
    silent, unreachable, another table, or an older peer without succession)."""
    for address in addrs:
        try:
            found = await asyncio.wait_for(_ask(address, port, table), timeout)
        except (TimeoutError, OSError) as exc:
            log.debug("probe of %s:%d: %s", address, port, exc or "no answer")
            continue
        if found is not None:
            return found
    return None


async def _ask(address: str, port: int, table: str) -> tuple[Sighting, ProbeLink] | None:
    reader, writer = await asyncio.open_connection(address, port)
    session = ClientSession(PROBE_NAME, spectate=True)
    link = ProbeLink(session, writer)
    kept = False
    try:
        session.join()
        writer.write(session.data_to_send())
        while not session.closed:
            data = await reader.read(65536)
            if not data:
                break
            for message in session.receive_data(data):
                if isinstance(message, m.Succession):
                    if message.table != table:
                        return None
                    kept = True  # the caller answers on it, then closes it
                    seen = Sighting(message.table, message.epoch, message.host, (address, port))
                    return seen, link
            out = session.data_to_send()
            if out:
                writer.write(out)
        return None
    finally:
        if not kept:
            link.close()
