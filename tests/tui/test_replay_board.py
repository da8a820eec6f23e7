"""``run_replay``: the real application on the replay screen alone (a pipe input), in
the variant and with the names of the game shown; q returns, nothing is sent."""

from __future__ import annotations

import asyncio

import pytest
from fake_controls import golden_tape
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output
from tui_harness import _Sink

from sorry_lan.tui.play import TuiOptions
from sorry_lan.tui.replay_board import NoTable, replay_state, run_replay
from sorry_lan.tui.state import Link, Screen


def test_the_state_shows_the_tape_from_its_start_with_no_table() -> None:
    tape = golden_tape("points-3")
    st = replay_state(tape)
    assert st.screen is Screen.REPLAY and st.replay is not None and st.replay.at == 0
    assert st.replay_back is None and st.link is Link.OFFLINE and st.variant is tape.variant
    assert st.names == dict(tape.names) and st.game_title == tape.table
    NoTable().leave()  # (every request does nothing)


@pytest.mark.asyncio
async def test_run_replay_shows_the_board_and_returns_on_q() -> None:
    sink = _Sink()
    with create_pipe_input() as inp:
        out = Vt100_Output(sink, lambda: Size(rows=24, columns=80), term="xterm")
        task = asyncio.create_task(run_replay(golden_tape(), TuiOptions(input=inp, output=out)))
        for _ in range(200):
            if "Replay" in sink.getvalue():
                break
            await asyncio.sleep(0.02)
        inp.send_text("ll")
        await asyncio.sleep(0.2)
        inp.send_text("q")
        assert await asyncio.wait_for(task, 5) == 0
    assert "Replay: turn 2 of" in sink.getvalue()
