"""Run a real TuiApp in-process on a pipe input and a VT100 output of a chosen size."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from sorry_lan.rules.variants import Variant
from sorry_lan.tui.app import TuiApp
from sorry_lan.tui.state import UiState


@dataclass
class FakeActions:
    """Records every call the UI makes."""

    calls: list[tuple[str, tuple[object, ...]]] = field(default_factory=list)

    def _rec(self, name: str, *args: object) -> None:
        self.calls.append((name, args))

    def join(self, address: str, name: str, pin: str, watch: bool = False) -> None:
        self._rec("join", address, name, pin, *(("watch",) if watch else ()))

    def choose_colour(self, colour: int) -> None:
        self._rec("choose_colour", colour)

    def ask_swap(self, colour: int | None) -> None:
        self._rec("ask_swap", colour)

    def answer_swap(self, accept: bool) -> None:
        self._rec("answer_swap", accept)

    def ready(self) -> None:
        self._rec("ready")

    def add_bot(self) -> None:
        self._rec("add_bot")

    def remove_bot(self) -> None:
        self._rec("remove_bot")

    def cycle_bot(self) -> None:
        self._rec("cycle_bot")

    def set_variant(self, variant: Variant) -> None:
        self._rec("set_variant", variant)

    def start(self) -> None:
        self._rec("start")

    def play(self, move_id: int) -> None:
        self._rec("play", move_id)

    def chat(self, text: str) -> None:
        self._rec("chat", text)

    def rematch(self) -> None:
        self._rec("rematch")

    def reconnect(self) -> None:
        self._rec("reconnect")

    def leave(self) -> None:
        self._rec("leave")

    def more_time(self) -> None:
        self._rec("more_time")

    def hint(self) -> None:
        self._rec("hint")


class _Sink(io.StringIO):
    encoding = "utf-8"


class Driver:
    """Sends keys and reads back the last rendered screen."""

    def __init__(self, tui: TuiApp, inp: PipeInput, size: list[int]) -> None:
        self.tui = tui
        self.inp = inp
        self._size = size

    @property
    def cols(self) -> int:
        return self._size[0]

    def screen_lines(self) -> list[str]:
        screen = self.tui.app.renderer.last_rendered_screen
        if screen is None:
            return []
        cols, rows = self._size
        buf = screen.data_buffer
        return ["".join(buf[y][x].char for x in range(cols)) for y in range(rows)]

    def screen_text(self) -> str:
        return "\n".join(self.screen_lines())

    def styles_at(self, row: int) -> list[str]:
        screen = self.tui.app.renderer.last_rendered_screen
        assert screen is not None
        return [screen.data_buffer[row][x].style for x in range(self._size[0])]

    async def wait_for(self, cond: Callable[[], bool], timeout: float = 5.0) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not cond():
            if loop.time() > end:
                raise AssertionError("timed out; screen:\n" + self.screen_text())
            await asyncio.sleep(0.01)

    async def settle(self) -> None:
        """Wait until a render has happened after everything sent so far."""
        self.tui.invalidate()
        before = self.tui.app.render_counter
        await self.wait_for(lambda: self.tui.app.render_counter > before)
        await asyncio.sleep(0.02)
        before = self.tui.app.render_counter
        self.tui.invalidate()
        await self.wait_for(lambda: self.tui.app.render_counter > before)

    async def keys(self, data: str) -> None:
        self.inp.send_text(data)
        await self.settle()

    async def resize(self, cols: int, rows: int) -> None:
        self._size[:] = [cols, rows]
        await self.settle()


@asynccontextmanager
async def running(
    state: UiState, cols: int = 80, rows: int = 24, **kwargs: object
) -> AsyncIterator[tuple[Driver, FakeActions]]:
    actions = FakeActions()
    size = [cols, rows]
    with create_pipe_input() as inp:
        out = Vt100_Output(_Sink(), lambda: Size(rows=size[1], columns=size[0]), term="xterm")
        kwargs.setdefault("ascii", False)  # whatever the locale of the machine running tests
        tui = TuiApp(state, actions, input=inp, output=out, refresh_interval=None, **kwargs)  # type: ignore[arg-type]
        task = asyncio.create_task(tui.run_async())
        driver = Driver(tui, inp, size)
        try:
            await driver.wait_for(lambda: tui.app.renderer.last_rendered_screen is not None)
            await driver.settle()
            yield driver, actions
        finally:
            if tui.app.is_running:
                tui.app.exit()
            await asyncio.wait_for(task, 5)
