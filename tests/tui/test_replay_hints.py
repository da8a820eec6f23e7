"""The replay's hints: a person's move a hint rates much lower than the best is marked
with what it cost; bots' moves and a tape without its record are not judged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sorry_lan.bots import position_of
from sorry_lan.bots.hints import COSTLY
from sorry_lan.records.check import check
from sorry_lan.replay import Replay, from_record
from sorry_lan.rules import Game, Move
from sorry_lan.tui.replay_hints import Costs, cost_line
from sorry_lan.tui.screens.replay_panel import panel_lines

GOLDEN = Path(__file__).resolve().parents[2] / "protocol" / "records"


def golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data


def test_the_replay_is_told_each_decision_as_it_stood() -> None:
    record = golden("standard-2")
    seen: list[tuple[int, int, Move]] = []

    def decided(n: int, game: Game, move: Move) -> None:
        assert move in game.legal_moves()
        seen.append((n, game.turn, move))

    check(record, decided=decided)
    moves = [t for t in record["turns"] if t["type"] == "move"]
    assert [n for n, _c, _m in seen] == [t["n"] for t in moves]


def test_a_persons_costly_move_is_marked_with_its_cost() -> None:
    tape = from_record(golden("standard-2"))  # Ann (red, a person) and a greedy bot
    costs = Costs(tape, budget=0.5)
    decisions = costs.decisions()
    assert decisions and all(d.position.turn == 0 for d in decisions.values())  # no bot's
    judged = {n: costs.cost(n) for n in list(decisions)[:40]}
    assert all(c is not None and 0.0 <= c.lost <= c.best <= 1.0 for c in judged.values())
    costly = [n for n, c in judged.items() if c is not None and c.lost >= COSTLY]
    assert costly, "Ann's first 40 choices had none a hint rates 5% below the best"
    n = costly[0]
    got = costs.costly(n)
    assert got is not None
    rp = Replay(tape)
    rp.to_turn(n)
    lines = [text for _style, text in panel_lines(rp, "", costs, you=0)]
    assert cost_line(got, None) in lines
    assert " cost you " in cost_line(got, None) and "%" in cost_line(got, None)
    other = [text for _style, text in panel_lines(rp, "", costs, you=None)]
    assert cost_line(got, "Red (Ann)") in other


def test_the_positions_judged_are_what_the_player_knew() -> None:
    record = golden("points-3")
    tape = from_record(record)
    costs = Costs(tape)
    positions = {n: d.position for n, d in costs.decisions().items()}
    seen = {}

    def decided(n: int, game: Game, move: Move) -> None:
        seen[n] = position_of(game)

    check(record, decided=decided)
    assert positions and all(seen[n] == p for n, p in positions.items())


def test_a_tape_without_its_record_has_no_costs() -> None:
    tape = from_record(golden("standard-2"))
    bare = Costs(type(tape)(tape.variant, tape.seated, tape.names, tape.bots, tape.start,
                            tape.steps))
    assert bare.decisions() == {}
    assert bare.cost(5) is None
