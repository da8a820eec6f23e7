"""The journal: append, torn last line, replay with checks, the sync worker."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sorry_lan.authority.table import token_hash
from sorry_lan.net.journal import (
    BadRecord,
    Journal,
    JournalError,
    load,
    replay,
)
from sorry_lan.rules import Game, Variant


def _journal_game(path: Path, moves: int, seed: int = 9) -> Game:
    journal = Journal(path)
    game = Game(Variant.STANDARD, (0, 2), seed=seed)
    journal.game(game, {0: "a", 2: "b"}, [], {0: token_hash(b"x" * 16)})
    game.start()
    for _ in range(moves):
        sid = game.state_id
        move = game.legal_moves()[0]
        game.play(move)
        journal.move(sid, move.compact())
    journal.close()
    return game


def test_replay_restores_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    game = _journal_game(path, 30)
    restored = replay(load(path))
    assert restored is not None
    assert restored.moves == 30
    again = restored.game
    assert (again.pawns, again.turn, again.card, again.state_id) == (
        game.pawns,
        game.turn,
        game.card,
        game.state_id,
    )
    assert again.deck.pile == game.deck.pile  # the same cards still to come
    assert restored.tokens == {0: token_hash(b"x" * 16)}


def test_a_torn_last_line_is_dropped_and_repaired(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    _journal_game(path, 5)
    with open(path, "ab") as f:
        f.write(b'{"k":"move","sid":')
    assert len(load(path)) == 6
    Journal(path).close()  # opening cuts the half line
    assert path.read_bytes().endswith(b"\n")


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
