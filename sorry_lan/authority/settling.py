"""Which states of the game enough of the table's laptops hold (protocol version 5).

A state a client shows must be in the game's final record, whoever hosts it in the
end (protocol/SPEC.md section 13; Raft's commit rule, Ongaro and Ousterhout 2014,
sections 5.3 and 5.4).  After a round that changed the game, the host pings each
laptop of the order that has a connection; its ``pong`` (TCP keeps the order) proves
it holds every state sent before that ping.  A state is **settled** once it is held
by so many laptops of the order that every quorum an election can gather among them
holds it too: ``len(order) - quorum(len(order)) + 1`` of them (a state held by that
many is never missing from a successor's board, since the successor is the newest of
its voters).  An empty order settles every state at once.

:class:`Settling` is the bookkeeping of one host: the pings asked, the newest state
each laptop is known to hold here (at this host: what a laptop held of the host
before counts once it answers this one) and the settled state of the game now on the
table.  It sends nothing and never holds the game back: the core pings, tells
``settled`` and plays on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sorry_lan.authority.fencing import quorum

ASKED_KEPT = 64  # pings per connection remembered for settling (a later pong covers more)


def holders_needed(laptops: int) -> int:
    """How many of ``laptops`` (the order) must hold a state for it to be settled:
    enough that any majority of them includes one (none of none)."""
    return laptops - quorum(laptops) + 1 if laptops else 0


@dataclass
class Settling:
    """The settled state of one host's game; see the module docstring."""

    game: int = -1  # the game (the table's ``games_played``) the rest is about
    settled: int = -1  # the newest settled sid of that game (-1: none yet)
    # The newest sid of that game each laptop (by pid) answered a ping for, here.
    held: dict[int, int] = field(default_factory=dict)
    # The pings asked of each connection (by cid), oldest first: (n, game, sid, pid).
    asked: dict[int, list[tuple[int, int, int, int]]] = field(default_factory=dict)
    # The (game, sid) each connection was last pinged for.
    pinged: dict[int, tuple[int, int]] = field(default_factory=dict)

    def due(self, cid: int, game: int, sid: int) -> bool:
        """Whether connection ``cid`` is yet to be pinged for state ``sid`` of ``game``."""
        return self.pinged.get(cid) != (game, sid)

    def ping(self, cid: int, pid: int, n: int, game: int, sid: int) -> None:
        """Ping ``n`` was sent to seat ``pid``'s laptop on ``cid`` after state ``sid``."""
        self.pinged[cid] = (game, sid)
        asked = self.asked.setdefault(cid, [])
        asked.append((n, game, sid, pid))
        del asked[:-ASKED_KEPT]

    def ponged(self, cid: int, n: int) -> None:
        """Connection ``cid`` answered ping ``n``: its laptop holds what was sent before."""
        asked = self.asked.get(cid)
        if not asked:
            return
        for i, (k, game, sid, pid) in enumerate(asked):
            if k == n:
                del asked[: i + 1]
                if game == self.game:
                    self.held[pid] = max(self.held.get(pid, -1), sid)
                return

    def gone(self, cid: int) -> None:
        """Connection ``cid`` closed: its pings will never be answered."""
        self.asked.pop(cid, None)
        self.pinged.pop(cid, None)

    def settle(self, game: int, sid: int, order: Iterable[int]) -> bool:
        """State ``sid`` of ``game`` is the newest; ``order`` the laptops (pids) that
        count.  Returns whether the settled state advanced (a new game starts at none)."""
        if game != self.game:
            self.game, self.settled, self.held = game, -1, {}
        pids = list(order)
        need = holders_needed(len(pids))
        if need == 0:
            newest = sid
        else:
            newest = sorted((self.held.get(pid, -1) for pid in pids), reverse=True)[need - 1]
        newest = min(newest, sid)
        if newest <= self.settled:
            return False
        self.settled = newest
        return True
