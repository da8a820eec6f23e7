"""Keypress-to-redrawn-screen time of the text client (goal: under one 16 ms frame).

Runs the real application in-process on a pipe input and a VT100 output into memory,
sends "down" keys that change the selected move (so the board preview changes), and
times each key from being written to the input until the screen has been redrawn.
Also times the render step alone with the board cache cleared, and, with the real
client (``ClientController`` following a ``HostServer`` on 127.0.0.1 where four bots
play while we watch), the time from a host message arriving to the screen showing it.
Prints median and p99 in milliseconds (wall clock, and this process's CPU time, which
other load on the machine does not inflate).
Usage: ``python scripts/bench_tui.py [--keys N] [--size 80x24] [--events N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import statistics
import sys
import time
from pathlib import Path

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "tui"))
from board_demo import DemoController, demo_state

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.tui import board as board_mod
from sorry_lan.tui.app import TuiApp
from sorry_lan.tui.controller import ClientController
from sorry_lan.tui.play import TuiOptions, run_tui
from sorry_lan.tui.state import LOG_LINES, UiState
from sorry_lan.wire import messages as m

FRAME_MS = 16.0


class _Sink(io.StringIO):
    encoding = "utf-8"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench(keys: int, cols: int, rows: int) -> tuple[list[float], list[float], list[float]]:
    state = demo_state()
    ctl = DemoController(state)
    ctl.deal(0)
    with create_pipe_input() as inp:
        out = Vt100_Output(_Sink(), lambda: Size(rows=rows, columns=cols), term="xterm")
        tui = TuiApp(state, ctl, input=inp, output=out, refresh_interval=None)
        app = tui.app
        task = asyncio.create_task(tui.run_async())
        while app.render_counter == 0:
            await asyncio.sleep(0.01)
        # Wait on an event set after each render: a busy wait would keep the loop
        # from going idle, and prompt_toolkit postpones redraws until it is idle.
        rendered = asyncio.Event()
        app.after_render += lambda _app: rendered.set()
        key_ms: list[float] = []
        cpu_ms: list[float] = []
        for _ in range(keys):
            rendered.clear()
            t0, c0 = time.perf_counter(), time.process_time()
            inp.send_text("\x1b[B")
            await rendered.wait()
            key_ms.append((time.perf_counter() - t0) * 1000)
            cpu_ms.append((time.process_time() - c0) * 1000)
        render_ms: list[float] = []
        for _ in range(keys):
            state.move_selection(1)
            board_mod._render.cache_clear()
            t0 = time.perf_counter()
            app.renderer.render(app, app.layout)
            render_ms.append((time.perf_counter() - t0) * 1000)
        # A long evening: the log of one game, then as long as ten games make it (the
        # log keeps LOG_LINES entries); the CPU of each key's whole redraw.
        for games in (1, 10):
            state.log.clear()
            state.log.extend(_evening_log(games))
            evening: list[float] = []
            for _ in range(keys):
                rendered.clear()
                c0 = time.process_time()
                inp.send_text("\x1b[B")
                await rendered.wait()
                evening.append((time.process_time() - c0) * 1000)
            EVENING[games] = evening
        app.exit()
        await task
    return key_ms, cpu_ms, render_ms


#: Redraw CPU times (ms) with the log of the evening's first game and of its tenth.
EVENING: dict[int, list[float]] = {}
GAME_ENTRIES = 450  # about what a four-player game writes to the log


def _evening_log(games: int) -> list[str]:
    words = "Red plays a 7: R2 moves 4 squares, slides to 13 and bumps Green's G1 back to START"
    entries = [f"{n}. {words[: 30 + (n * 7) % 60]}" for n in range(games * GAME_ENTRIES)]
    return entries[-LOG_LINES:]


async def bench_live(events: int, cols: int, rows: int) -> list[float]:
    """Host message received -> screen redrawn, for moves of a live bot game."""
    table = Table(TableConfig(seats=4, auto_start=True, bot_delay=0.01))
    for _ in range(4):
        table.add_bot(None)
    server = HostServer(table, HostOptions(stay=True))
    await server.start("127.0.0.1", 0)
    state = UiState()
    ctl = ClientController(state)
    waits: list[float] = []
    pending: list[float] = []
    done = asyncio.Event()
    started: asyncio.Future[TuiApp] = asyncio.get_running_loop().create_future()

    def seen(ev: object) -> None:
        if isinstance(ev, m.Events):
            pending.append(client.event_at)  # when it arrived

    def rendered(_app: object) -> None:
        now = time.monotonic()  # the clock of event_at
        waits.extend((now - at) * 1000 for at in pending)
        pending.clear()
        if len(waits) >= events or state.winner:
            done.set()

    ctl.on_event = seen
    client = GameClient("127.0.0.1", server.address[1], "watcher", ClientOptions(spectate=True))
    try:
        await client.connect()
        with create_pipe_input() as inp:
            out = Vt100_Output(_Sink(), lambda: Size(rows=rows, columns=cols), term="xterm")
            opts = TuiOptions(input=inp, output=out, refresh_interval=None, mouse=False)
            task = asyncio.create_task(
                run_tui(state, ctl, opts, client=client, stop=done.wait(), started=started)
            )
            tui = await started
            tui.app.after_render += rendered
            await asyncio.wait_for(task, 120)
    finally:
        await server.close()
    return waits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=300)
    parser.add_argument("--size", default="80x24", help="terminal size, COLSxROWS")
    parser.add_argument("--events", type=int, default=200, help="live-game moves to time")
    args = parser.parse_args(argv)
    cols, rows = (int(v) for v in args.size.lower().split("x"))
    key_ms, cpu_ms, render_ms = asyncio.run(bench(args.keys, cols, rows))
    live_ms = asyncio.run(bench_live(args.events, cols, rows)) if args.events > 0 else []
    rows_out = [
        ("keypress -> redrawn (wall)", key_ms),
        ("keypress -> redrawn (cpu)", cpu_ms),
        ("render only, cold cache", render_ms),
    ]
    rows_out += [(f"redraw cpu, game {g} log", v) for g, v in sorted(EVENING.items())]
    if live_ms:
        rows_out.append((f"host move -> shown (n={len(live_ms)})", live_ms))
    for label, values in rows_out:
        med, p99 = statistics.median(values), _pct(values, 0.99)
        print(f"{label:28} {cols}x{rows}: median {med:6.2f} ms   p99 {p99:6.2f} ms")
    try:
        load = os.getloadavg()[0]
        print(f"load average (1 min): {load:.2f} on {os.cpu_count()} cpus")
    except OSError:
        pass
    ratio = statistics.median(EVENING[10]) / statistics.median(EVENING[1])
    print(f"redraw cpu, tenth game / first: {ratio:.2f}x (goal: within 1.2x)")
    ok = statistics.median(key_ms) < FRAME_MS
    print(f"goal: median keypress under {FRAME_MS:.0f} ms: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
