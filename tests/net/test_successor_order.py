"""A successor's order from its first ``succession`` on (issue 19): the laptops of the
order it knew are in its electorate and its order before any of them is back, each
where it could be reached then, so that a successor that dies before the others
reconnected still leaves each follower a whole order (and its quorum).  What the
order holds once they are back, and fencing by it, are tests/authority's."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from heirs import Watching, knowledge_of
from pair import Pair

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import ClientModel
from sorry_lan.net.heir import start_table


def _table() -> tuple[Pair, list[Watching]]:
    """A headless table of three people, its game begun."""
    pair = Pair(Table(TableConfig(seats=3, auto_start=True, seed=5)))
    ends = [Watching(ClientModel(name)) for name in ("ann", "bob", "cy")]
    for end in ends:
        end.model.join(pair.now)
        pair.connect(end)
        pair.pump()
    assert pair.table.game is not None
    return pair, ends


@pytest.mark.asyncio
async def test_a_successor_names_the_laptops_it_knew_before_any_is_back(tmp_path: Path) -> None:
    old, ends = _table()
    know = knowledge_of(old.table, ends[0])
    told = [(lap.pid, lap.addrs, lap.port) for lap in know.succession.order]
    assert [pid for pid, _a, _p in told] == [0, 1, 2]
    sock = socket.create_server(("127.0.0.1", 0))
    hosted = await start_table(know, 2, sock, tmp_path, also=())
    try:
        core = hosted.server.core
        order = core.electorate.order(hosted.table)
        assert [(x.pid, x.addrs, x.port) for x in order] == told[1:]  # not its own seat
        assert all(hosted.table.players[x.pid].conn is None for x in order)
    finally:
        await hosted.close()
