"""Spectators follow the table (issue 19), on loopback in one process: the table of
``test_heir_netns`` (a host and three bot laptops with their heirs) watched by a
spectator whose client has a follower heir (no standby, never a vote).  The host dies
mid-game: the spectator walks the order, waits at the first laptop's standby, follows
it once it hosts, is told who hosts now, and watches the game to its end.  And with
every address the order lists out of its reach, the spectator finds the new host by
the table's advert (a finder standing in for mDNS, told the table id while the host is
lost and stopped once it is found)."""

from __future__ import annotations

import asyncio
import subprocess
import tempfile
from pathlib import Path

import pytest
from netns import netns_skip_reason, run_in_loopback_netns
from test_heir_netns import DELAY, LOCAL, crash, heir

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import ClientEvent, Connection, TableNews
from sorry_lan.codes import LinkNews
from sorry_lan.net.botrunner import BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient, Sighted
from sorry_lan.net.heir import Heir
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.net.journal import Journal
from sorry_lan.succession.election import Decision, TryCandidate
from sorry_lan.wire import messages as m

_skip = netns_skip_reason()
pytestmark = [
    pytest.mark.netns,
    pytest.mark.lan,
    pytest.mark.skipif(_skip is not None, reason=_skip or ""),
]

TID = "feedc0de12345678"


class Finder:
    """A stand-in for the mDNS finder: it remembers what it was asked to look for, and
    the test tells it of adverts."""

    def __init__(self) -> None:
        self.looked_for: list[str] = []
        self.stopped = 0
        self.sighted: Sighted | None = None

    async def start(self, tid: str, sighted: Sighted) -> None:
        self.looked_for.append(tid)
        self.sighted = sighted

    async def stop(self) -> None:
        self.stopped += 1
        self.sighted = None


class Spectator(GameClient):
    """A spectator's client that keeps each attempt it made; ``far``: it cannot reach
    any address the order lists (they are stale)."""

    far = False
    tried: list[TryCandidate]

    async def try_candidate(self, attempt: TryCandidate) -> list[Decision]:
        self.tried.append(attempt)
        if self.far and attempt.pid is not None:
            election = self.model.election
            assert election is not None
            await asyncio.sleep(0.05)
            return election.failed(attempt, asyncio.get_running_loop().time())
        return await super().try_candidate(attempt)


async def watch(client: GameClient) -> list[ClientEvent]:
    """Every event the spectator is handed, until the game is over (or it gives up)."""
    seen: list[ClientEvent] = []
    while True:
        ev = await client.next_event()
        seen.append(ev)
        if isinstance(ev, m.GameOver):
            return seen
        if isinstance(ev, Connection) and ev.news.code in (
            LinkNews.GAVE_UP, LinkNews.GAVE_UP_WATCHING, LinkNews.CLOSED
        ):
            return seen


def test_a_spectator_follows_a_crashed_host_s_table_to_its_successor() -> None:
    events, epoch = run_in_loopback_netns(lambda: _table(far=False), timeout=60)
    assert epoch == 2
    assert "host_changed" in events and "game_over" in events
    assert events.index("host_lost_waiting") < events.index("host_changed")


def test_a_spectator_out_of_reach_of_the_order_finds_the_table_by_its_advert() -> None:
    events, epoch = run_in_loopback_netns(lambda: _table(far=True), timeout=60)
    assert epoch == 2
    assert "host_changed" in events and "game_over" in events


async def _table(far: bool) -> tuple[list[str], int]:
    subprocess.run(["ip", "addr", "add", f"{LOCAL}/8", "dev", "lo"], check=True, timeout=10)
    tmp_path = Path(tempfile.mkdtemp(prefix="sorry-lan-follow-"))
    table = Table(TableConfig(seats=3, auto_start=True, seed=3), Journal(tmp_path / "h.journal"))
    options = HostOptions(heartbeat=0.5, dead_after=3.0, table_id=TID, takeover_delay=DELAY)
    server = HostServer(table, options)
    await server.start(LOCAL, 0)
    port = server.address[1]
    heirs = [heir(tmp_path / f"b{i}") for i in range(3)]
    clients = [GameClient(LOCAL, port, f"b{i}", ClientOptions(), heirs[i]) for i in range(3)]
    finder = Finder()
    sam = Spectator(LOCAL, port, "sam", ClientOptions(spectate=True, finder=finder),
                    Heir(lambda: ()))
    sam.far, sam.tried = far, []
    seen = 0

    def progress(news: object, number: int, total: int) -> None:
        nonlocal seen
        if isinstance(news, m.Events):
            seen += 1
            if seen == 8:
                crash(server)

    async def advertise() -> None:  # the successor's advert, once there is one
        while True:
            hosted = next((h.hosted for h in heirs if h.hosted is not None), None)
            if hosted is not None and finder.sighted is not None:
                finder.sighted(2, (LOCAL,), hosted.address[1])
                return
            await asyncio.sleep(0.1)

    try:
        for c in [*clients, sam]:
            await c.connect()
        watching = asyncio.create_task(watch(sam))
        advert = asyncio.create_task(advertise())
        results = await asyncio.wait_for(asyncio.gather(
            *(run_bot(c, progress=progress, moves=True, think=0.05, stats=BotStats())
              for c in clients)
        ), 60)
        assert all(r is not None for r in results)
        events = await asyncio.wait_for(watching, 10)
        advert.cancel()
        assert sum(h.took_over for h in heirs) == 1, [c.model.epoch for c in clients]
        assert finder.looked_for == [TID] and finder.stopped == 1
        if far:
            assert any(t.pid is None for t in sam.tried), sam.tried  # the advert's
        news = [e for e in events if isinstance(e, TableNews)]
        assert news and news[-1].kind == "host_changed" and news[-1].epoch == 2
        hosting = next(i for i, h in enumerate(heirs) if h.hosted is not None)
        assert news[-1].pid == clients[hosting].model.pid  # the laptop that hosts now
        names = []
        for e in events:
            if isinstance(e, Connection):
                names.append(e.news.code.name.lower())
            elif isinstance(e, TableNews):
                names.append(e.kind)
            elif isinstance(e, m.GameOver):
                names.append("game_over")
        assert sam.model.epoch is not None
        return names, sam.model.epoch
    finally:
        for c in [*clients, sam]:
            await c.close()
        for h in heirs:
            await h.close()
        await server.close()
