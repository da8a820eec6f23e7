"""The replay screen: its keys (a turn forward and back, the start and the end, the next
and previous Sorry! or bump, a turn by number, play on and pause, faster and slower,
back to the game over or quit), the game over's key that opens it, and the real
application on a pipe input drawing the board, the panel and the log as it moves."""

from __future__ import annotations

import pytest
from fake_controls import FakeControls, golden_tape, press, replay_state
from told import ToldModel
from tui_harness import running

from sorry_lan.codes import RecordFailure
from sorry_lan.records import RecordError
from sorry_lan.replay import SPEEDS, Replay, Tape
from sorry_lan.rules import Card, Colour
from sorry_lan.tui.screens.replay_panel import log_lines, panel_lines
from sorry_lan.tui.state import Screen, UiState
from sorry_lan.wire import messages as m


def _at(c: FakeControls) -> int:
    assert c.state.replay is not None
    return c.state.replay.at


def test_the_arrows_home_end_and_the_brackets_move_the_replay() -> None:
    c = FakeControls(replay_state())
    assert press(c, "left") and _at(c) == 0 and c.state.notice == "the start of the game"
    assert press(c, "right") and press(c, "l") and _at(c) == 2 and c.state.notice == ""
    assert press(c, "h") and _at(c) == 1
    c.state.log_scroll = 7
    assert press(c, "end") and _at(c) == golden_tape().last_n() and c.state.log_scroll == 0
    assert press(c, "right") and c.state.notice == "the end of the game"
    assert press(c, "home") and _at(c) == 0
    marked = [k for k, s in enumerate(golden_tape().steps, 1) if s.marked]
    assert press(c, "]") and _at(c) == marked[0]
    assert press(c, "]") and _at(c) == marked[1]
    assert press(c, "[") and _at(c) == marked[0]
    assert press(c, "[") and _at(c) == marked[0] and "before this turn" in c.state.notice


def test_digits_then_enter_go_to_a_turn_and_a_turn_past_the_end_is_said() -> None:
    c = FakeControls(replay_state())
    assert not press(c, "enter")  # nothing typed: Enter does nothing here
    for key in "042":
        assert press(c, key)
    assert c.state.replay_goto == "42" and press(c, "backspace") and c.state.replay_goto == "4"
    assert press(c, "2") and press(c, "enter") and _at(c) == 42 and c.state.replay_goto == ""
    for key in "999":
        press(c, key)
    assert press(c, "enter") and _at(c) == 42
    assert c.state.notice == f"no turn 999: the last is {golden_tape().last_n()}"
    press(c, "7")
    assert press(c, "escape") and c.state.replay_goto == "" and c.state.screen is Screen.REPLAY


def test_space_plays_and_pauses_and_plus_minus_change_the_speed() -> None:
    c = FakeControls(replay_state())
    rp = c.state.replay
    assert rp is not None
    assert press(c, "space") and rp.playing and rp.due is not None
    assert press(c, "+") and rp.interval == SPEEDS[2] and c.state.notice == "2 turns a second"
    assert press(c, "-") and press(c, "-") and c.state.notice == "a turn every 2 seconds"
    assert press(c, "space") and not rp.playing


def test_q_quits_a_replay_on_its_own_and_goes_back_to_the_game_over_from_a_table() -> None:
    alone = FakeControls(replay_state())
    assert press(alone, "q") and alone.done == ["leave"]
    alone = FakeControls(replay_state())
    assert press(alone, "c-c") and alone.done == ["leave"]
    back = FakeControls(replay_state(5, Screen.OVER))
    assert press(back, "q") and back.state.screen is Screen.OVER and back.state.replay is None
    assert back.done == []
    back = FakeControls(replay_state(5, Screen.OVER))
    assert press(back, "escape") and back.state.screen is Screen.OVER
    back = FakeControls(replay_state(5, Screen.OVER))
    assert press(back, "c-c") and back.state.confirm_quit  # at a table: asks first


def test_v_at_the_game_over_opens_the_replay_of_the_game_from_its_start() -> None:
    c = FakeControls(UiState(screen=Screen.OVER, game_tape=golden_tape))
    assert press(c, "v") and c.state.screen is Screen.REPLAY and c.state.replay_back is Screen.OVER
    assert c.state.replay is not None and c.state.replay.at == 0
    watcher = FakeControls(UiState(screen=Screen.OVER, spectating=True, game_tape=golden_tape))
    assert press(watcher, "v") and watcher.state.screen is Screen.REPLAY
    none = FakeControls(UiState(screen=Screen.OVER, game_tape=lambda: None))
    assert press(none, "v") and none.state.screen is Screen.OVER
    assert none.state.notice == "this board cannot replay the game"

    def refused() -> None:
        raise RecordError(RecordFailure.ILLEGAL, n=7, move="R1 1->9")

    bad = FakeControls(UiState(screen=Screen.OVER, game_tape=refused))
    assert press(bad, "v") and bad.state.notice == "turn 7: R1 1->9 is not a legal move"


