"""More time for a turn through ClientModel at a real HostCore, in memory, on the
pair's clock: the countdown the model exposes follows the host's ``time``, the line
mode's ``time`` asks (once, on your turn, at a table with a timer) and says the news
to everyone, its 10-second warning comes again before the new deadline, and the
board's countdown and its key follow.  No sockets, no sleeps."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair
from test_model_swaps import Told as SwapsTold

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import ClientModel
from sorry_lan.net.client import GameClient
from sorry_lan.tui.line_help import COMMAND_WORDS, help_lines
from sorry_lan.tui.lines import command, not_understood
from sorry_lan.tui.screens.game import TABLE


class Told(SwapsTold):
    """A client end whose every event a line-mode teller (on the pair's clock) and a
    board hear, and that types line-mode commands."""

    def __init__(self, model: ClientModel, pair: Pair) -> None:
        super().__init__(model, clock=lambda: pair.now)

    def typed(self, line: str) -> list[str]:
        """What the line mode answers ``line`` (a refusal as it says it)."""
        try:
            return command(Typist(self.model), self.teller, line) or []  # type: ignore[arg-type]
        except ValueError as exc:
            return [not_understood(str(exc))]


class Typist:
    """What the ``time`` command uses of a ``GameClient``, on a model."""

    def __init__(self, model: ClientModel) -> None:
        self.model = model

    def ask_more_time(self) -> None:
        self.model.ask_more_time()


def _game(timeout: float | None = 30.0) -> tuple[Pair, Told, Told]:
    """ann and bob at a game of two under way: the one on turn first."""
    pair = Pair(Table(TableConfig(seats=2, auto_start=True, seed=43, turn_timeout=timeout)))
    ends = []
    for name in ("ann", "bob"):
        model = ClientModel(name)
        model.join(pair.now)
        ends.append(pair.connect(Told(model, pair))[1])
        pair.pump()
    ann, bob = ends
    ann.heard(), bob.heard()
    mover, other = (ann, bob) if ann.model.moves is not None else (bob, ann)
    assert mover.model.moves is not None and other.model.moves is None
    return pair, mover, other


def test_the_countdown_follows_the_new_deadline_and_the_bot_waits_for_it() -> None:
    pair, mover, other = _game()
    sid = mover.model.sid
    assert mover.model.seconds_left(pair.now) == 30
    assert other.model.seconds_left(pair.now) is None  # (not on turn: no countdown)
    pair.advance(20.0)
    assert mover.model.seconds_left(pair.now) == 10
    assert mover.typed("time") == []
    pair.pump()
    assert mover.heard() == ["You have 30 more seconds."]
    assert other.heard() == [f"{mover.model.name} has 30 more seconds."]
    assert mover.model.seconds_left(pair.now) == 40
    left = mover.board.seconds_left()
    assert left is not None and 38 <= left <= 40
    pair.advance(39.5)
    assert mover.model.sid == sid and mover.model.seconds_left(pair.now) == 1
    pair.advance(1.0)
    assert mover.model.sid != sid  # the bot played the seat at the new deadline


def test_time_is_once_a_turn_only_on_your_turn_and_said_why_not() -> None:
    pair, mover, other = _game()
    assert other.typed("time") == [
        "Your command did not work: you can ask for more time only on your turn; "
        "type help to hear every command."]
    assert mover.typed("time") == []
    pair.pump()
    mover.heard(), other.heard()
    assert mover.typed("time") == [
        "Your command did not work: you already have more time for this turn: more time "
        "is once a turn; type help to hear every command."]
    pair.pump()
    assert mover.heard() == [] and other.heard() == []


def test_a_table_without_a_timer_gives_no_more_time() -> None:
    _pair, mover, _other = _game(timeout=None)
    assert mover.typed("time") == [
        "Your command did not work: this table has no turn timer: take your time; "
        "type help to hear every command."]
    assert mover.model.time_asked is None


def test_the_ten_second_warning_comes_again_before_the_new_deadline() -> None:
    pair, mover, _other = _game()
    teller = mover.teller
    pair.advance(20.0)
    assert teller.warning() is not None  # 10 s left of 30
    assert teller.warning_in() is None  # (once)
    mover.typed("time")
    pair.pump()
    mover.heard()
    assert teller.warning_in() == 30.0  # 40 s left: warned at 10 s left again
    assert teller.warning() is None
    pair.advance(30.0)
    assert teller.warning() == f"{mover.model.name}, 10 seconds left to choose."


def test_time_is_a_command_word_in_the_games_help_and_a_key_on_the_board() -> None:
    assert "time" in COMMAND_WORDS
    assert any("type time" in x.lower() for x in help_lines("game"))
    assert not any("type time" in x.lower() for x in help_lines("lobby"))
    keys = [c for c in TABLE.commands if "+" in c.keys]
    assert len(keys) == 1 and keys[0].help is not None and keys[0].hint is not None
    assert callable(GameClient.ask_more_time)


def test_the_board_key_asks_and_its_countdown_follows() -> None:
    pair, mover, _other = _game()
    pair.advance(25.0)
    before = mover.board.deadline
    assert before is not None
    mover.model.ask_more_time()
    pair.pump()
    after = mover.board.deadline
    assert after is not None and after - time.monotonic() > 30
    assert mover.board.notice == "You have 30 more seconds."
