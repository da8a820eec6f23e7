"""Output held back until the journal is durable.

The host writes its journal records to the operating system at once and syncs them
once per round of input.  :class:`DurableOutbox` takes each round's output (a
:data:`Batch`: for each connection its bytes and whether to close after them) and
writes it only once every journal record appended before it is on stable storage.
The sync runs on the event loop, or, when :attr:`DurableOutbox.worker` is set, in a
:class:`~sorry_lan.net.journal.SyncWorker` thread while the loop goes on; records
appended meanwhile share the next sync.  Held output is released in order, and output
that depends on no record never overtakes output held before it.

If a sync fails, the held output is dropped (it may depend on records that were
lost), :attr:`DurableOutbox.failure` says why, nothing more is ever written, and
``on_failure`` is called once.

It does not encode or build messages, does not know about sessions, and does not say
``bye`` to anyone when the journal fails: the caller's ``on_failure`` does that.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from typing import Protocol

from .journal import Journal, SyncWorker


class Sink(Protocol):
    """Where a connection's output goes."""

    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...


Batch = Sequence[tuple[Sink, bytes, bool]]  # a connection, its output, close after it


class DurableOutbox:
    """Holds output for ``journal`` (``None``: nothing is held, output goes at once).

    Setting up takes the journal's own syncing away (``journal.sync = False``): from
    then on records are made durable in groups, here.
    """

    def __init__(self, journal: Journal | None, on_failure: Callable[[OSError], None]) -> None:
        self.journal = journal
        if journal is not None:
            journal.sync = False  # we commit in groups, off the event loop
        self.on_failure = on_failure
        self.worker: SyncWorker | None = None  # None: sync on the event loop
        self.failure: OSError | None = None
        self._held: deque[tuple[int, Batch]] = deque()  # (records needed, output)
        self._syncing = False  # a request to the worker is in flight
        self._drained: asyncio.Event | None = None

    @property
    def holding(self) -> int:
        """How many rounds of output are waiting for the journal."""
        return len(self._held)

    def put(self, batch: Batch, commit: bool = False) -> None:
        """Write ``batch`` (entries with no bytes are skipped), or hold it until every
        journal record appended so far is durable (and ask for that).  ``commit``:
        make the journal durable even if nothing is held (closing)."""
        batch = [b for b in batch if b[1]]
        journal = self.journal
        if journal is None or self.failure is not None:
            if self.failure is None:
                _write(batch)
            return
        need = journal.appended
        if not self._held and need <= journal.synced:
            _write(batch)
            return
        if batch or (commit and need > journal.synced):
            self._held.append((need, batch))
        self._ask_sync()

    async def settled(self) -> None:
        """Wait until nothing is held for the journal (or a sync failed)."""
        while self._held and self.failure is None:
            self._drained = asyncio.Event()
            await self._drained.wait()
        self._drained = None

    def _ask_sync(self) -> None:
        journal, worker = self.journal, self.worker
        if journal is None or self._syncing or journal.synced >= journal.appended:
            return
        if worker is None:  # sync here, on the event loop
            try:
                journal.synced = max(journal.synced, journal.flush_to_disk())
            except OSError as exc:
                self._failed(exc)
                return
            self._release()
            return
        self._syncing = True
        worker.request(journal).add_done_callback(self._synced)

    def _synced(self, fut: asyncio.Future[int]) -> None:
        self._syncing = False
        if fut.cancelled():
            return
        exc = fut.exception()
        if exc is not None:
            assert isinstance(exc, OSError)
            self._failed(exc)
            return
        journal = self.journal
        assert journal is not None
        journal.synced = max(journal.synced, fut.result())
        self._release()
        self._ask_sync()  # records appended while that sync ran

    def _release(self) -> None:
        journal = self.journal
        assert journal is not None
        while self._held and self._held[0][0] <= journal.synced:
            _write(self._held.popleft()[1])
        if not self._held and self._drained is not None:
            self._drained.set()

    def _failed(self, exc: OSError) -> None:
        """The journal cannot be made durable: drop what is held, write nothing more."""
        if self.failure is not None:
            return
        self.failure = exc
        self._held.clear()
        try:
            self.on_failure(exc)
        finally:
            if self._drained is not None:
                self._drained.set()


def _write(batch: Batch) -> None:
    for sink, data, last in batch:
        sink.write(data)
        if last:
            sink.close()
