"""The real client (run_tui + ClientController) on a pipe input, against a real host."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output
from tui_harness import Driver, _Sink

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.client import GameClient
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.tui.app import TuiApp
from sorry_lan.tui.controller import ClientController, ClientFactory
from sorry_lan.tui.finder import GameFinder
from sorry_lan.tui.play import JoinRequest, TuiOptions, run_tui
from sorry_lan.tui.state import UiState

LOCAL = "127.0.0.1"


async def host_table(
    *,
    bots: int = 0,
    seats: int = 4,
    auto_start: bool = False,
    owner: str | None = None,
    pin: str | None = None,
    **config: Any,
) -> tuple[HostServer, bytes | None]:
    """A HostServer on 127.0.0.1 (any port); with ``owner``, a seat for the host's
    player (like ``sorry-lan host``) and its token."""
    config.setdefault("seed", 7)
    table = Table(TableConfig(seats=seats, auto_start=auto_start, **config))
    token = None
    if owner is not None:
        player, token = table.join(None, owner)
        table.owner = player.pid
    for _ in range(bots):
        table.add_bot(None)
    server = HostServer(table, HostOptions(pin=pin, heartbeat=0.5, dead_after=5.0))
    await server.start(LOCAL, 0)
    return server, token


@asynccontextmanager
async def board(
    *,
    state: UiState | None = None,
    client: GameClient | None = None,
    join: JoinRequest | None = None,
    finder_zc: Any = None,
    make_client: ClientFactory | None = None,
    cols: int = 80,
    rows: int = 24,
) -> AsyncIterator[tuple[Driver, ClientController, asyncio.Task[int]]]:
    """Run the client; yields a driver, the controller and the run_tui task."""
    st = state or UiState(default_name="ann")
    controller = ClientController(st)
    if make_client is not None:
        controller.make_client = make_client
    size = [cols, rows]
    with create_pipe_input() as inp:
        out = Vt100_Output(_Sink(), lambda: Size(rows=size[1], columns=size[0]), term="xterm")
        opts = TuiOptions(input=inp, output=out, refresh_interval=None, mouse=False, ascii=False)
        started: asyncio.Future[TuiApp] = asyncio.get_running_loop().create_future()
        finder = None if finder_zc is None else GameFinder(st, make_zc=finder_zc, quiet_after=1.0)
        task = asyncio.create_task(
            run_tui(st, controller, opts, client=client, join=join, finder=finder, started=started)
        )
        tui = await asyncio.wait_for(started, 5)
        driver = Driver(tui, inp, size)
        try:
            await driver.wait_for(lambda: tui.app.renderer.last_rendered_screen is not None)
            await driver.settle()
            yield driver, controller, task
        finally:
            if tui.app.is_running:
                tui.app.exit()
            await asyncio.wait_for(task, 10)
