"""The journal file: append, repair a torn tail, sync, fail, roll back, lock, owner, privacy.

The line format itself (checksums, scan) is tested from bytes alone in
``tests/authority/test_journal_format.py``, and replay in ``tests/authority/test_restore.py``;
here a real file is written, reopened and read back.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from sorry_lan.authority.journal_format import encode, frame, scan
from sorry_lan.authority.restore import BadRecord, replay
from sorry_lan.authority.table import token_hash
from sorry_lan.net.filelock import is_locked
from sorry_lan.net.journal import Journal, JournalDamaged, JournalError, JournalLocked, load
from sorry_lan.rules import Game, Variant


def _play(journal: Journal, game: Game, moves: int) -> None:
    for _ in range(moves):
        sid = game.state_id
        move = game.legal_moves()[0]
        game.play(move)
        journal.move(sid, move.compact())


def _journal_game(path: Path, moves: int, seed: int = 9) -> Game:
    journal = Journal(path)
    game = Game(Variant.STANDARD, (0, 2), seed=seed)
    journal.game(game, {0: "a", 2: "b"}, [], {0: token_hash(b"x" * 16)})
    game.start()
    _play(journal, game, moves)
    journal.close()
    return game


def small_journal(path: Path, moves: int = 6) -> Game:
    """A game with a seat change and a chat line after its second move, and an end mark."""
    journal = Journal(path)
    game = Game(Variant.STANDARD, (0, 2), seed=4)
    journal.game(game, {0: "ann", 2: "bob"}, [], {0: token_hash(b"a" * 16)}, table="t")
    game.start()
    _play(journal, game, 2)
    journal.seat(2, "bob", token_hash(b"b" * 16))
    journal.chat(0, "hi")
    _play(journal, game, moves - 2)
    journal.end()
    journal.close()
    return game


def _state(game: Game) -> tuple[object, ...]:
    """Where a game stands, the cards still to come included."""
    return (game.pawns, game.turn, game.card, game.state_id, game.deck.pile)


def test_what_a_journal_writes_replays_into_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    game = _journal_game(path, 30)
    restored = replay(load(path))
    assert restored is not None
    assert restored.moves == 30
    assert _state(restored.game) == _state(game)
    assert restored.tokens == {0: token_hash(b"x" * 16)}


def test_the_file_holds_exactly_the_framed_lines(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    small_journal(path)
    records = load(path)
    chain: int | None = 0
    expected = b""
    for record in records:
        line, chain = frame(encode(record), chain)
        expected += line
    assert path.read_bytes() == expected
    assert len(records) == 10 and records[-1] == {"k": "end"}
    restored = replay(records)
    assert restored is not None
    assert restored.table == "t" and restored.chat == [(0, "hi")] and restored.ended
    assert restored.started is not None and restored.tokens[2] == token_hash(b"b" * 16)


def test_a_torn_last_line_is_dropped_and_repaired(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    _journal_game(path, 5)
    whole = path.read_bytes()
    with open(path, "ab") as f:
        f.write(b'{"k":"move","sid":')
    assert len(load(path)) == 6
    Journal(path).close()  # opening cuts the half line
    assert path.read_bytes() == whole


def test_a_reopened_journal_carries_the_chain_on(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    _journal_game(path, 3)
    with open(path, "ab") as f:
        f.write(b'{"k":"mo')  # a crash mid-write
    journal = Journal(path)
    journal.chat(0, "back")
    journal.end()
    journal.close()
    found = scan(path.read_bytes())
    assert found.damage is None and not found.torn and found.checksums
    assert found.records[-2:] == [{"k": "chat", "colour": 0, "text": "back"}, {"k": "end"}]


def test_a_journal_that_disagrees_with_the_rules_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    _journal_game(path, 3)
    journal = Journal(path)
    journal.append({"k": "move", "sid": 999, "m": [0, 1, 0, 4]})
    journal.close()
    with pytest.raises(BadRecord, match="state") as caught:
        replay(load(path))
    assert caught.value.index == 4
    path.write_bytes(b"not json\n")
    with pytest.raises(JournalError):
        load(path)


def test_damage_is_named_and_the_intact_records_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    small_journal(path)
    data = bytearray(path.read_bytes())
    third = data.index(b"\n", data.index(b"\n") + 1) + 1
    data[third + 20] ^= 0x04
    path.write_bytes(bytes(data))
    with pytest.raises(JournalDamaged) as caught:
        load(path)
    err = caught.value
    assert err.line == 3 and "checksum" in err.problem
    assert str(err) == f"{path} is damaged at line 3: {err.problem}"
    assert len(err.records) == 2 and err.valid_bytes == third


def test_an_unreadable_journal_is_a_journal_error(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="cannot read journal"):
        load(tmp_path / "missing.journal")


def test_journals_written_before_checksums_still_load(tmp_path: Path) -> None:
    path = tmp_path / "old.journal"
    game = Game(Variant.STANDARD, (0, 1), seed=3)
    head = {
        "k": "game",
        "variant": "standard",
        "seated": [0, 1],
        "seed": 3,
        "first": game.first,
        "first_arg": None,
        "names": {"0": "a", "1": "b"},
        "bots": [],
        "tokens": {},
        "owner": None,
    }
    path.write_bytes(json.dumps(head).encode() + b"\n")
    journal = Journal(path)  # goes on without checksums, so the file stays one kind
    game.start()
    sid = game.state_id
    journal.move(sid, game.legal_moves()[0].compact())
    journal.close()
    assert b"\t" not in path.read_bytes()
    restored = replay(load(path))
    assert restored is not None and restored.moves == 1


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_journal_is_private(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    _journal_game(path, 1)
    assert path.stat().st_mode & 0o077 == 0


# -- durability counters ---------------------------------------------------------------


def test_counters_with_and_without_sync(tmp_path: Path) -> None:
    eager = Journal(tmp_path / "a.journal")
    eager.move(1, (0, 1, 0, 4))
    assert (eager.appended, eager.synced) == (1, 1)
    lazy = Journal(tmp_path / "b.journal", sync=False)
    lazy.move(1, (0, 1, 0, 4))
    lazy.move(2, (0, 2, 0, 6))
    assert (lazy.appended, lazy.synced) == (2, 0)
    assert lazy.flush_to_disk() == 2
    assert len(load(lazy.path)) == 2
    lazy.close()
    eager.close()
    with pytest.raises(OSError, match="closed"):
        lazy.flush_to_disk()


def test_a_move_line_is_the_json_append_would_write(tmp_path: Path) -> None:
    fast = Journal(tmp_path / "fast.journal", sync=False)
    slow = Journal(tmp_path / "slow.journal", sync=False)
    for sid, compact in ((0, (0, 1, 4, 66)), (17, (1, 7, 2, 10, 3, 14)), (2**32 - 1, (4, 11))):
        fast.move(sid, compact)
        slow.append({"k": "move", "sid": sid, "m": list(compact)})
    fast.close()
    slow.close()
    assert (tmp_path / "fast.journal").read_bytes() == (tmp_path / "slow.journal").read_bytes()
    assert fast.appended == 3
    assert load(tmp_path / "fast.journal")[1] == {"k": "move", "sid": 17, "m": [1, 7, 2, 10, 3, 14]}


# -- failed writes ------------------------------------------------------------------


class FullDisk:
    """A journal's file that takes ``room`` more bytes (a short write at the edge),
    then refuses every write with ENOSPC, as a full disk does."""

    def __init__(self, real: Any, room: int) -> None:
        self.real = real
        self.room = room

    def write(self, data: bytes) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        n = self.real.write(bytes(data[: self.room]))
        self.room -= n
        return int(n)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_a_full_disk_is_never_counted_as_written(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    journal = Journal(path, sync=False)
    game = Game(Variant.STANDARD, (0, 2), seed=4)
    journal.game(game, {0: "a", 2: "b"}, [], {})
    game.start()
    journal.synced = journal.flush_to_disk()
    durable = journal.durable_size
    journal._file = FullDisk(journal._file, room=70)  # one move and a bit
    _play(journal, game, 3)
    assert journal.appended == 4 and journal.failure is not None
    assert journal.failure.errno == errno.ENOSPC
    with pytest.raises(OSError, match="No space"):
        journal.flush_to_disk()
    assert journal.synced == 1
    assert journal.rollback()
    assert path.stat().st_size == durable
    assert len(load(path)) == 1  # exactly what was durable: nothing a player was not shown
    journal.close()


def test_a_syncing_journal_raises_a_failed_write(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "g.journal")
    journal._file = FullDisk(journal._file, room=10)
    with pytest.raises(OSError, match="No space"):
        journal.append({"k": "x", "pad": "y" * 20})
    with pytest.raises(OSError, match="No space"):
        journal.append({"k": "x"})  # nothing more is written once a write failed
    journal.close()


# -- locks, owners, directories ----------------------------------------------------------


def test_a_journal_in_use_is_locked(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    first = Journal(path)
    assert is_locked(path)
    with pytest.raises(JournalLocked, match="another sorry-lan host is running the game"):
        Journal(path)
    load(path)  # reading it elsewhere in this process keeps the lock
    assert is_locked(path)
    first.close()
    assert not is_locked(path)
    Journal(path).close()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX owners")
def test_a_journal_someone_else_owns_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.journal"
    Journal(path).close()
    mine = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: mine + 1)
    with pytest.raises(JournalError, match="belongs to another user"):
        Journal(path)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_data_dirs_are_private_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        Journal(tmp_path / "data" / "journals" / "g.journal").close()
    finally:
        os.umask(old)
    assert (tmp_path / "data").stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "data" / "journals").stat().st_mode & 0o777 == 0o700


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX symbolic links")
def test_a_journal_reached_through_a_link_is_refused(tmp_path: Path) -> None:
    real = tmp_path / "elsewhere.journal"
    real.write_bytes(b"")
    (tmp_path / "j").mkdir()
    (tmp_path / "j" / "g.journal").symlink_to(real)
    with pytest.raises(JournalError, match="cannot write the journal"):
        Journal(tmp_path / "j" / "g.journal")