def test_the_panel_words_the_card_the_move_and_the_pawns_it_sent_back() -> None:
    tape = golden_tape()
    sorry = next(k for k, s in enumerate(tape.steps, 1) if s.sorry)
    rp = Replay(tape, sorry)
    text = [t for _style, t in panel_lines(rp)]
    step = tape.steps[sorry - 1]
    assert text[0] == f"Replay: turn {step.n} of {tape.last_n()}"
    assert text[2].startswith("Card: Sorry!: from START onto an opponent")
    assert text[3].startswith("Sorry!: ") and "bumps" in text[3]
    assert text[4].strip().endswith(f"sent back to START from {tape.steps[sorry - 1].moved[0].to}")
    assert text[-1] == "paused (1 turn a second)"
    assert log_lines(rp)[-1].startswith(f"{step.n}. ") and len(log_lines(rp)) == sorry + 1
    rp.to_end()
    assert any(t.endswith(" won") for t in (t for _s, t in panel_lines(rp)))
    assert panel_lines(Replay(tape), "12")[-1][1] == "go to turn: 12_"


@pytest.mark.asyncio
async def test_the_real_application_steps_jumps_plays_and_goes_back() -> None:
    tape = golden_tape()
    st = UiState(screen=Screen.OVER, game_tape=golden_tape, seated=tape.seated)
    async with running(st, 80, 24) as (d, _actions):
        await d.keys("v")
        assert "Replay: the start" in d.screen_text()
        assert "v replay" not in d.screen_text() and "q back" in d.screen_lines()[-1]
        await d.keys("lll")
        assert f"Replay: turn 3 of {tape.last_n()}" in d.screen_text()
        assert any(line.startswith(" 3. ") for line in d.screen_lines())  # the log follows
        await d.keys("h")
        assert f"Replay: turn 2 of {tape.last_n()}" in d.screen_text()
        await d.keys("60\r")
        assert f"Replay: turn 60 of {tape.last_n()}" in d.screen_text()
        await d.keys("\x1b[F")  # End
        assert " won" in d.screen_text()
        await d.keys("\x1b[H")  # Home
        assert "Replay: the start" in d.screen_text()
        await d.keys("++++ ")  # the fastest, and play
        await d.wait_for(lambda: "Replay: turn 3 of" in d.screen_text())
        assert "playing: 10 turns a second" in d.screen_text()
        await d.keys(" ")
        paused = d.screen_text()
        assert "paused (10 turns a second)" in paused
        await d.keys("q")
        assert st.screen is Screen.OVER and "v replay" in d.screen_lines()[-1]


@pytest.mark.asyncio
async def test_the_real_application_replays_on_its_own_and_q_leaves() -> None:
    st = replay_state()
    async with running(st, 80, 24) as (d, actions):
        assert "Replay: the start" in d.screen_text()
        top = d.screen_lines()[0]  # no table: where it is instead of a connection
        assert "connected" not in top and top.rstrip().endswith(f" 0/{golden_tape().last_n()}")
        await d.keys("]")
        assert "sent back to START" in d.screen_text()
        d.inp.send_text("q")
        await d.wait_for(lambda: not d.tui.app.is_running)
    assert [name for name, _args in actions.calls] == ["leave"]


def test_a_clients_board_replays_the_game_as_it_was_told() -> None:
    from sorry_lan.tui.controller import ClientController

    st = UiState()
    controller = ClientController(st)
    assert st.game_tape is not None and st.game_tape() is None  # nothing told yet
    tape = golden_tape()
    model = ToldModel("eve", None, owner=False, spectate=True)
    [snap] = model.hear(_snapshot(tape))
    controller.shown = model.view_at(snap)  # (as its loop does for each event it shows)
    told = st.game_tape()
    assert told is not None and told.seated == tape.seated and told.steps == ()


def _snapshot(tape: Tape) -> m.Snapshot:
    colours = tuple(Colour(c) for c in tape.seated)
    return m.Snapshot(sid=1, variant=tape.variant, you=None, colours=colours,
                      pawns=tape.start, turn=colours[0], card=Card.ONE, hand=None, pile=44,
                      discards=0, top=None, discarded=None, scores=None)  # fmt: skip

