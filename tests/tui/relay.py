"""Test helper: a TCP relay on 127.0.0.1 that can play a host going away and coming back.

``Relay(target_port)`` forwards every connection to ``127.0.0.1:target_port``.
``cut()`` drops all relayed connections at once (as a crash or a dead Wi-Fi would) and
stops listening, so new connections are refused; ``resume(target_port=None)`` listens
again on the same port, optionally forwarding to another host from then on.  It knows
nothing of the protocol and never touches anything but the loopback address.
"""

from __future__ import annotations

import asyncio
import contextlib

LOCAL = "127.0.0.1"


class Relay:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.accepted = 0

    async def start(self) -> int:
        self._server = await asyncio.start_server(
            self._handle, LOCAL, self.port, reuse_address=True
        )
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self.port

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        try:
            up_reader, up_writer = await asyncio.open_connection(LOCAL, self.target_port)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, up_writer}
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self._writers.discard(writer)
            writer.transport.abort()

    async def cut(self) -> None:
        """Drop every relayed connection and refuse new ones until :meth:`resume`."""
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()
        await asyncio.sleep(0)  # let the pipes see their ends

    async def resume(self, target_port: int | None = None) -> None:
        if target_port is not None:
            self.target_port = target_port
        await self.start()

    async def close(self) -> None:
        await self.cut()
        with contextlib.suppress(Exception):
            await asyncio.sleep(0.01)
