"""Output written only once the journal records it depends on are durable.

The host writes its journal records to the operating system at once and syncs them
once per round of input.  :class:`DurableOutbox` takes each round's output (a
:data:`Batch`: for each connection its bytes and whether to close after them), syncs
the journal on the event loop if records were appended since the last sync (every
record of the round shares that one sync), and only then writes the output.

If a record could not be written or a sync fails, the held output is dropped (it
may depend on records that were lost), :attr:`DurableOutbox.failure` says why,
nothing more is ever written, and ``on_failure`` is called once.

It does not encode or build messages, does not know about sessions, and does not say
``bye`` to anyone when the journal fails: the caller's ``on_failure`` does that (and
writes those last words with :func:`write_now`, which waits for nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from .journal import Journal


class Sink(Protocol):
    """Where a connection's output goes."""

    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...


Batch = Sequence[tuple[Sink, bytes, bool]]  # a connection, its output, close after it


def write_now(batch: Batch) -> None:
    """Write ``batch`` in order, each connection closed after its output when asked."""
    for sink, data, last in batch:
        if data:
            sink.write(data)
        if last:
            sink.close()


class DurableOutbox:
    """Writes output for ``journal`` once it is durable (``None``: at once).

    Setting up takes the journal's own syncing away (``journal.sync = False``): from
    then on the records of a round are made durable together, here.
    """

    def __init__(self, journal: Journal | None, on_failure: Callable[[OSError], None]) -> None:
        self.journal = journal
        if journal is not None:
            journal.sync = False  # one sync per round, not per record
        self.on_failure = on_failure
        self.failure: OSError | None = None

    def put(self, batch: Batch) -> None:
        """Make every journal record appended so far durable, then write ``batch``
        (an entry with no bytes only closes, when asked to: a ``bye`` came in); after a
        failed sync, write nothing."""
        if self.failure is not None:
            return
        journal = self.journal
        if journal is not None and journal.synced < journal.appended:
            try:
                journal.synced = max(journal.synced, journal.flush_to_disk())
            except OSError as exc:
                self._failed(exc)
                return
        write_now(batch)

    def _failed(self, exc: OSError) -> None:
        """The journal cannot be made durable: write nothing more, say so once."""
        self.failure = exc
        self.on_failure(exc)
