"""Who may try to get in, and when: PIN throttling and the bound on idle sockets.

Pure bookkeeping (no sockets, no clock of its own: every call is given ``now``), so
tests drive it with a fake clock.  The host (``net/host.py``) asks it two things:

* :class:`PinThrottle`: may this address try a PIN now, and if not, for how long
  must it wait?  Each address has a few free tries; after that every wrong PIN
  doubles its wait (1 s, 2 s, 4 s, ... up to ``max_wait``), and all addresses
  together draw wrong PINs from one table-wide allowance (``burst`` at once,
  refilled at ``per_minute``), so many addresses on one machine gain little.
  An address's record is forgotten after a right PIN or ``forget_after`` seconds
  without a wrong one.  SPEC.md section 6 states the policy.
* :func:`to_evict`: which not-yet-greeted connection to close when a new one
  arrives, so one address can never hold more than ``per_address`` idle sockets
  and all addresses together never more than ``total``; the oldest go first, from
  the address holding the most.  A newcomer is never refused for it.

It does not decide who is admitted to a seat (the table does), nor time out
connections, nor limit output (``net/outbox.py``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar


@dataclass
class _Record:
    failures: int = 0
    last: float = 0.0


@dataclass
class PinThrottle:
    """Wrong-PIN back-off per source address, under a table-wide allowance."""

    free: int = 3  # wrong PINs an address may make before it waits at all
    first_wait: float = 1.0  # the wait after the first wrong PIN beyond ``free``
    max_wait: float = 600.0  # the longest wait between two tries from one address
    forget_after: float = 3600.0  # an address's record is dropped after this long
    burst: int = 10  # wrong PINs the whole table allows at once ...
    per_minute: float = 3.0  # ... refilled at this many a minute
    max_addresses: int = 4096  # records kept (the oldest is dropped beyond this)
    _records: dict[Hashable, _Record] = field(default_factory=dict)
    _allowance: float = -1.0  # -1: full, not yet used
    _allowance_at: float = 0.0

    def _record(self, address: Hashable, now: float) -> _Record | None:
        rec = self._records.get(address)
        if rec is not None and now - rec.last >= self.forget_after:
            del self._records[address]
            return None
        return rec

    def _address_wait(self, address: Hashable, now: float) -> float:
        rec = self._record(address, now)
        if rec is None or rec.failures < self.free:
            return 0.0
        wait = min(self.max_wait, self.first_wait * 2.0 ** (rec.failures - self.free))
        return max(0.0, rec.last + wait - now)

    def _refill(self, now: float) -> float:
        if self._allowance < 0:
            self._allowance, self._allowance_at = float(self.burst), now
        gained = (now - self._allowance_at) * self.per_minute / 60.0
        self._allowance = min(float(self.burst), self._allowance + gained)
        self._allowance_at = now
        return self._allowance

    def wait(self, address: Hashable, now: float) -> float:
        """Seconds before ``address`` may try a PIN (0: now)."""
        table_wait = 0.0
        allowance = self._refill(now)
        if allowance < 1.0:
            table_wait = (1.0 - allowance) * 60.0 / self.per_minute
        return max(self._address_wait(address, now), table_wait)

    def failed(self, address: Hashable, now: float) -> None:
        """``address`` gave a wrong PIN at ``now``."""
        self._refill(now)
        self._allowance = max(0.0, self._allowance - 1.0)
        rec = self._record(address, now)
        if rec is None:
            if len(self._records) >= self.max_addresses:
                oldest = min(self._records, key=lambda a: self._records[a].last)
                del self._records[oldest]
            rec = self._records[address] = _Record()
        rec.failures += 1
        rec.last = now

    def passed(self, address: Hashable) -> None:
        """``address`` gave the right PIN: its wrong tries are forgotten."""
        self._records.pop(address, None)


C = TypeVar("C")


def to_evict(
    waiting: Sequence[tuple[C, Hashable, float]],
    address: Hashable,
    per_address: int,
    total: int,
) -> list[C]:
    """The not-yet-greeted connections to close so that one more from ``address`` fits.

    ``waiting``: each such connection with its source address and when it opened.
    At most ``per_address`` may come from one address and ``total`` from all, the
    newcomer included; the oldest go first, from the newcomer's address when it is
    over its share, else from the address holding the most.
    """
    by_address: dict[Hashable, list[tuple[float, int]]] = {}
    for i, (_conn, addr, opened) in enumerate(waiting):
        by_address.setdefault(addr, []).append((opened, i))
    for group in by_address.values():
        group.sort()
    out: list[int] = []
    own = by_address.get(address, [])
    while own and len(own) >= per_address:
        out.append(own.pop(0)[1])
    count = len(waiting) - len(out)
    while count >= total and count > 0:
        biggest = max(by_address.values(), key=lambda g: (len(g), -g[0][0] if g else 0))
        if not biggest:
            break
        out.append(biggest.pop(0)[1])
        count -= 1
    return [waiting[i][0] for i in out]
