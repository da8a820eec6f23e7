"""Every program of a table on one machine with no network (every address loopback),
and one laptop besides the host's: a program with nobody to ask whether to play on
alone (as ``sorry-lan bot``).  No laptop can take the table over, so when the host is
lost its client says so at once and that it waits for the host; it keeps trying the
host and rejoins it when it is back; and when it finally gives up it says that the
host did not come back (not that a bot plays its seat).  A real host and a real
client on loopback, in this process; the host's death is a :class:`Gate` that drops
every connection and refuses new ones."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import pytest
from netkit import LOCAL, Gate

from sorry_lan.authority.table import TableConfig
from sorry_lan.client.model import Connection
from sorry_lan.codes import LinkNews
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.heir import Heir, HeirOptions
from sorry_lan.net.host import HostOptions
from sorry_lan.net.hosted import HostedTable
from sorry_lan.succession.knowledge import Knowledge

DELAY = 0.4  # D (seconds)
TID = "00112233aabbccdd"
DEAD = 2.0


async def _links(client: GameClient, seconds: float) -> list[LinkNews]:
    """The link news the client hands out in the next ``seconds``."""
    out: list[LinkNews] = []
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            ev = await asyncio.wait_for(client.next_event(), left)
        except TimeoutError:
            break
        if isinstance(ev, Connection):
            assert isinstance(ev.news.code, LinkNews)
            out.append(ev.news.code)
    return out


async def _never(knowledge: Knowledge, epoch: int, sock: socket.socket) -> HostedTable:
    raise AssertionError("a laptop alone with nobody to ask never takes the table over")


def _client(port: int, name: str) -> GameClient:
    standby = HeirOptions(bind=LOCAL, also=(), host_retry_max=0.2)
    heir = Heir(lambda: [LOCAL], _never, standby)  # (no ask_alone: a program)
    options = ClientOptions(heartbeat=0.2, dead_after=DEAD)
    return GameClient(LOCAL, port, name, options, heir)


@pytest.mark.asyncio
async def test_a_table_on_loopback_only_says_at_once_that_nobody_can_host_it(
    tmp_path: Path,
) -> None:
    hosted = HostedTable(
        TableConfig(seats=4), tmp_path / "t.journal",
        HostOptions(heartbeat=0.2, dead_after=DEAD, table_id=TID, takeover_delay=DELAY),
        owner="Ann", bind=LOCAL,
    )  # fmt: skip
    async with hosted:
        gate = Gate(hosted.address[1])
        await gate.set("forward")
        bob = _client(gate.port, "Bob")
        await bob.connect()
        try:
            await _links(bob, 0.5)
            known = bob.model.succession
            assert known is not None and [x.addrs for x in known.order] == [(LOCAL,)]

            await gate.close()  # the host's process is gone
            lost = time.monotonic()
            told = await _links(bob, 0.5)
            assert told[:1] == [LinkNews.HOST_LOST_NO_HEIR], told
            assert time.monotonic() - lost < DELAY + 0.5  # at once, not after D
            assert LinkNews.HOST_LOST_WAITING not in told

            await gate.set("forward")  # the host is back: rejoined
            told = await _links(bob, 1.5)
            assert LinkNews.BACK in told and bob.model.connected, told

            election = bob.model.election
            assert election is not None
            election.give_up = 1.0  # (ten minutes in play)
            await gate.close()
            told = await _links(bob, 4.0)
            assert told == [LinkNews.HOST_LOST_NO_HEIR, LinkNews.GAVE_UP_NO_HEIR], told
        finally:
            await bob.close()
            await gate.close()
