"""Helpers for the network tests: a host on 127.0.0.1, bot clients, raw frames."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.botrunner import BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.net.journal import Journal
from sorry_lan.rules import Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import Decoder, encode
from sorry_lan.wire.limits import SOFTWARE, SUPPORTED_VERSIONS
from sorry_lan.wire.vocab import RefuseReason

LOCAL = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOCAL, 0))
        return int(s.getsockname()[1])


async def start_host(
    variant: Variant = Variant.STANDARD,
    seats: int = 4,
    bots: int = 0,
    seed: int = 1,
    journal: Path | None = None,
    options: HostOptions | None = None,
    **config: object,
) -> HostServer:
    table = Table(
        TableConfig(variant=variant, seats=seats, auto_start=True, seed=seed, **config),  # type: ignore[arg-type]
        Journal(journal) if journal is not None else None,
    )
    for _ in range(bots):
        table.add_bot(None)
    server = HostServer(table, options or HostOptions(heartbeat=0.5, dead_after=3.0))
    await server.start(LOCAL, 0)
    return server


async def bots_play(
    server: HostServer, names: Sequence[str], strength: str = "greedy",
    budget: float | None = None, **client_opts: object,
) -> tuple[list[GameClient], list[m.GameOver | None], list[BotStats]]:
    port = server.address[1]
    clients = [GameClient(LOCAL, port, n, ClientOptions(**client_opts)) for n in names]  # type: ignore[arg-type]
    for c in clients:
        await c.connect()
    stats = [BotStats() for _ in clients]
    results = await asyncio.gather(
        *(run_bot(c, strength, stats=s, budget=budget)
          for c, s in zip(clients, stats, strict=True))
    )
    return clients, list(results), stats


class RawClient:
    """A client that sends whatever frames a test wants (no session checks)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = Decoder()
        self.inbox: list[m.Message] = []

    @classmethod
    async def open(cls, port: int) -> RawClient:
        reader, writer = await asyncio.open_connection(LOCAL, port)
        return cls(reader, writer)

    def send(self, msg: m.Message) -> None:
        self.writer.write(encode(msg))

    async def hello(self, name: str, token: bytes | None = None) -> m.Message:
        self.send(m.Hello(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name=name, token=token))
        return await self.expect(m.Welcome, m.Refuse)

    async def expect(self, *types: type[m.Message], timeout: float = 5.0) -> m.Message:
        async def find() -> m.Message:
            while True:
                for i, msg in enumerate(self.inbox):
                    if isinstance(msg, types):
                        del self.inbox[: i + 1]
                        return msg
                data = await self.reader.read(65536)
                if not data:
                    raise EOFError("connection closed")
                self.inbox += self.decoder.feed(data)

        return await asyncio.wait_for(find(), timeout)

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


class FailingJournal(Journal):
    """A real journal whose syncs fail while :attr:`fail` is set (a disk that broke)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.fail = False

    def flush_to_disk(self) -> int:
        if self.fail:
            raise OSError(errno.EIO, "simulated disk failure")
        return super().flush_to_disk()


class Gate:
    """A loopback port in front of a host that the test switches between four ways:
    ``forward`` (relay bytes both ways), ``silent`` (accept, then never answer),
    ``closed`` (refuse connections) and ``refuse <reason>`` (answer every greeting with
    a ``refuse`` of that reason and close, as a host does that is full or busy).
    ``drop()`` cuts every connection it holds.  With ``batch`` seconds it hands the
    host's bytes on in one piece for what arrives within that time of the first (a
    client then reads a host's whole answer at once)."""

    def __init__(self, target_port: int, batch: float = 0.0) -> None:
        self.target_port = target_port
        self.batch = batch
        self.mode = "forward"
        self.port = 0
        self.accepted = 0
        self._server: asyncio.Server | None = None
        self._held: set[asyncio.StreamWriter] = set()

    async def open(self) -> int:
        self._server = await asyncio.start_server(self._serve, LOCAL, self.port)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self.port

    async def set(self, mode: str) -> None:
        if mode == "closed" and self._server is not None:
            self._server.close()
            self._server = None
        elif mode != "closed" and self._server is None:
            await self.open()
        self.mode = mode

    def drop(self) -> None:
        for writer in list(self._held):
            writer.transport.abort()
        self._held.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        self._held.add(writer)
        if self.mode == "silent":
            with contextlib.suppress(OSError):
                await reader.read()  # until the client gives up
            writer.transport.abort()
            return
        if self.mode.startswith("refuse "):
            reason = RefuseReason(self.mode.removeprefix("refuse "))
            with contextlib.suppress(OSError):
                await reader.read(65536)  # the greeting
                writer.write(encode(m.Refuse(reason=reason, text="", versions=SUPPORTED_VERSIONS)))
                await writer.drain()
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(LOCAL, self.target_port)
        except OSError:
            writer.transport.abort()
            return
        self._held.add(up_writer)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, batch: float) -> None:
            with contextlib.suppress(OSError):
                while data := await src.read(65536):
                    deadline = asyncio.get_running_loop().time() + batch
                    while batch and (left := deadline - asyncio.get_running_loop().time()) > 0:
                        try:
                            more = await asyncio.wait_for(src.read(65536), left)
                        except TimeoutError:
                            break
                        if not more:
                            break
                        data += more
                    dst.write(data)
                    await dst.drain()
            dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer, 0.0), pipe(up_reader, writer, self.batch))

    async def close(self) -> None:
        await self.set("closed")
        self.drop()
        await asyncio.sleep(0)


class HostProcess:
    """A ``sorry-lan host --headless --no-mdns`` process, started by :meth:`spawn`."""

    def __init__(self, proc: asyncio.subprocess.Process, port: int, head: str) -> None:
        self.proc = proc
        self.port = port
        self.head = head  # what it printed before "listening on"

    @classmethod
    async def spawn(cls, *args: str) -> HostProcess:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "sorry_lan", "host", "--headless", "--no-mdns", *args,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert proc.stdout is not None
        head = ""
        while True:
            line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
            if not line:
                err = await proc.stderr.read() if proc.stderr else b""
                raise AssertionError(f"host exited: {err.decode()}")
            if line.startswith("listening on "):
                return cls(proc, int(line.rsplit(":", 1)[1]), head)
            head += line

    async def finish(self, clients: Sequence[GameClient] = ()) -> None:
        """Close ``clients``, and kill the host if it still runs."""
        for c in clients:
            await c.close()
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
