"""DurableOutbox: output waits for the journal, in order, on the loop or in a thread."""

from __future__ import annotations

import asyncio
import errno
from pathlib import Path

import pytest
from netkit import GatedJournal

from sorry_lan.net.journal import Journal, SyncWorker, load
from sorry_lan.net.outbox import DurableOutbox


class Sink:
    """A connection's far end: what was written, and whether it was closed."""

    def __init__(self, log: list[tuple[str, bytes]], name: str) -> None:
        self.log = log
        self.name = name
        self.closed = False

    def write(self, data: bytes) -> None:
        assert not self.closed, "written after close"
        self.log.append((self.name, data))

    def close(self) -> None:
        self.closed = True


class Failures:
    def __init__(self) -> None:
        self.seen: list[OSError] = []

    def __call__(self, exc: OSError) -> None:
        self.seen.append(exc)


def test_without_a_journal_output_goes_at_once() -> None:
    log: list[tuple[str, bytes]] = []
    a, b = Sink(log, "a"), Sink(log, "b")
    box = DurableOutbox(None, Failures())
    box.put([(a, b"one", False), (b, b"", True), (b, b"two", True)])
    assert log == [("a", b"one"), ("b", b"two")]
    assert b.closed and not a.closed
    assert box.holding == 0


def test_on_the_loop_each_round_is_synced_before_it_is_written(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.journal")
    box = DurableOutbox(journal, Failures())
    assert journal.sync is False  # the outbox syncs in groups now
    log: list[tuple[str, bytes]] = []
    a = Sink(log, "a")
    journal.append({"k": "x"})
    journal.append({"k": "y"})
    assert journal.synced == 0
    box.put([(a, b"after two records", False)])
    assert journal.synced == journal.appended == 2  # one sync for both
    assert log == [("a", b"after two records")]
    box.put([(a, b"no new record", False)])
    assert log[-1] == ("a", b"no new record")
    assert [r["k"] for r in load(journal.path)] == ["x", "y"]
    journal.close()


@pytest.mark.asyncio
async def test_held_output_waits_for_the_thread_and_nothing_overtakes_it(
    tmp_path: Path,
) -> None:
    journal = GatedJournal(tmp_path / "g.journal")
    worker = SyncWorker()
    worker.start()
    box = DurableOutbox(journal, Failures())
    box.worker = worker
    log: list[tuple[str, bytes]] = []
    a, b = Sink(log, "a"), Sink(log, "b")
    try:
        journal.append({"k": "x"})
        box.put([(a, b"1", False)])
        box.put([(b, b"2", False)])  # depends on no new record, still waits its turn
        journal.append({"k": "y"})
        box.put([(a, b"3", True)])
        await asyncio.sleep(0.1)
        assert log == [] and box.holding == 3
        journal.gate.set()
        await asyncio.wait_for(box.settled(), 5)
        assert log == [("a", b"1"), ("b", b"2"), ("a", b"3")]
        assert a.closed and journal.synced == journal.appended == 2
        box.put([(b, b"4", False)])  # nothing held, nothing new: at once
        assert log[-1] == ("b", b"4")
    finally:
        journal.gate.set()
        assert worker.stop()
        journal.close()


@pytest.mark.asyncio
async def test_commit_makes_the_journal_durable_with_nothing_to_send(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "c.journal")
    worker = SyncWorker()
    worker.start()
    box = DurableOutbox(journal, Failures())
    box.worker = worker
    try:
        journal.append({"k": "end"})
        box.put([])
        assert box.holding == 0  # nothing to send, nothing asked to commit: not held
        box.put([], commit=True)
        await asyncio.wait_for(box.settled(), 5)
        assert journal.synced == journal.appended == 1
    finally:
        assert worker.stop()
        journal.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("threaded", [False, True])
async def test_a_failed_sync_drops_what_it_guarded_and_stops_all_output(
    tmp_path: Path, threaded: bool
) -> None:
    journal = GatedJournal(tmp_path / "f.journal")
    journal.fail = True
    failures = Failures()
    box = DurableOutbox(journal, failures)
    worker = SyncWorker()
    if threaded:
        worker.start()
        box.worker = worker
    else:
        journal.gate.set()
    log: list[tuple[str, bytes]] = []
    a = Sink(log, "a")
    try:
        journal.append({"k": "x"})
        box.put([(a, b"guarded", False)])
        journal.gate.set()
        await asyncio.wait_for(box.settled(), 5)
        assert log == [] and box.holding == 0
        assert len(failures.seen) == 1 and failures.seen[0].errno == errno.EIO
        assert box.failure is failures.seen[0]
        box.put([(a, b"later", True)])  # nothing is written after a failure
        journal.append({"k": "y"})
        box.put([(a, b"later still", False)], commit=True)
        await asyncio.sleep(0.05)
        assert log == [] and not a.closed and len(failures.seen) == 1
    finally:
        journal.gate.set()
        if threaded:
            assert worker.stop()
        journal.close()
