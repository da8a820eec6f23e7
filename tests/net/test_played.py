"""The games a client keeps (``net/played``): one file a game, named from the game (the
same game told twice is one file), private, written whole, the last ``keep`` kept, and
a store that cannot be written loses only that copy."""

from __future__ import annotations

import json
import logging
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from sorry_lan.net.played import PlayedStore, file_name, kept_paths
from sorry_lan.records import load


def _record(n: int, seed: int = 7) -> dict[str, Any]:
    return {
        "format": "sorry-lan game record", "version": 1, "table": "Ann's table",
        "host": "Ann", "started": f"2026-12-01T12:{n:02d}:00Z", "seed": seed,
        "first": "red", "variant": "standard", "result": {"winner": "red"}, "turns": [],
    }  # fmt: skip


def test_a_game_is_one_private_file_named_from_the_game(tmp_path: Path) -> None:
    store = PlayedStore(tmp_path / "played")
    path = store.save(_record(1))
    assert path is not None and path.name == file_name(_record(1))
    assert path.name.startswith("played-20261201-120100-") and path.suffix == ".json"
    assert load(path.read_bytes()) == _record(1)
    assert store.save(_record(1)) == path  # told again: the same file, not a second
    assert store.save(_record(1, seed=8)) != path  # another game at the same minute
    assert len(kept_paths(store.directory)) == 2
    if sys.platform != "win32":
        assert stat.S_IMODE(store.directory.stat().st_mode) == 0o700
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not [p for p in store.directory.iterdir() if p.name.startswith(".")]  # no temp


def test_only_the_last_games_are_kept(tmp_path: Path) -> None:
    store = PlayedStore(tmp_path, keep=3)
    for n in range(5):
        store.save(_record(n))
    kept = kept_paths(tmp_path)
    assert [json.loads(p.read_text())["started"] for p in kept] == [
        _record(n)["started"] for n in (2, 3, 4)
    ]
    (tmp_path / "notes.txt").write_text("mine")  # not a kept game: left alone
    store.save(_record(9))
    assert (tmp_path / "notes.txt").exists() and len(kept_paths(tmp_path)) == 3


def test_a_store_that_cannot_be_written_loses_only_that_copy(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "played").write_text("a file where the folder should be")
    with caplog.at_level(logging.WARNING):
        assert PlayedStore(tmp_path / "played").save(_record(1)) is None
    assert any("could not be kept" in r.getMessage() for r in caplog.records)
    caplog.clear()
