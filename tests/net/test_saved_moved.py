"""Saved games whose table moved to another laptop (issue 19): listed as moved, with the
laptop that hosts it now, and never resumed; a successor's own journal (its takeover
record first) is an unfinished game like any other."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_saved import save_game

from sorry_lan.authority.journal_records import moved_record, takeover_record
from sorry_lan.authority.table import token_hash
from sorry_lan.cli import main
from sorry_lan.net.journal import Journal, load
from sorry_lan.net.saved import (
    MOVED,
    UNFINISHED,
    NotChosen,
    Resumable,
    SavedGame,
    pick,
    resumable,
    saved_games,
)
from sorry_lan.rules import Game, Variant
from sorry_lan.rules.cards import card_counts
from sorry_lan.rules.midgame import Midgame, rebuild


def games_dir(tmp_path: Path) -> Path:
    d = tmp_path / "journals"
    d.mkdir(mode=0o700, exist_ok=True)
    return d


def moved_away(directory: Path, gid: str, name: str | None = "cy") -> Path:
    path = save_game(directory, gid, moves=6)
    journal = Journal(path)
    journal.moved(2, 5, name)
    journal.close()
    return path


def test_a_journal_that_moved_is_listed_as_moved_to_its_new_host(tmp_path: Path) -> None:
    moved_away(tmp_path, "n000001-a")
    moved_away(tmp_path, "n000002-b", name=None)
    (b, a), _notes = saved_games(tmp_path)
    assert (a.state, a.moved_to, a.moves, a.players) == (MOVED, "cy", 6, ["ann", "bob"])
    assert b.moved_to == "seat 5"
    assert a.as_json()["moved_to"] == "cy" and a.as_json()["state"] == "moved"
    assert resumable(a) is Resumable.MOVED


def test_resume_says_where_the_table_went(tmp_path: Path) -> None:
    moved_away(tmp_path, "n000001-a")
    games, _ = saved_games(tmp_path)
    with pytest.raises(NotChosen, match="game n000001-a moved to cy's laptop, which hosts"):
        pick(games, "ann")
    save_game(tmp_path, "n000000-old", moves=3)  # an older game of one's own: that one
    games, _ = saved_games(tmp_path)
    chosen = pick(games, "ann")
    assert isinstance(chosen, SavedGame) and chosen.id == "n000000-old"


def test_host_resume_of_a_moved_game_refuses_and_names_the_laptop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moved_away(games_dir(tmp_path), "n000001-a")
    base = ["host", "--headless", "--no-mdns", "--data-dir", str(tmp_path), "--resume"]
    assert main([*base, "n000001-a"]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "game n000001-a moved to cy's laptop" in err and "`sorry-lan join`" in err
    assert main(["games", "--json", "--data-dir", str(tmp_path)]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(g["id"], g["state"]) for g in listed] == [("n000001-a", "moved")]
    assert main(["games", "--data-dir", str(tmp_path)]) == 0
    assert "moved" in capsys.readouterr().out


def test_a_successor_s_journal_is_an_unfinished_game_to_resume(tmp_path: Path) -> None:
    old = Game(Variant.STANDARD, (0, 2), seed=8)
    old.start()
    for _ in range(9):
        old.play(old.legal_moves()[0])
    position = Midgame(
        old.variant, old.seated, old.pawns, old.turn, old.state_id, card=old.card,
        after_two=old.after_two, discarded=card_counts(old.deck.discards),
    )  # fmt: skip
    path = tmp_path / "n000003-heir.journal"
    journal = Journal(path)
    journal.append(takeover_record(
        position, 5, tid="kitchen7", from_epoch=1, epoch=2, names={0: "ann", 2: "bob"},
        bots=[], tokens={0: token_hash(b"a" * 16), 2: token_hash(b"b" * 16)},
        pids={0: 0, 2: 1}, t=1_790_000_000, owner=2, games=1, table="kitchen", host="bob",
    ))  # fmt: skip
    game = rebuild(position, 5)
    for _ in range(3):
        sid = game.state_id
        move = game.legal_moves()[0]
        game.play(move)
        journal.move(sid, move.compact())
    journal.close()
    (saved,), _ = saved_games(tmp_path)
    assert (saved.state, saved.moves, saved.host, saved.table) == (UNFINISHED, 3, "bob", "kitchen")
    assert resumable(saved) is Resumable.YES
    journal = Journal(path)
    journal.append(moved_record(3, 0, "ann"))  # and handed on again
    journal.close()
    assert load(path)[-1]["k"] == "moved"
    (saved,), _ = saved_games(tmp_path)
    assert (saved.state, saved.moved_to) == (MOVED, "ann")
