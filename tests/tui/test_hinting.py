"""Hints at a table (host --hints): the flag reaches the client, the hints judge only
what the seat was told, and the line mode says them best first."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from line_harness import lines_at

from sorry_lan.authority.announce import Announcer
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.bots import position_of
from sorry_lan.bots.hints import cost, move_chances, ranked
from sorry_lan.net.client import GameClient
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.rules import Game, Variant
from sorry_lan.tui import lines
from sorry_lan.tui.hinting import HintsOff, allowed, hint_job, judge
from sorry_lan.wire import messages as m


async def _host(hints: bool, variant: Variant = Variant.STANDARD, bot_delay: float = 0.0
                ) -> HostServer:
    table = Table(TableConfig(variant=variant, seats=2, auto_start=True, seed=11, hints=hints,
                              bot_delay=bot_delay))
    table.add_bot(None)
    server = HostServer(table, HostOptions(heartbeat=0.5, dead_after=3.0))
    await server.start("127.0.0.1", 0)
    return server


def test_the_lobby_says_hints_only_from_protocol_4_on() -> None:
    def nowhere(conn: object, msg: m.Message, frame: bytes | None) -> None:
        raise AssertionError("nothing is sent here")

    tell = Announcer(Table(TableConfig(seats=2, hints=True)), nowhere)
    assert tell.lobby_message(4).hints is True
    assert tell.lobby_message(3).hints is None  # an older client reads it as off
    off = Announcer(Table(TableConfig(seats=2)), nowhere)
    assert off.lobby_message(4).hints is False


async def _follow_hints(variant: Variant) -> int:
    """Play our seat by the best hint; at each of our decisions the position the hint
    judges is exactly the host's view for our seat (nothing hidden in it)."""
    server = await _host(True, variant)
    client = GameClient("127.0.0.1", server.address[1], "Ann")
    compared = 0
    try:
        await client.connect()
        while True:
            ev = await asyncio.wait_for(client.next_event(), 30)
            if isinstance(ev, m.GameOver):
                break
            if isinstance(ev, m.LegalMoves) and client.model.moves is ev:
                assert allowed(client.model)
                game = server.table.game
                assert game is not None
                job = hint_job(client.model)
                assert job[1] == position_of(game)  # what the seat may know, no more
                assert job[2] == game.legal_moves()
                chances = judge(job)
                assert set(chances) == {o.id for o in ev.moves}
                assert all(0.0 <= c <= 1.0 for c in chances.values())
                compared += 1
                client.play(max(chances, key=lambda i: chances[i]))
    finally:
        await client.close()
        await server.close()
    return compared


def test_hints_judge_exactly_what_the_seat_was_told() -> None:
    assert asyncio.run(_follow_hints(Variant.STANDARD)) > 10


def test_hints_judge_the_own_hand_in_play_for_points() -> None:
    assert asyncio.run(_follow_hints(Variant.POINTS)) > 10


async def _line_game(hints: bool) -> list[str]:
    def answer(line: str, said: list[str]) -> list[str]:
        if line.startswith("Type your move's number"):
            first = said.count(line) == 1  # once: the hints, then a move (or, without, quit)
            return (["hint"] if first else []) + ["1" if hints else "quit"]
        return ["quit"] if line.startswith("The game is over") else []

    return await lines_at(await _host(hints), answer)


def test_the_line_mode_says_the_hints_best_first() -> None:
    said = asyncio.run(_line_game(True))
    assert ("Hints are on at this table: on your turn, type hint to hear each move's "
            "chance to win.") in said
    head = said.index("Ann, the hints for your moves, best first.")
    block = []
    for line in said[head + 1:]:
        if not (line.startswith("Move ") and " to win: " in line):
            break
        block.append(line)
    assert block  # one sentence a move
    shown = [int(line.split(": ")[1].split("%")[0]) for line in block]
    assert shown == sorted(shown, reverse=True)


def test_without_the_option_the_line_mode_says_there_are_no_hints() -> None:
    said = asyncio.run(_line_game(False))
    assert not any(line.startswith("Hints are on") for line in said)
    assert any("this table has no hints" in line for line in said)


def test_rank_and_cost() -> None:
    chances = [0.4, 0.62, 0.55]
    assert ranked(chances) == [1, 2, 0]
    assert cost(chances, 0) == 0.62 - 0.4
    assert cost(chances, 1) == 0.0
    game = Game(Variant.STANDARD, (0, 2), seed=1)
    game.start()
    assert move_chances(position_of(game), []) == []


def test_no_offer_no_hints() -> None:
    client = GameClient("127.0.0.1", 1, "Ann")
    try:
        hint_job(client.model)
    except HintsOff:
        pass
    else:
        raise AssertionError("a hint with nothing on offer")


THINKING = "greedy bot 1 is thinking."


async def _thinking_heard() -> list[str]:
    def answer(line: str, said: list[str]) -> list[str]:
        if line.startswith("Type your move's number"):
            return ["1"]
        done = said.count(THINKING) == 3 or line.startswith("The game is over")
        return ["quit"] if done else []

    return await lines_at(await _host(False, bot_delay=0.4), answer)


def test_the_line_mode_says_a_slow_bot_is_thinking(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lines, "THINKING_SAID_AFTER", 0.1)  # the bot pauses 0.4 s
    said = asyncio.run(_thinking_heard())
    assert said.count(THINKING) == 3
    # Once a turn: its move comes between two.
    at = [i for i, line in enumerate(said) if line == THINKING]
    assert all(b - a > 1 for a, b in itertools.pairwise(at))
