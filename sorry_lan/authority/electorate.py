"""The laptops that may host the table next, and their order (protocol/SPEC.md, Succession).

A **laptop** is a seated person's process on protocol version 4 that told the host
where it can be reached (``offer``: its standby port and addresses).  The
:class:`Electorate` keeps one :class:`Laptop` per seat (by pid) for as long as the
seat is held: a laptop whose connection dropped still votes (that is what makes a
host cut off from most of them notice it), and leaves when its seat is freed, when
its seat is the host's own, or when the seat comes back on an older version.

The **order** is the laptops by seat (colour), then by pid: who hosts next.  The
addresses of a laptop start with the one the host saw its connection come from
(unless that is a loopback address or carries a zone, useless to the others), then
those it offered, each once, eight at most.  A laptop that connected from a loopback
address and offered only loopback ones (on the host's machine, with no network) keeps
those: :meth:`Electorate.listed` names it in the ``succession`` only when every laptop
of the table is such a one (every program on one machine, where a loopback address
means the same machine to every laptop), else leaves it out.

Pure bookkeeping over the :class:`~sorry_lan.authority.table.Table` it is given: it
does not send ``succession``, probe anyone or count votes.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sorry_lan.authority.table import Player, Table
from sorry_lan.wire import succession as wire
from sorry_lan.wire.limits import ADDRS_MAX
from sorry_lan.wire.succession import is_ip_literal


@dataclass(frozen=True, slots=True)
class Laptop:
    """Seat ``pid``'s laptop: its standby ``port`` on each of ``addrs``."""

    pid: int
    addrs: tuple[str, ...]
    port: int


def _usable(address: str) -> bool:
    """An IP literal without a zone (which names an interface of one machine) that is
    not a loopback address (which means the same machine to everyone)."""
    return is_ip_literal(address) and not ipaddress.ip_address(address).is_loopback


def reachable_at(seen: str, offered: Sequence[str]) -> tuple[str, ...]:
    """The addresses to try for a laptop whose connection came from ``seen`` and that
    offered ``offered``: ``seen`` first, each once, eight at most, only IP literals
    the others can use (no zone, no loopback)."""
    out: list[str] = []
    for address in (seen, *offered):
        if address not in out and _usable(address):
            out.append(address)
    return tuple(out[:ADDRS_MAX])


def _loopback(address: str) -> bool:
    return is_ip_literal(address) and ipaddress.ip_address(address).is_loopback


def local_at(seen: str, offered: Sequence[str]) -> tuple[str, ...]:
    """The loopback addresses of a laptop on the host's own machine (its connection
    came from loopback, ``seen``): ``seen`` first, then the offered loopback ones, each
    once, eight at most; none for a laptop whose connection came from elsewhere."""
    if not _loopback(seen):
        return ()
    out = [seen, *(a for a in offered if a != seen and _loopback(a))]
    return tuple(dict.fromkeys(out))[:ADDRS_MAX]


def on_this_machine(laptop: Laptop) -> bool:
    """Whether the host knows ``laptop`` only at loopback addresses (see
    :func:`local_at`)."""
    return bool(laptop.addrs) and all(_loopback(a) for a in laptop.addrs)


class Electorate:
    """The laptops of one table, by pid."""

    def __init__(self) -> None:
        self.laptops: dict[int, Laptop] = {}
        # When each laptop whose seat has no connection was last heard from (by pid;
        # none yet: from when the host first counts it).
        self.last_heard: dict[int, float] = {}

    def offer(self, pid: int, seen: str, port: int, addrs: Sequence[str]) -> bool:
        """Seat ``pid``'s laptop offered ``port`` on ``addrs`` (its connection comes
        from ``seen``); returns whether anything changed."""
        laptop = Laptop(pid, reachable_at(seen, addrs) or local_at(seen, addrs), port)
        if self.laptops.get(pid) == laptop:
            return False
        self.laptops[pid] = laptop
        return True

    def expect(self, laptops: Iterable[Laptop | wire.Laptop]) -> None:
        """Count ``laptops`` from the start (a successor's table: the order it knew, so
        that laptops not back yet still count towards the quorum)."""
        for x in laptops:
            self.laptops[x.pid] = Laptop(x.pid, tuple(x.addrs), x.port)

    def forget(self, pid: int) -> bool:
        """Seat ``pid`` is no laptop (any more); returns whether it was one."""
        self.last_heard.pop(pid, None)
        return self.laptops.pop(pid, None) is not None

    def prune(self, table: Table, host: int | None = None) -> bool:
        """Forget the laptops whose seat was freed, became a bot, or is the host's own
        (the owner's, or ``host``: the seat whose laptop hosts); returns whether any was
        forgotten."""
        gone = [
            pid for pid in self.laptops
            if pid in (table.owner, host) or pid not in table.players or table.players[pid].bot
        ]  # fmt: skip
        for pid in gone:
            self.forget(pid)
        return bool(gone)

    def order(self, table: Table) -> list[Laptop]:
        """The laptops in succession order: by seat (colour), then pid."""
        seated = [(table.players[pid], laptop) for pid, laptop in self.laptops.items()
                  if pid in table.players]  # fmt: skip
        return [laptop for _, laptop in sorted(seated, key=lambda x: _rank(x[0]))]

    def listed(self, table: Table) -> list[Laptop]:
        """The laptops in order that ``succession.order`` names: each with an address
        the others can use; those on the host's machine alone (loopback addresses) only
        when every laptop is one of them, since ``order`` is one message for every
        receiver and a loopback address would name another machine's own."""
        laptops = self.order(table)
        if laptops and all(on_this_machine(x) for x in laptops):
            return laptops
        return [x for x in laptops if x.addrs and not on_this_machine(x)]

    def connected(self, table: Table) -> list[Laptop]:
        """The laptops in order whose seat has a connection now."""
        return [x for x in self.order(table) if table.players[x.pid].conn is not None]

    def absent(self, table: Table) -> list[Laptop]:
        """The laptops in order whose seat has no connection now."""
        return [x for x in self.order(table) if table.players[x.pid].conn is None]


def _rank(player: Player) -> tuple[int, int]:
    return player.colour, player.pid
