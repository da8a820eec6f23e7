"""A real client process keeps the game: a host on 127.0.0.1 (in this process, no
advert) plays a game against ``sorry-lan bot --data-dir D``; at game over the bot's
process files the record the host sent under ``D/played``, ``sorry-lan games`` on D
lists it with where it was hosted (and its id with ``--ids``), and the exported record
replays through the rules to the host's result (``records.check``)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from netkit import LOCAL, start_host

from sorry_lan.records import check, load
from sorry_lan.rules import Variant

REPO = Path(__file__).resolve().parents[2]


def _cli(*args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sorry_lan", *args], cwd=REPO, capture_output=True,
        text=True, timeout=timeout, check=False,
    )  # fmt: skip


@pytest.mark.asyncio
@pytest.mark.timeout(120)
async def test_a_bot_process_keeps_the_game_and_games_lists_it(tmp_path: Path) -> None:
    server = await start_host(Variant.STANDARD, seats=2, bots=1, seed=424242, bot_level="random")
    try:
        port = server.address[1]
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "sorry_lan", "bot", "--address", f"{LOCAL}:{port}",
            "--name", "robo", "--strength", "random", "--data-dir", str(tmp_path),
            cwd=REPO, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _out, err = await asyncio.wait_for(bot.communicate(), 90)
        assert bot.returncode == 0, err.decode()
        game = server.table.game
        assert game is not None and game.over
    finally:
        await server.close()
    [kept] = list((tmp_path / "played").glob("played-*.json"))
    record = load(kept.read_bytes())
    assert check(record).game.winner == game.winner and record["seed"] == game.seed
    listed = _cli("games", "--json", "--data-dir", str(tmp_path))
    assert listed.returncode == 0, listed.stderr
    [entry] = json.loads(listed.stdout)
    assert entry["kept"] is True and entry["id"] == kept.stem
    assert entry["games"][0]["winners"] and "robo" in entry["players"]
    text = _cli("games", "--ids", "--data-dir", str(tmp_path))
    header, row, ids = text.stdout.splitlines()
    assert ids == f"    {kept.stem}"  # its id on demand, under its row
    host = record["host"] or record["table"] or "-"  # (this host names no table)
    assert row[header.index("HOST") :].startswith(f"{host}  ")  # where it was hosted
    exported = tmp_path / "game.json"
    done = _cli("games", "--export", kept.stem[:16], "-o", str(exported), "--data-dir",
                str(tmp_path))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert check(load(exported.read_bytes())).game.pawns == game.pawns
    stats = _cli("games", "--stats", "--json", "--data-dir", str(tmp_path))
    names = [p["name"] for p in json.loads(stats.stdout)["people"]]
    assert names == ["robo"]  # a bot process plays as a person's seat (a program)
