"""Each player's language (the ``profile`` message, protocol version 2) on a real host.

The host keeps what each seat's profile says and puts it in every roster; a client
that speaks only version 1 gets the roster in version 1's shape and is never told."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

import msgpack
import pytest
from netkit import LOCAL, start_host

from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.host import HostServer
from sorry_lan.rules import Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.auth import new_token
from sorry_lan.wire.codec import Decoder, encode
from sorry_lan.wire.limits import SOFTWARE
from sorry_lan.wire.records import PlayerInfo
from sorry_lan.wire.session import HostSession


async def _until(test: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    async def wait() -> None:
        while not test():
            await asyncio.sleep(0.02)

    try:
        await asyncio.wait_for(wait(), timeout)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


def _roster(client: GameClient) -> dict[str, PlayerInfo]:
    return {} if client.model.lobby is None else {p.name: p for p in client.model.lobby.players}


class OldClient:
    """A version-1 peer speaking raw frames; keeps every ``lobby`` map as sent."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.unpacker = msgpack.Unpacker(raw=False)
        self.buffer = b""
        self.maps: list[dict[str, object]] = []

    @classmethod
    async def join(cls, port: int, name: str) -> OldClient:
        reader, writer = await asyncio.open_connection(LOCAL, port)
        old = cls(reader, writer)
        writer.write(encode(m.Hello(versions=(1,), software=SOFTWARE, name=name, token=None)))
        return old

    async def read_until(self, test: Callable[[dict[str, object]], bool]) -> dict[str, object]:
        async def find() -> dict[str, object]:
            while True:
                for msg in self.maps:
                    if test(msg):
                        return msg
                self.buffer += await self.reader.read(65536)
                while len(self.buffer) >= 4:
                    size = int.from_bytes(self.buffer[:4], "big")
                    if len(self.buffer) < 4 + size:
                        break
                    body, self.buffer = self.buffer[4 : 4 + size], self.buffer[4 + size :]
                    self.maps.append(msgpack.unpackb(body, raw=False))

        return await asyncio.wait_for(find(), 5.0)

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


def _names(lobby: dict[str, object]) -> set[str]:
    players = lobby["players"]
    assert isinstance(players, list)
    return {p[1] for p in players}


@pytest.mark.asyncio
async def test_the_host_passes_each_players_language_on() -> None:
    server: HostServer = await start_host(seats=4)
    port = server.address[1]
    ann = GameClient(LOCAL, port, "ann", ClientOptions(lang="el"))
    bot = GameClient(LOCAL, port, "robo", ClientOptions(program=True))
    plain = GameClient(LOCAL, port, "pat")  # tells nothing: no profile sent
    old = await OldClient.join(port, "old")
    try:
        for c in (ann, bot, plain):
            await c.connect()
        await _until(lambda: len(_roster(plain)) == 4, "four seats in pat's roster")
        await _until(
            lambda: _roster(plain)["ann"].lang == "el" and _roster(plain)["robo"].program,
            "ann's language and robo's program flag in pat's roster",
        )
        seen = _roster(plain)
        assert (seen["ann"].lang, seen["ann"].program, seen["ann"].bot) == ("el", False, False)
        assert (seen["robo"].lang, seen["robo"].program, seen["robo"].bot) == (None, True, False)
        assert (seen["pat"].lang, seen["pat"].program) == (None, False)
        assert (seen["old"].lang, seen["old"].program) == (None, False)
        table = {p.name: p for p in server.table.players.values()}
        assert (table["ann"].lang, table["robo"].program) == ("el", True)

        # A change of language reaches everyone in a new roster.
        assert ann.set_profile("th")
        await _until(lambda: _roster(plain)["ann"].lang == "th", "ann's new language")

        # The version-1 peer gets every record in version 1's shape, and no language.
        last = await old.read_until(
            lambda msg: msg.get("t") == "lobby" and _names(msg) == {"ann", "robo", "pat", "old"}
        )
        players = last["players"]
        assert isinstance(players, list)
        assert {len(p) for p in players} == {6}
    finally:
        for c in (ann, bot, plain):
            await c.close()
        await old.close()
        await server.close()


@pytest.mark.asyncio
async def test_a_new_client_at_an_old_host_joins_and_tells_no_language() -> None:
    """A host speaking only version 1 (a real host session limited to it) admits our
    client, which then sends no ``profile`` (the old host would refuse it)."""
    heard: list[m.Message] = []
    sent: list[str] = []  # the type of every frame the client sent, as it arrived
    sessions: list[HostSession] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        session = HostSession(versions=(1,))
        sessions.append(session)
        frames = Decoder()
        try:
            await _serve_frames(reader, writer, session, frames)
        finally:
            writer.close()

    async def _serve_frames(
        reader: asyncio.StreamReader, writer: asyncio.StreamWriter, session: HostSession,
        frames: Decoder,
    ) -> None:
        while data := await reader.read(65536):
            sent.extend(msg.TYPE.value for msg in frames.feed(data))
            for msg in session.receive_data(data):
                heard.append(msg)
                if isinstance(msg, m.Hello):
                    session.welcome(0, new_token(), owner=True)
                    session.send(m.Lobby(variant=Variant.STANDARD, seats=2, host=0, spectators=0,
                                         players=(PlayerInfo(0, msg.name, None, False, False,
                                                             True),)))
            writer.write(session.data_to_send())
            await writer.drain()

    old_host = await asyncio.start_server(serve, LOCAL, 0)
    port = int(old_host.sockets[0].getsockname()[1])
    client = GameClient(LOCAL, port, "ann", ClientOptions(lang="el"))
    try:
        welcome = await client.connect()
        assert welcome.version == 1
        assert not client.set_profile("th")  # kept for later; not sent
        client.add_bot()  # a version-1 host needs the strength named
        client.chat("hi")  # everything sent before it has arrived once it has
        await _until(lambda: "chat" in sent, "the chat line")
        assert sent == ["hello", "add_bot", "chat"]
        assert [type(x) for x in heard] == [m.Hello, m.AddBot, m.Chat]
        assert isinstance(heard[1], m.AddBot) and heard[1].level == "greedy"
        assert sessions[0].error is None and not sessions[0].closed
        assert client.model.lang == "th"
    finally:
        await client.close()
        await _until(lambda: all(x.closed for x in sessions), "the old host's side to close")
        old_host.close()
        await old_host.wait_closed()
