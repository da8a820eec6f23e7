"""Every program of a table on one machine with no network (every address loopback).
With one laptop besides the host's, a program with nobody to ask whether to play on
alone (as ``sorry-lan bot``), no laptop can take the table over: when the host is
lost its client says so at once and that it waits for the host; it keeps trying the
host and rejoins it when it is back; and when it finally gives up it says that the
host did not come back (not that a bot plays its seat).  With two laptops, the host's
order names both at their loopback standbys and one takes the table over.  A real
host and real clients on loopback, in this process; the host's death is a
:class:`Gate` that drops every connection and refuses new ones."""

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
from sorry_lan.net.heir import Heir, HeirOptions, start_table
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


async def _down(gate: Gate) -> None:
    """The host's process is gone: the gate refuses and drops everything, a connection
    it accepted just before included (handled a moment later)."""
    await gate.close()
    await asyncio.sleep(0.05)
    gate.drop()


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

            await _down(gate)  # the host's process is gone
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
            await _down(gate)
            told = await _links(bob, 4.0)
            assert told == [LinkNews.HOST_LOST_NO_HEIR, LinkNews.GAVE_UP_NO_HEIR], told
        finally:
            await _down(gate)
            await hosted.close()  # (its probes of Bob's standby first)
            await bob.close()
            await asyncio.sleep(0.2)


@pytest.mark.asyncio
async def test_two_laptops_on_one_machine_take_the_table_over(tmp_path: Path) -> None:
    hosted = HostedTable(
        TableConfig(seats=3, auto_start=True), tmp_path / "t.journal",
        HostOptions(heartbeat=0.2, dead_after=DEAD, table_id=TID, takeover_delay=DELAY),
        bind=LOCAL,
    )  # fmt: skip

    def laptop(name: str) -> GameClient:
        async def successor(knowledge: Knowledge, epoch: int, sock: socket.socket) -> HostedTable:
            return await start_table(knowledge, epoch, sock, tmp_path / name, also=())

        standby = HeirOptions(bind=LOCAL, also=(), host_retry_max=0.2)
        heir = Heir(lambda: [LOCAL], successor, standby)
        return GameClient(LOCAL, gate.port, name, ClientOptions(heartbeat=0.2), heir)

    async with hosted:
        gate = Gate(hosted.address[1])
        await gate.set("forward")
        bob, cy = laptop("Bob"), laptop("Cy")
        try:
            await bob.connect()
            await cy.connect()
            while len(hosted.server.core.electorate.laptops) < 2:  # (both offered)
                await asyncio.sleep(0.02)
            await _links(bob, 0.3)
            known = bob.model.succession
            assert known is not None and [x.addrs for x in known.order] == [(LOCAL,)] * 2
            await _down(gate)  # the host's process is gone
            told = await _links(bob, 0.3)
            assert told[:1] == [LinkNews.HOST_LOST_WAITING], told
            end = time.monotonic() + 10 * DELAY + 5.0
            while time.monotonic() < end and not (
                bob.model.epoch == cy.model.epoch == 2
                and bob.model.connected and cy.model.connected
            ):
                await asyncio.gather(_links(bob, 0.1), _links(cy, 0.1))
            assert bob.model.epoch == cy.model.epoch == 2
            assert bob.model.connected and cy.model.connected
            heirs = [c.heir for c in (bob, cy)]
            assert [h is not None and h.hosting for h in heirs] == [True, False]
        finally:
            await _down(gate)
            await hosted.close()  # (its probes of the standbys first)
            for client in (bob, cy):
                await client.close()
                heir = client.heir
                if heir is not None and heir.hosted is not None:
                    await heir.hosted.close()
            await asyncio.sleep(0.2)
