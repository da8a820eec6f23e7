"""A resumed table keeps its name, its seats' names and its chat; quitting on purpose
marks its journal finished."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from netkit import LOCAL, start_host
from test_saved import save_game

from sorry_lan.authority.restore import replay
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.client import GameClient
from sorry_lan.net.journal import Journal, load
from sorry_lan.net.saved import FINISHED, saved_games
from sorry_lan.wire import messages as m


async def _chat_seen(client: GameClient, text: str) -> None:
    while True:
        ev = await client.next_event()
        if isinstance(ev, m.Chat) and ev.text == text:
            return


@pytest.mark.asyncio
async def test_chat_in_a_game_is_journalled_and_restored(tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    server = await start_host(seats=2, seed=3, journal=path)
    clients = [GameClient(LOCAL, server.address[1], n) for n in ("ann", "bob")]
    try:
        for c in clients:
            await c.connect()  # the second starts the game
        clients[0].chat("hello bob")
        await asyncio.wait_for(_chat_seen(clients[1], "hello bob"), 5)
    finally:
        for c in clients:
            await c.close()
        await server.close()
        assert server.journal is not None
        server.journal.close()
    restored = replay(load(path))
    assert restored is not None
    colours = {c.name: c.model.colour for c in clients}
    assert restored.chat == [(colours["ann"], "hello bob")]
    table = Table.restore(TableConfig(), restored, 0.0, None)
    assert {p.name: p.colour for p in table.players.values()} == colours


@pytest.mark.asyncio
async def test_the_hosts_player_sees_the_chat_again_and_quit_marks_the_game_finished(
    tmp_path: Path,
) -> None:
    d = tmp_path / "journals"
    d.mkdir(mode=0o700)
    path = save_game(d, "20260101-a", host="ann", moves=4)
    journal = Journal(path)
    journal.chat(2, "good luck ann")
    journal.close()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sorry_lan", "host", "--name", "ann", "--text", "--no-mdns",
        "--bind", LOCAL, "--port", "0", "--data-dir", str(tmp_path), "--resume",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    out = ""
    try:
        while "you host this table" not in out or "good luck ann" not in out:
            line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
            assert line, out
            out += line
        proc.stdin.write(b"quit\n")
        await proc.stdin.drain()
        rest, err = await asyncio.wait_for(proc.communicate(), 20)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, err.decode()
    assert "says: good luck ann." in out  # the chat so far, from the host like anyone's
    assert out.startswith("resumed 20260101-a.journal: 4 moves replayed")
    (game,), _ = saved_games(d)
    assert game.state == FINISHED and game.table == "ann's"
    assert "continues it" not in rest.decode()
