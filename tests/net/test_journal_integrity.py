"""A journal that cannot lie: checksums, failed writes, locks, owners, private dirs."""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from sorry_lan.authority.table import token_hash
from sorry_lan.net.filelock import is_locked
from sorry_lan.net.journal import (
    BadRecord,
    Journal,
    JournalDamaged,
    JournalError,
    JournalLocked,
    load,
    replay,
    scan,
)
from sorry_lan.rules import Game, Variant


def small_journal(path: Path, moves: int = 6) -> Game:
    """A game with a seat change, a chat line and an end mark."""
    journal = Journal(path)
    game = Game(Variant.STANDARD, (0, 2), seed=4)
    journal.game(game, {0: "ann", 2: "bob"}, [], {0: token_hash(b"a" * 16)}, table="t")
    game.start()
    for i in range(moves):
        sid = game.state_id
        move = game.legal_moves()[0]
        game.play(move)
        journal.move(sid, move.compact())
        if i == 1:
            journal.seat(2, "bob", token_hash(b"b" * 16))
            journal.chat(0, "hi")
    journal.end()
    journal.close()
    return game


def line_of(data: bytes, index: int) -> int:
    """The 1-based line a byte belongs to (a line's newline is part of it)."""
    return data.count(b"\n", 0, index) + 1


def test_every_single_bit_flip_is_detected_and_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    small_journal(path)
    data = path.read_bytes()
    whole = scan(data)
    assert whole.damage is None and not whole.torn and len(whole.records) == 10
    missed = []
    for i in range(len(data)):
        for bit in range(8):
            flipped = bytearray(data)
            flipped[i] ^= 1 << bit
            found = scan(bytes(flipped))
            if found.damage is None:
                missed.append((i, bit))
                continue
            assert found.damage[0] == line_of(data, i), (i, bit, found.damage)
            assert found.records == whole.records[: found.damage[0] - 1]
    assert missed == [], f"{len(missed)} of {8 * len(data)} flips went unnoticed"


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


def test_a_lost_or_swapped_line_breaks_the_chain(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    small_journal(path)
    lines = path.read_bytes().splitlines(keepends=True)
    lost = scan(b"".join(lines[:2] + lines[3:])).damage
    assert lost is not None and lost[0] == 3 and "checksum" in lost[1]
    swapped = scan(b"".join([*lines[:2], lines[3], lines[2], *lines[4:]])).damage
    assert swapped is not None and swapped[0] == 3


def test_a_torn_last_line_is_not_damage_but_a_lost_line_end_is(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    small_journal(path)
    data = path.read_bytes()
    for cut in range(1, 12):
        torn = scan(data[:-cut])
        assert torn.damage is None and torn.torn and len(torn.records) == 9
    assert scan(data[:-1] + b"\x0b").damage == (10, "its line end is damaged")


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


def test_malformed_records_are_one_sentence_errors(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    small_journal(path, moves=2)
    records = load(path)
    bad_records: list[dict[str, Any]] = [
        {"k": "seat", "name": "x"},
        {"k": "seat", "colour": "red", "name": "x"},
        {"k": "seat", "colour": 2, "name": 5, "token": None},
        {"k": "seat", "colour": 3, "name": "x", "token": None},
        {"k": "chat", "colour": 0},
        {"k": "move", "sid": 1},
        {"k": "what"},
    ]
    for bad in bad_records:
        with pytest.raises(BadRecord) as caught:
            replay([*records[:-1], bad])
        assert caught.value.index == len(records) - 1
        assert "\n" not in str(caught.value)
    head = dict(records[0])
    del head["seed"]
    with pytest.raises(BadRecord, match="malformed game record: no 'seed' field"):
        replay([head])


def test_restored_table_details_come_back(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    small_journal(path)
    restored = replay(load(path))
    assert restored is not None
    assert restored.table == "t" and restored.chat == [(0, "hi")] and restored.ended
    assert restored.started is not None and restored.tokens[2] == token_hash(b"b" * 16)


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
    for _ in range(3):
        sid = game.state_id
        move = game.legal_moves()[0]
        game.play(move)
        journal.move(sid, move.compact())
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
