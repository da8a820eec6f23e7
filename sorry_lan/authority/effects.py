"""What the host core asks its shell to do: one frozen dataclass per kind of effect.

Every input of :class:`~sorry_lan.authority.core.HostCore` returns a list of these, in
the order they are to happen.  The shell (``net/host.py``) runs them in that order,
with one rule: every :class:`Append` must be on stable storage before any
:class:`Send` that follows it in the list is written (the shell writes the records
to the file at once, syncs once, then writes the round's output: one sync per round).
The effects of :meth:`~sorry_lan.authority.core.HostCore.journal_failed` contain no
:class:`Append` and depend on none: they are written at once.

This module is only the vocabulary: nothing here runs anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sorry_lan.authority.table import BotTurn
from sorry_lan.rules import Phase, Variant
from sorry_lan.wire import messages as m


@dataclass(frozen=True, slots=True)
class Send:
    """Write ``data`` to connection ``cid`` (nothing, if it is closed by then)."""

    cid: int
    data: bytes


@dataclass(frozen=True, slots=True)
class Close:
    """End connection ``cid`` after what was written to it.  ``linger`` None: close
    now; a number: a dropped peer, whose input is no longer read and whose last words
    may take that many seconds to be read before the connection is cut."""

    cid: int
    linger: float | None = None


@dataclass(frozen=True, slots=True)
class PauseInput:
    """Read nothing from connection ``cid`` for ``seconds`` (it floods us)."""

    cid: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Think:
    """Run ``turn.decide()`` off the event loop (it blocks: a search), then report
    :meth:`~sorry_lan.authority.core.HostCore.bot_decided` or
    :meth:`~sorry_lan.authority.core.HostCore.bot_failed` with ``ticket``."""

    ticket: int
    turn: BotTurn


@dataclass(frozen=True, slots=True)
class Append:
    """Append ``record`` to the journal (durable before any later :class:`Send`)."""

    record: dict[str, Any]


@dataclass(frozen=True)
class TableSummary:
    """What a discovery advertiser publishes about the table."""

    name: str
    variant: Variant
    phase: Phase
    seats_taken: int
    seats: int
    pin: bool
    port: int


@dataclass(frozen=True, slots=True)
class SummaryChanged:
    """What a discovery advertiser publishes changed (seats, phase)."""

    summary: TableSummary


@dataclass(frozen=True, slots=True)
class RosterChanged:
    """Something changed about the roster or the phase (a headless table's report
    reads the table again); said after every change."""


@dataclass(frozen=True, slots=True)
class StopListening:
    """Accept no more connections (the table is closing)."""


@dataclass(frozen=True, slots=True)
class Stop:
    """The table is done (a headless game over and told, or the journal failed): the
    host's ``wait_done`` returns.  Said once."""


@dataclass(frozen=True, slots=True)
class Probe:
    """Ask seat ``pid``'s laptop (its standby ``port`` on each of ``addrs``) whether it
    hosts this table at a newer epoch (say ``spectate`` there); a newer epoch found is
    told with :meth:`~sorry_lan.authority.core.HostCore.newer_epoch`.  Asked every 2 s
    for each absent laptop while the host is cut off."""

    addrs: tuple[str, ...]
    port: int
    pid: int


@dataclass(frozen=True, slots=True)
class Refute:
    """Tell the laptop found hosting this table at ``epoch`` as seat ``pid`` (on the
    connection that found it) ``error``, then close that connection: this host is
    alive, with a quorum of the table's laptops."""

    epoch: int
    pid: int
    error: m.Error


Effect = Send | Close | PauseInput | Think | Append | SummaryChanged | RosterChanged | (
    StopListening | Stop | Probe | Refute
)
