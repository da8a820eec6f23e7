"""A burst of host-bot moves that ends the game: every move reaches every client, in
order, each with its own sid, and ``over`` only after the last one."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from netkit import RawClient, start_host

from sorry_lan.authority.restore import replay
from sorry_lan.net.journal import load
from sorry_lan.wire import messages as m
from sorry_lan.wire.limits import SOFTWARE, SUPPORTED_VERSIONS


async def _until_over(raw: RawClient) -> list[m.Message]:
    got: list[m.Message] = list(raw.inbox)
    while not any(isinstance(x, m.GameOver) for x in got):
        data = await asyncio.wait_for(raw.reader.read(65536), 10)
        assert data, "connection closed before the game ended"
        got += raw.decoder.feed(data)
    return got


@pytest.mark.asyncio
@pytest.mark.parametrize("seed", [3, 4])
async def test_a_game_played_in_one_burst_reaches_everyone_move_by_move(
    tmp_path: Path, seed: int
) -> None:
    # Three bots, and a person whose turns a bot plays at once (turn timeout 0): the
    # person's joining starts the game, and the whole game is one burst.
    path = tmp_path / "g.journal"
    server = await start_host(seats=4, bots=3, seed=seed, journal=path, turn_timeout=0.0)
    watcher = await RawClient.open(server.address[1])
    ann = await RawClient.open(server.address[1])
    try:
        watcher.send(m.Spectate(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name="eve"))
        await watcher.expect(m.Lobby)
        assert isinstance(await ann.hello("ann"), m.Welcome)
        seen = [await _until_over(watcher), await _until_over(ann)]
    finally:
        await watcher.close()
        await ann.close()
        await server.close()
        assert server.journal is not None
        server.journal.close()
    restored = replay(load(path))
    assert restored is not None and restored.game.over
    moves = restored.moves
    assert moves > 20
    for got in seen:
        over = next(x for x in got if isinstance(x, m.GameOver))
        after = got[got.index(over) + 1 :]
        assert not any(isinstance(x, m.Events | m.Turn) for x in after)
        played = [x for x in got if isinstance(x, m.Events) and x.colour is not None]
        sids = [x.sid for x in played]
        assert len(set(sids)) == moves, (len(set(sids)), moves)  # every move, once
        assert sids == sorted(sids)  # in order
        assert over.sid == restored.game.state_id
        assert max(sids) == over.sid
