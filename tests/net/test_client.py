"""GameClient: joining, and reconnecting through silent, full and vanished hosts."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest
from netkit import LOCAL, Gate, start_host

from sorry_lan.client.model import Connection
from sorry_lan.codes import LinkNews
from sorry_lan.net.client import ClientOptions, GameClient, JoinError, refusal_text
from sorry_lan.succession.election import RETRY, Election, Order, Phase, TryCandidate
from sorry_lan.wire import messages as m
from sorry_lan.wire.limits import SUPPORTED_VERSIONS
from sorry_lan.wire.succession import Laptop
from sorry_lan.wire.vocab import RefuseReason


async def next_connection(client: GameClient, timeout: float = 10.0) -> Connection:
    async def find() -> Connection:
        while True:
            ev = await client.next_event()
            if isinstance(ev, Connection):
                return ev

    return await asyncio.wait_for(find(), timeout)


@contextlib.asynccontextmanager
async def silent_port():  # type: ignore[no-untyped-def]
    """A loopback port that accepts connections and never says a word."""
    held: list[asyncio.StreamWriter] = []

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)
        with contextlib.suppress(OSError):
            await reader.read()

    server = await asyncio.start_server(hold, LOCAL, 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()
        for w in held:
            w.transport.abort()


@pytest.mark.asyncio
async def test_a_host_that_accepts_but_never_answers_is_a_join_error() -> None:
    async with silent_port() as port:
        client = GameClient(LOCAL, port, "Ann", ClientOptions(connect_timeout=0.3))
        start = time.monotonic()
        with pytest.raises(JoinError) as caught:
            await client.connect()
        assert caught.value.reason == "unreachable"
        assert "did not answer" in caught.value.text
        assert time.monotonic() - start < 2


@pytest.mark.asyncio
async def test_a_candidate_that_takes_the_hello_and_says_nothing_is_tried_again() -> None:
    """A standby with its quorum holds the hello that completed it while its laptop
    starts the table: the voter is told to try it again (Election.silent), not to
    pass it over and stand itself at the old epoch."""
    async with silent_port() as port:
        client = GameClient(LOCAL, port, "Cy", ClientOptions(connect_timeout=0.3))
        now = time.monotonic()
        order = Order(epoch=1, host=None, delay=15.0, grace=60.0, laptops=(
            Laptop(1, (LOCAL,), port), Laptop(3, (LOCAL,), 1)))
        election = client.model.participant.election = Election(order, me=3, now=now - 30)
        election.host_lost(now - 29)
        (attempt,) = election.tick(now)
        assert attempt == TryCandidate(1, (LOCAL,), port)
        assert await client.try_candidate(attempt) == []
        assert client.unanswered
        assert election.phase is Phase.WALKING and election.waiting_for is None
        wake = election.wake_at
        assert wake is not None and wake - time.monotonic() <= RETRY
        assert election.tick(wake) == [attempt]  # the same laptop again, not this one


@pytest.mark.asyncio
async def test_reconnecting_goes_on_through_a_host_that_does_not_answer() -> None:
    server = await start_host(seats=4)
    gate = Gate(server.address[1])
    port = await gate.open()
    client = GameClient(LOCAL, port, "Ann", ClientOptions(connect_timeout=0.2, reconnect_for=20))
    try:
        await client.connect()
        await gate.set("silent")
        gate.drop()
        assert (await next_connection(client)).state == "reconnecting"
        seen = gate.accepted
        while gate.accepted < seen + 2:  # at least two attempts met silence
            await asyncio.sleep(0.02)
        ev = await next_connection(client)  # silence from a host that let us in before
        assert ev.state == "asleep" and "check the address" not in ev.text, ev.text
        await gate.set("forward")
        ev = await next_connection(client)
        assert ev.state == "connected", ev.text
        assert client.connected and client.model.pid == 0
    finally:
        await client.close()
        await gate.close()
        await server.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("reason", ["full", "busy"])
async def test_a_full_or_busy_host_is_retried_until_it_has_room(reason: str) -> None:
    server = await start_host(seats=4)
    gate = Gate(server.address[1])
    port = await gate.open()
    ann = GameClient(LOCAL, port, "Ann", ClientOptions(reconnect_for=20))
    try:
        await ann.connect()
        await gate.set("closed")
        gate.drop()
        assert (await next_connection(ann)).state == "reconnecting"
        seen = gate.accepted
        await gate.set(f"refuse {reason}")
        while gate.accepted < seen + 2:  # refused at least twice, and still trying
            await asyncio.sleep(0.02)
        assert not ann.connected
        await gate.set("forward")
        ev = await next_connection(ann)
        assert ev.state == "connected", ev.text
        assert ann.model.pid == 0
    finally:
        await ann.close()
        await gate.close()
        await server.close()


@pytest.mark.asyncio
async def test_a_spectator_whose_connection_drops_watches_again() -> None:
    server = await start_host(seats=2, bots=2, bot_delay=0.02)
    gate = Gate(server.address[1])
    port = await gate.open()
    watcher = GameClient(LOCAL, port, "Eve", ClientOptions(spectate=True, reconnect_for=20))
    try:
        await watcher.connect()
        gate.drop()
        ev = await next_connection(watcher)
        assert ev.state == "reconnecting", ev.text
        ev = await next_connection(watcher)
        assert ev.state == "connected", ev.text
        assert watcher.model.snapshot is not None and watcher.model.pid is None
    finally:
        await watcher.close()
        await gate.close()
        await server.close()


@pytest.mark.asyncio
async def test_a_client_the_host_dropped_for_falling_behind_comes_back() -> None:
    server = await start_host(seats=4)
    ann = GameClient(LOCAL, server.address[1], "Ann", ClientOptions(reconnect_for=20))
    try:
        await ann.connect()
        (conn,) = server.conns.values()
        server.fell_behind(conn)  # as when it leaves too much output unread
        ev = await next_connection(ann)
        assert ev.state == "reconnecting" and "fell behind" in ev.text, ev.text
        ev = await next_connection(ann)
        assert ev.state == "connected", ev.text
        assert ann.model.pid == 0 and len(server.table.players) == 1  # the same seat
    finally:
        await ann.close()
        await server.close()


def test_a_refusal_is_one_sentence_without_the_host_repeating_it() -> None:
    started = m.Refuse(
        reason=RefuseReason.STARTED,
        text="the game has started and has no free seat",
        versions=SUPPORTED_VERSIONS,
    )
    assert refusal_text(started) == "the game has already started and has no seat for you"
    full = m.Refuse(
        reason=RefuseReason.FULL,
        text="the host has too many connections",
        versions=SUPPORTED_VERSIONS,
    )
    assert refusal_text(full) == "the game is full (the host has too many connections)"


@pytest.mark.asyncio
async def test_a_host_that_ends_the_game_is_told_as_ended_and_closed_not_as_a_lost_link(
) -> None:
    server = await start_host(seats=2, bots=1)
    ann = GameClient(LOCAL, server.address[1], "Ann", ClientOptions(reconnect_for=20))
    try:
        await ann.connect()
        for _ in range(200):
            if ann.model.snapshot is not None:
                break
            await asyncio.sleep(0.01)
        await server.close(abandon=True)  # the host's own player left with q
        ev = await next_connection(ann)
        assert ev.news.code is LinkNews.CLOSED and ev.state == "lost", ev.text
        assert ann.model.over is not None and ann.model.over.winners == ()
    finally:
        await ann.close()
        await server.close()


@pytest.mark.asyncio
async def test_a_move_made_on_the_offer_a_rewelcome_brings_reaches_the_host() -> None:
    """The welcome after a reconnection brings the seat's offer in the same read; a
    player who moves at once (before the client has made the new connection its link)
    must not have the move written to the old, dead connection."""
    server = await start_host(seats=2, bots=1, bot_delay=0.0)
    gate = Gate(server.address[1], batch=0.2)  # the rewelcome comes in one read
    port = await gate.open()
    ann = GameClient(LOCAL, port, "Ann", ClientOptions(connect_timeout=1.0, reconnect_for=20))

    async def offer() -> m.LegalMoves:
        while True:
            ev = await ann.next_event()
            if isinstance(ev, m.LegalMoves):
                return ev

    try:
        await ann.connect()
        ann.ready()
        first = await asyncio.wait_for(offer(), 10)
        gate.drop()  # the offer stands: it comes again with the rewelcome
        async with asyncio.timeout(10):  # (no task in between: the move is made at once)
            again = await offer()
            ann.play(again.moves[0].id)  # the rewelcome's read is still being handed out
        assert again.sid == first.sid

        async def moved() -> m.Events:
            while True:
                ev = await ann.next_event()
                if isinstance(ev, m.Events) and ev.sid > again.sid:
                    return ev

        assert (await asyncio.wait_for(moved(), 5)).colour == ann.model.colour
    finally:
        await ann.close()
        await gate.close()
        await server.close()
