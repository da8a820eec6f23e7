"""The standby listener on loopback: it answers greetings through its votes, says when
they are enough, and hands its listening socket to a host that then welcomes the
next hello on the same port."""

from __future__ import annotations

import asyncio
import socket

import pytest
from netkit import LOCAL, RawClient

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.host import HostError, HostOptions, HostServer
from sorry_lan.net.standby import IDLE_TEXT, StandbyListener
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import Decoder
from sorry_lan.wire.limits import SOFTWARE, SUPPORTED_VERSIONS
from sorry_lan.wire.vocab import RefuseReason

pytestmark = pytest.mark.asyncio



TOKENS = [bytes([n]) * 16 for n in range(1, 4)]


class CountingVotes:
    """A stand-in for the election's standby machine: a known token is a vote; the
    quorum counts this laptop's own vote too."""

    def __init__(self, quorum: int) -> None:
        self.quorum = quorum
        self.voters: set[bytes] = set()
        self.asked: list[float] = []

    def greeted(self, greeting: m.Hello | m.Spectate, now: float) -> tuple[RefuseReason, str]:
        self.asked.append(now)
        if not isinstance(greeting, m.Hello) or greeting.token not in TOKENS:
            return RefuseReason.BAD_TOKEN, "not a seat of this table"
        self.voters.add(greeting.token)
        return RefuseReason.BUSY, f"waiting for the table: {len(self.voters) + 1} of {self.quorum}"

    def elected(self, now: float) -> bool:
        return len(self.voters) + 1 >= self.quorum


async def _greet(port: int, token: bytes | None, spectate: bool = False) -> m.Message:
    client = await RawClient.open(port)
    try:
        if spectate:
            client.send(m.Spectate(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name="x"))
            return await client.expect(m.Welcome, m.Refuse)
        return await client.hello("voter", token)
    finally:
        await client.close()


async def test_an_idle_standby_refuses_every_greeting_busy() -> None:
    async with StandbyListener(bind=LOCAL) as standby:
        assert standby.port > 0 and standby.listening
        answer = await _greet(standby.port, TOKENS[0])
        assert isinstance(answer, m.Refuse)
        assert (answer.reason, answer.text) == (RefuseReason.BUSY, IDLE_TEXT)
        spectator = await _greet(standby.port, None, spectate=True)
        assert isinstance(spectator, m.Refuse) and spectator.reason is RefuseReason.BUSY
        assert standby.greetings == 2 and not standby.elected
    assert not standby.listening


async def test_votes_are_counted_and_the_quorum_elects_once() -> None:
    elected: list[int] = []
    votes = CountingVotes(quorum=3)
    async with StandbyListener(bind=LOCAL, on_elected=lambda: elected.append(1)) as standby:
        standby.votes = votes
        first = await _greet(standby.port, TOKENS[0])
        assert isinstance(first, m.Refuse)
        assert (first.reason, first.text) == (RefuseReason.BUSY, "waiting for the table: 2 of 3")
        stranger = await _greet(standby.port, b"\x09" * 16)
        assert isinstance(stranger, m.Refuse) and stranger.reason is RefuseReason.BAD_TOKEN
        assert elected == []
        await _greet(standby.port, TOKENS[1])
        assert elected == [1] and standby.elected
        await _greet(standby.port, TOKENS[2])  # later votes elect nobody again
        assert elected == [1]
        assert len(votes.asked) == 4


async def test_check_elects_without_a_greeting_when_the_own_vote_is_the_quorum() -> None:
    elected: list[int] = []
    async with StandbyListener(bind=LOCAL, on_elected=lambda: elected.append(1)) as standby:
        assert not standby.check(0.0)  # no election under way
        standby.votes = CountingVotes(quorum=1)
        assert standby.check(0.0) and standby.check(1.0)
        assert elected == [1]


async def test_garbage_is_answered_by_the_codec_and_elects_nobody() -> None:
    votes = CountingVotes(quorum=1)
    async with StandbyListener(bind=LOCAL) as standby:
        standby.votes = votes
        reader, writer = await asyncio.open_connection(LOCAL, standby.port)
        writer.write(b"\x00\x00\x00\x05hello")
        data = await asyncio.wait_for(reader.read(65536), 5)
        assert isinstance(Decoder().feed(data)[0], m.Error)
        assert await asyncio.wait_for(reader.read(65536), 5) == b""  # closed
        writer.close()
        assert votes.asked == [] and not standby.elected


async def test_a_connection_that_never_greets_is_closed() -> None:
    async with StandbyListener(bind=LOCAL, greet_within=0.2) as standby:
        reader, writer = await asyncio.open_connection(LOCAL, standby.port)
        assert await asyncio.wait_for(reader.read(65536), 5) == b""
        writer.close()


async def test_too_many_open_connections_are_refused_busy_at_once() -> None:
    async with StandbyListener(bind=LOCAL, max_open=1) as standby:
        quiet = await asyncio.open_connection(LOCAL, standby.port)
        reader, writer = await asyncio.open_connection(LOCAL, standby.port)
        answer = Decoder().feed(await asyncio.wait_for(reader.read(65536), 5))
        assert isinstance(answer[0], m.Refuse) and answer[0].reason is RefuseReason.BUSY
        writer.close()
        quiet[1].close()


async def test_a_port_in_use_is_a_host_error() -> None:
    with socket.socket() as taken:
        taken.bind((LOCAL, 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(HostError) as caught:
            await StandbyListener(bind=LOCAL, port=port).start()
    assert str(port) in str(caught.value)


async def test_the_taken_socket_serves_a_host_on_the_same_port() -> None:
    async with StandbyListener(bind=LOCAL) as standby:
        standby.votes = CountingVotes(quorum=2)
        await _greet(standby.port, TOKENS[0])
        assert standby.elected
        # A voter's retry under way when the socket changes hands is cut (it retries):
        reader, writer = await asyncio.open_connection(LOCAL, standby.port)
        await asyncio.sleep(0.05)  # accepted by the standby
        sock = standby.take_socket()
        assert not standby.listening
        assert await asyncio.wait_for(reader.read(65536), 5) == b""
        writer.close()
        with pytest.raises(RuntimeError):
            standby.take_socket()
        table = Table(TableConfig(seats=2))
        server = HostServer(table, HostOptions(heartbeat=0.5, dead_after=3.0))
        await server.start(sock=sock)
        try:
            assert server.address[1] == standby.port
            again = await _greet(standby.port, None)
            assert isinstance(again, m.Welcome) and again.name == "voter"
        finally:
            await server.close()
