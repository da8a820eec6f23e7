"""Host bots in the core: a blocking bot thinks off the loop (Think), a quick one is
decided at once, and a bot that fails falls back to a simpler one (the game goes on)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import pytest
from pair import Pair

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import BotTurn, Table, TableConfig
from sorry_lan.bots import Position
from sorry_lan.bots.registry import FACTORIES
from sorry_lan.rules import Move
from sorry_lan.wire import messages as m

QUIET = HostOptions(heartbeat=1000.0, dead_after=5000.0)


class Broken:
    """A bot that raises whenever it is asked to choose."""

    kind = "broken"
    blocks = False

    def __init__(self, seed: int = 0, **_options: object) -> None:
        self.seed = seed

    def choose(self, position: Position, legal_moves: Sequence[Move]) -> Move:
        raise RuntimeError("the bot broke")


class BrokenSearch(Broken):
    """A broken bot that says it blocks, as the expert does."""

    blocks = True


def _bot_table(level: str, seed: int = 2) -> Table:
    table = Table(TableConfig(seats=2, auto_start=True, seed=seed, bot_level=level))
    table.add_bot(None, level=level)
    return table


def test_a_blocking_bot_is_asked_for_with_think_and_a_quick_one_decided_at_once() -> None:
    pair = Pair(_bot_table("expert"), QUIET)
    pair.hold_thinking = True
    _cid, ann = pair.join("ann")
    pair.play_first_moves([ann])
    game = pair.table.game
    assert game is not None and not game.over
    assert len(pair.held) == 1 and pair.core.thinking is pair.held[0].turn
    turn = pair.held[0].turn
    assert turn.blocks and turn.level == "expert" and turn.sid == game.state_id
    wake = pair.core.next_wakeup()
    assert wake is not None and wake > pair.now  # no busy wake-up while it thinks
    pair.release()
    pair.play_first_moves([ann])
    assert len(pair.thinks) >= 2 and pair.thinks[0].ticket < pair.thinks[1].ticket
    quick = Pair(_bot_table("greedy"), QUIET)
    _cid, bob = quick.join("bob")
    quick.play_first_moves([bob])
    assert quick.thinks == [] and quick.table.game is not None and quick.table.game.over


def test_a_stale_answer_is_not_played() -> None:
    pair = Pair(_bot_table("expert"), QUIET)
    pair.hold_thinking = True
    _cid, ann = pair.join("ann")
    pair.play_first_moves([ann])
    (think,) = pair.held
    game = pair.table.game
    assert game is not None
    sid = game.state_id
    move = think.turn.decide()
    assert pair.core.bot_decided(think.ticket + 1, move, pair.now) == []  # not that ticket
    assert game.state_id == sid
    pair.run(pair.core.bot_decided(think.ticket, move, pair.now))
    assert game.state_id != sid
    assert pair.core.bot_decided(think.ticket, move, pair.now) == []  # answered already


def _played_to_the_end(level: str, seed: int, caplog: pytest.LogCaptureFixture) -> Pair:
    """A game of a person (always her first move) and a bot of ``level``, to its end."""
    pair = Pair(_bot_table(level, seed=seed), QUIET)
    with caplog.at_level(logging.INFO, logger="sorry_lan.authority"):
        _cid, ann = pair.join("ann")
        pair.play_first_moves([ann])
    game = pair.table.game
    assert game is not None and game.over
    assert ann.last(m.GameOver).sid == game.state_id
    return pair


def test_a_failing_blocking_bot_falls_back_to_greedy_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(FACTORIES, "expert", BrokenSearch)
    pair = _played_to_the_end("expert", 6, caplog)
    assert pair.thinks and all(t.turn.level == "expert" for t in pair.thinks)
    assert "the expert bot failed" in caplog.text and "a greedy bot plays instead" in caplog.text
    assert "RuntimeError: the bot broke" in caplog.text


def test_a_failing_quick_bot_falls_back_to_random_then_to_the_first_move(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(FACTORIES, "greedy", Broken)
    assert _played_to_the_end("greedy", 7, caplog).thinks == []
    assert "the greedy bot failed" in caplog.text and "a random bot plays" in caplog.text
    caplog.clear()
    monkeypatch.setitem(FACTORIES, "random", Broken)
    monkeypatch.setitem(FACTORIES, "expert", BrokenSearch)
    _played_to_the_end("expert", 8, caplog)
    assert "the random bot failed" in caplog.text and "the first legal move" in caplog.text


def test_fallback_goes_expert_greedy_random_then_none() -> None:
    table = Table(TableConfig(seats=2, seed=2))
    for _ in range(2):
        table.add_bot(None, level="expert")
    table.start(None, 0.0)
    turn = table.bot_turn(0.0)
    assert turn is not None
    levels = []
    step: BotTurn | None = turn
    while step is not None:
        levels.append(step.level)
        step = step.fallback()
    assert levels == ["expert", "greedy", "random"]
    other = BotTurn(0, 0, "table-greedy", None, turn.position, turn.moves)
    assert other.fallback() == BotTurn(0, 0, "greedy", None, turn.position, turn.moves)
    simpler = turn.fallback()
    assert simpler is not None and turn.blocks and not simpler.blocks
    assert turn.decide_or_fall_back() in turn.moves
