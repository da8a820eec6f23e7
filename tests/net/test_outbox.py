"""DurableOutbox: each round is synced before it is written; a failed sync stops all output."""

from __future__ import annotations

import errno
from pathlib import Path

from sorry_lan.net.journal import Journal, load
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
    box.put([(a, b"one", False), (b, b"", False), (b, b"two", True)])
    assert log == [("a", b"one"), ("b", b"two")]
    assert b.closed and not a.closed
    c = Sink(log, "c")
    box.put([(c, b"", True)])  # nothing to write but a close (a bye came in): close now
    assert c.closed and log == [("a", b"one"), ("b", b"two")]


class LoggedJournal(Journal):
    """A real journal that notes each sync in the same log as the writes."""

    def __init__(self, path: Path, log: list[tuple[str, bytes]], fail: bool = False) -> None:
        super().__init__(path)
        self.log = log
        self.fail = fail

    def flush_to_disk(self) -> int:
        self.log.append(("sync", str(self.appended).encode()))
        if self.fail:
            raise OSError(errno.EIO, "simulated disk failure")
        return super().flush_to_disk()


def test_each_round_is_synced_once_before_it_is_written(tmp_path: Path) -> None:
    log: list[tuple[str, bytes]] = []
    journal = LoggedJournal(tmp_path / "j.journal", log)
    box = DurableOutbox(journal, Failures())
    assert journal.sync is False  # the outbox syncs once per round now
    a, b = Sink(log, "a"), Sink(log, "b")
    journal.append({"k": "x"})
    journal.append({"k": "y"})
    assert journal.synced == 0 and log == []
    box.put([(a, b"after two records", False), (b, b"bye", True)])
    assert log == [("sync", b"2"), ("a", b"after two records"), ("b", b"bye")]
    assert journal.synced == journal.appended == 2 and b.closed
    box.put([(a, b"no new record", False)])  # nothing to sync: written at once
    assert log[-1] == ("a", b"no new record") and log.count(("sync", b"2")) == 1
    journal.append({"k": "end"})
    box.put([])  # nothing to send, still made durable (closing)
    assert log[-1] == ("sync", b"3") and journal.synced == 3
    assert [r["k"] for r in load(journal.path)] == ["x", "y", "end"]
    journal.close()


def test_a_failed_sync_drops_what_it_guarded_and_stops_all_output(tmp_path: Path) -> None:
    log: list[tuple[str, bytes]] = []
    journal = LoggedJournal(tmp_path / "f.journal", log, fail=True)
    failures = Failures()
    box = DurableOutbox(journal, failures)
    a = Sink(log, "a")
    journal.append({"k": "x"})
    box.put([(a, b"guarded", False)])
    assert log == [("sync", b"1")]
    assert len(failures.seen) == 1 and failures.seen[0].errno == errno.EIO
    assert box.failure is failures.seen[0]
    box.put([(a, b"later", True)])  # nothing is written after a failure
    journal.append({"k": "y"})
    box.put([(a, b"later still", False)])
    assert log == [("sync", b"1")] and not a.closed and len(failures.seen) == 1
    journal.close()
