"""What the journals of a table settled, state id by state id, and what each client showed.

A test helper for the LAN takeover tests.  :func:`settle` reads the journals of the
first host and of every laptop that took the table over, replays each game through
the engine (a ``game`` record deals from its seed; a ``takeover`` record rebuilds
the position its successor started from, then its ``reveal`` records) and joins
them: a successor's record replaces what an older host wrote from the state id it
took over at (a move only the dead host saw never counted).  The result, a
:class:`Ledger`, knows the board at every state id of each game, who moved to it,
each hand in play for points at each state, and the seats' tokens.

:func:`shown` reads what a ``tests/discovery/board_bot.py`` process said it showed
(each board with its state id, the moves, the hands, its seat) and
:meth:`Ledger.check` compares one client with the ledger; it returns what is wrong
as sentences (empty: nothing).  Nothing here starts a process or knows the network.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sorry_lan.net.journal import load
from sorry_lan.rules import Card, Game, Variant
from sorry_lan.rules.midgame import Midgame, rebuild, reveal_hand

Pawns = tuple[int, ...]
COLOURS = {"Red": 0, "Blue": 1, "Yellow": 2, "Green": 3}


@dataclass
class GameLedger:
    """One game as the journals settled it."""

    variant: Variant
    boards: dict[int, Pawns] = field(default_factory=dict)  # every state id -> pawns
    moved: dict[int, int] = field(default_factory=dict)  # state id a move led to -> colour
    hands: dict[int, dict[int, list[int]]] = field(default_factory=dict)  # sid -> hands
    tokens: dict[int, str | None] = field(default_factory=dict)  # colour -> token digest
    takeovers: list[dict[str, Any]] = field(default_factory=list)  # the heads, in order
    reveals: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)  # seat records mid-game
    # each takeover: (its state id, every hand there as the older host dealt it, every
    # hand the successor holds there once the players revealed theirs)
    handovers: list[tuple[int, dict[int, list[int]], dict[int, list[int]]]] = field(
        default_factory=list)
    over: bool = False

    def cut(self, sid: int) -> None:
        """Forget what was settled after state ``sid`` (a successor took over there)."""
        for table in (self.boards, self.moved, self.hands):
            for k in [k for k in table if k > sid]:
                del table[k]

    @property
    def last(self) -> int:
        return max(self.boards)


def _hands(game: Game) -> dict[int, list[int]]:
    return {c: sorted(int(x) for x in h) for c, h in game.hands.items()}


def _replay(head: dict[str, Any], rest: list[dict[str, Any]]) -> GameLedger:
    """One game's segment of one journal: its head record and those after it."""
    if head["k"] == "takeover":
        position = Midgame.from_json(head)
        game = rebuild(position, int(head["seed"]))
        known = position.known()
    else:
        first = head.get("first_arg")
        game = Game(
            Variant.parse(str(head["variant"])), tuple(int(c) for c in head["seated"]),
            seed=int(head["seed"]), first=None if first is None else int(first),
            first_sid=int(head.get("sid0") or 0),
        )  # fmt: skip
        game.start()
        known = {}
    out = GameLedger(game.variant, tokens={int(c): t for c, t in dict(head["tokens"]).items()})
    out.boards[game.state_id] = game.pawns
    out.hands[game.state_id] = _hands(game)
    if head["k"] == "takeover":
        out.takeovers.append(head)
    for rec in rest:
        kind = rec.get("k")
        if kind == "reveal":
            reveal_hand(game, int(rec["colour"]), [Card(int(c)) for c in rec["hand"]], known)
            known[int(rec["colour"])] = len(rec["hand"])
            out.reveals.append(rec)
            out.hands[game.state_id] = _hands(game)
        elif kind == "move":
            before, mover = game.state_id, game.turn  # (in team play a partner's pawn
            assert before == int(rec["sid"]), f"move record at {rec['sid']}, game at {before}"
            game.play_compact([int(x) for x in rec["m"]])  # may be the one that moves)
            for sid in range(before + 1, game.state_id + 1):
                out.boards[sid] = game.pawns
                out.hands[sid] = _hands(game)
            out.moved[before + 1] = mover
        elif kind == "seat":
            out.seats.append(rec)
    out.over = game.over
    return out


def _segments(path: Path) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    records = load(path)
    starts = [i for i, r in enumerate(records) if r.get("k") in ("game", "takeover")]
    return [
        (records[i], records[i + 1 : (starts[n + 1] if n + 1 < len(starts) else len(records))])
        for n, i in enumerate(starts)
    ]


def _epoch(path: Path) -> int:
    epochs = [int(r["epoch"]) for r in load(path) if r.get("k") == "takeover"]
    return max(epochs, default=1)


