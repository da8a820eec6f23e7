"""The laptop that hosts a table and plays at it sleeps (a closed lid: its host and its
own player's client frozen together, longer than the takeover delay D) and wakes: the
player's client does not take its own host's silence for a lost host (it was its own
sleep), so it stays on its connection and hears whatever the host then says (a table
that moved: where it went).  A host that steps down when it wakes, with real processes
on a virtual LAN: tests/discovery/test_lan_faults.py."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from netkit import LOCAL

from sorry_lan.authority.table import TableConfig
from sorry_lan.client.model import Connection
from sorry_lan.codes import LinkNews
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.heir import Heir, HeirOptions
from sorry_lan.net.host import HostOptions
from sorry_lan.net.hosted import HostedTable

DELAY = 0.4  # D (seconds)
TID = "00112233aabbccdd"  # the table's id (it has one: it has a succession)
DEAD = 2.0  # nothing heard for this long: the host drops a connection (and a client its host)


async def _events_for(client: GameClient, seconds: float) -> list[object]:
    """What the client hands out in the next ``seconds``."""
    out: list[object] = []
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            out.append(await asyncio.wait_for(client.next_event(), left))
        except TimeoutError:
            break
    return out


async def said_and_heard(client: GameClient, text: str) -> None:
    client.chat(text)
    heard = await _events_for(client, 0.5)
    assert any(getattr(ev, "text", None) == text for ev in heard), heard


@pytest.mark.asyncio
async def test_the_own_player_of_a_laptop_that_slept_keeps_its_own_host(tmp_path: Path) -> None:
    hosted = HostedTable(
        TableConfig(seats=4), tmp_path / "t.journal",
        HostOptions(heartbeat=0.2, dead_after=DEAD, table_id=TID, takeover_delay=DELAY),
        owner="Ann", bind=LOCAL,
    )  # fmt: skip
    async with hosted:
        heir = Heir(lambda: [LOCAL], None, HeirOptions(bind=LOCAL, also=()))
        options = ClientOptions(token=hosted.owner_token, heartbeat=0.2, dead_after=DEAD)
        client = GameClient(LOCAL, hosted.address[1], "Ann", options, heir)
        await client.connect()
        try:
            await _events_for(client, 0.3)
            assert client.model.hosted_here  # the succession names her seat as the host's
            (cid,) = hosted.server.conns
            time.sleep(3 * DELAY)  # the whole laptop sleeps: nothing runs, past D
            told = await _events_for(client, 6 * DELAY)
            links = [ev for ev in told if isinstance(ev, Connection)]
            assert links == [] and client.model.connected, links
            assert list(hosted.server.conns) == [cid]  # the same connection all along
            await said_and_heard(client, "still here")
            time.sleep(DEAD + 0.5)  # past the host's dead_after: it drops the connection
            told = await _events_for(client, 1.5)
            codes = [ev.news.code for ev in told if isinstance(ev, Connection)]
            assert codes == [LinkNews.BACK], codes  # back at once, the seat its own
            assert client.model.connected and client.model.hosted_here
            await said_and_heard(client, "back")
        finally:
            await client.close()