@dataclass
class Ledger:
    games: list[GameLedger]
    journals: list[str]  # what was read, for failure messages

    def check(self, who: str, seen: Shown, first: int = 1) -> list[str]:
        """What ``seen`` (one client) showed that the journals do not say: each board
        at its state id, each mover, the order.  ``first``: the table's game that was
        the client's first (a player who came for the rematch)."""
        wrong: list[str] = []
        for own, boards in sorted(seen.boards.items()):
            number = own + first - 1
            if number > len(self.games):
                wrong.append(f"{who}: game {number} is in no journal ({self.journals})")
                continue
            game = self.games[number - 1]
            # A new host's snapshot may go back to the state it took over at (a move only
            # the old host got is then played again): boards are checked by state id, and
            # the moves shown, each once, must be in order.
            moved = list(dict.fromkeys(sid for sid, _c in seen.moves.get(own, [])))
            if moved != sorted(moved):
                wrong.append(f"{who}: game {number}: moves shown out of order: {moved}")
            for sid, pawns in boards:
                settled = game.boards.get(sid)
                if settled is None:
                    wrong.append(f"{who}: game {number}: state {sid} is in no journal "
                                 f"(settled up to {game.last})")
                elif settled != pawns:
                    wrong.append(f"{who}: game {number}: board at {sid} is {list(pawns)}, "
                                 f"the host's {list(settled)}")
            for sid, colour in seen.moves.get(own, []):
                if sid in game.moved and game.moved[sid] != colour:
                    wrong.append(f"{who}: game {number}: move {sid} by {colour}, "
                                 f"journal {game.moved[sid]}")
        if len(seen.seats) > 1:
            wrong.append(f"{who}: played more than one seat: {seen.seats}")
        for game in self.games:
            if game.seats:
                wrong.append(f"{who}: a seat changed hands mid-game: {game.seats}")
        return wrong


def settle(first: Path, others: list[Path]) -> Ledger:
    """The journals under ``first`` (the first host's data) and ``others`` (laptops')
    joined into one ledger, successors in the order of their epochs; at one epoch (a
    successor killed while it took over, and the next laptop that took over after it
    at that epoch) the one written last goes last: the table went on there."""
    paths = sorted(first.rglob("*.journal"))
    paths += sorted((p for d in others for p in d.rglob("*.journal")),
                    key=lambda p: (_epoch(p), p.stat().st_mtime))
    games: list[GameLedger] = []
    for path in paths:
        for head, rest in _segments(path):
            part = _replay(head, rest)
            if head["k"] == "game" or not games:
                games.append(part)
                continue
            game, sid = games[-1], int(head["sid"])
            if game.boards.get(sid) != part.boards[sid]:
                raise AssertionError(
                    f"{path}: took over at {sid} from board {part.boards[sid]}, "
                    f"the older host's {game.boards.get(sid)}")
            changed = {c for c, t in part.tokens.items() if game.tokens.get(c) != t}
            if changed:
                raise AssertionError(f"{path}: the seats of {changed} changed hands")
            game.handovers.append((sid, game.hands.get(sid, {}), part.hands[sid]))
            game.cut(sid)
            game.boards.update(part.boards)
            game.moved.update(part.moved)
            game.hands.update(part.hands)
            game.takeovers += part.takeovers
            game.reveals += part.reveals
            game.seats += part.seats
            game.over = part.over
    return Ledger(games, [str(p) for p in paths])


@dataclass
class Shown:
    """What one client said it showed, by game number (from 1)."""

    boards: dict[int, list[tuple[int, Pawns]]] = field(default_factory=dict)
    moves: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    hands: dict[int, list[tuple[int, list[int]]]] = field(default_factory=dict)
    seats: set[str] = field(default_factory=set)
    news: list[str] = field(default_factory=list)


_BEGINS = re.compile(r"sorry-lan bot: game (\d+) of \d+ begins \(playing (\S+)\)")
_MOVE = re.compile(r"sorry-lan bot: move (\d+): (\S+) ")
_BOARD = re.compile(r"sorry-lan board: (\d+) (\[.*\])$")
_HAND = re.compile(r"sorry-lan hand: (-?\d+) (\[.*\])$")
_NEWS = re.compile(r"sorry-lan news: (.*)$")


def shown(stderr: str) -> Shown:
    """Parse a board bot's stderr (see ``board_bot.py``)."""
    out, number = Shown(), 1
    just: tuple[int, Pawns] | None = None  # the board on the line before, if any
    for line in stderr.splitlines():
        if found := _BEGINS.search(line):
            if int(found.group(1)) != number and just is not None:
                out.boards[number].remove(just)  # that snapshot began the new game
                out.boards.setdefault(int(found.group(1)), []).append(just)
            number, just = int(found.group(1)), None
            out.seats.add(found.group(2))
            continue
        just = None
        if found := _BOARD.search(line):
            sid, pawns = int(found.group(1)), tuple(json.loads(found.group(2)))
            got = out.boards.setdefault(number, [])
            if not got or got[-1] != (sid, pawns):  # a snapshot repeats the board it had
                got.append((sid, pawns))
                just = (sid, pawns)
        elif found := _MOVE.search(line):
            out.moves.setdefault(number, []).append(
                (int(found.group(1)), COLOURS.get(found.group(2), -1)))
        elif found := _HAND.search(line):
            out.hands.setdefault(number, []).append(
                (int(found.group(1)), list(json.loads(found.group(2)))))
        elif found := _NEWS.search(line):
            out.news.append(found.group(1))
    return out


def within(part: list[int], whole: list[int]) -> bool:
    """Whether the cards ``part`` are among ``whole`` (as multisets)."""
    return not Counter(part) - Counter(whole)
