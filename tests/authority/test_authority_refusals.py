"""Every refusal the table can make: its kind, its reason, and that nothing changed.

The table raises :class:`JoinRefused` (a ``refuse`` reason) or :class:`RequestRefused`
(an ``error`` reason), which the host passes on as they are.  The cases below are
checked against the raise statements in ``table.py`` themselves, so a new refusal
without a case fails.  ``test_core_refusals.py`` sees the reasons reach the wire.
"""

from __future__ import annotations

import ast
import inspect
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from sorry_lan.authority import table as table_module
from sorry_lan.authority.table import (
    JoinRefused,
    RequestRefused,
    Table,
    TableConfig,
    TableError,
)
from sorry_lan.authority.takeover import TakenOver
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import FATAL_REASONS, ErrorReason
from sorry_lan.wire.limits import PID_MAX
from sorry_lan.wire.vocab import RefuseReason

OWNER, GUEST, WATCHER = 1, 2, 3  # connection ids


def lobby(seats: int = 2, kind: type[Table] = Table) -> Table:
    """An owner (red) and a guest (blue) seated, a spectator watching."""
    t = kind(TableConfig(seats=seats, seed=5, max_spectators=1))
    owner, _ = t.join(OWNER, "owner")
    t.owner = owner.pid
    t.join(GUEST, "guest")
    t.spectate(WATCHER)
    return t


def playing() -> Table:
    t = lobby()
    t.start(OWNER, 0.0)
    return t


def held() -> Table:
    """A successor's game whose first decision waits for a hand to be revealed."""
    t = lobby(kind=TakenOver)
    t.start(OWNER, 0.0)
    assert isinstance(t, TakenOver) and t.game is not None
    t.awaited, t.hold_until = {1 - t.game.turn}, 5.0
    return t


def mover(t: Table) -> tuple[int, int]:
    """(connection of the player to move, connection of the other player)."""
    assert t.game is not None
    to_move = t.by_colour(t.game.turn)
    assert to_move is not None and to_move.conn is not None
    return to_move.conn, GUEST if to_move.conn == OWNER else OWNER


def sid(t: Table) -> int:
    assert t.game is not None
    return t.game.state_id


def paused(t: Table) -> Table:
    t.pause(0.0)
    return t


def full_of_bots() -> Table:
    t = lobby()
    t.add_bot(OWNER)
    t.add_bot(OWNER)
    return t


def owner_alone() -> Table:
    t = lobby()
    t.disconnect(GUEST, 0.0, quit=True)
    return t


@dataclass(frozen=True)
class Case:
    where: str  # the table method whose raise statement this reaches
    reason: RefuseReason | ErrorReason
    setup: Callable[[], Table]
    act: Callable[[Table], object]


CASES = {
    "hello after the start": Case(
        "join", RefuseReason.STARTED, playing, lambda t: t.join(9, "late")
    ),
    "a name in use, in any case": Case(
        "join", RefuseReason.NAME_TAKEN, lobby, lambda t: t.join(9, "GUEST")
    ),
    "no free seat": Case("join", RefuseReason.FULL, lobby, lambda t: t.join(9, "third")),
    "an unknown token": Case(
        "reclaim", RefuseReason.BAD_TOKEN, lobby, lambda t: t.reclaim(9, bytes(16), 0.0)
    ),
    "no room to watch": Case(
        "spectate", RefuseReason.NO_SPECTATORS, lobby, lambda t: t.spectate(9)
    ),
    "a spectator in the lobby": Case(
        "lobby_player", ErrorReason.FORBIDDEN, lobby, lambda t: t.choose_colour(WATCHER, 3)
    ),
    "a spectator's ready": Case(
        "set_ready", ErrorReason.FORBIDDEN, lobby, lambda t: t.set_ready(WATCHER, True)
    ),
    "the lobby after the start": Case(
        "lobby_player", ErrorReason.UNEXPECTED, playing, lambda t: t.choose_colour(GUEST, 3)
    ),
    "a guest acting as owner": Case(
        "_owner_only", ErrorReason.FORBIDDEN, lobby, lambda t: t.add_bot(GUEST)
    ),
    "the owner after the start": Case(
        "_owner_only", ErrorReason.UNEXPECTED, playing, lambda t: t.remove_bot(OWNER, 0)
    ),
    "a held colour": Case(
        "choose_colour", ErrorReason.COLOUR_TAKEN, lobby, lambda t: t.choose_colour(GUEST, 0)
    ),
    "an unknown bot level": Case(
        "add_bot", ErrorReason.BAD_VALUE, lobby, lambda t: t.add_bot(OWNER, level="wizard")
    ),
    "a bot at a full table": Case(
        "add_bot", ErrorReason.COLOUR_TAKEN, full_of_bots, lambda t: t.add_bot(OWNER)
    ),
    "a bot on a held colour": Case(
        "add_bot", ErrorReason.COLOUR_TAKEN, lobby, lambda t: t.add_bot(OWNER, colour=1)
    ),
    "removing a person": Case(
        "remove_bot", ErrorReason.BAD_VALUE, lobby, lambda t: t.remove_bot(OWNER, 1)
    ),
    "a start without players": Case(
        "start", ErrorReason.NOT_READY, owner_alone, lambda t: t.start(OWNER, 0.0)
    ),
    "a spectator's chat": Case(
        "say", ErrorReason.FORBIDDEN, playing, lambda t: t.say(WATCHER, "hi")
    ),
    "a spectator's rematch": Case(
        "ask_rematch", ErrorReason.FORBIDDEN, playing, lambda t: t.ask_rematch(WATCHER, 0.0)
    ),
    "a rematch mid-game": Case(
        "ask_rematch", ErrorReason.UNEXPECTED, playing, lambda t: t.ask_rematch(OWNER, 0.0)
    ),
    "a spectator's move": Case(
        "on_turn", ErrorReason.FORBIDDEN, playing, lambda t: t.play(WATCHER, sid(t), 0, 0.0)
    ),
    "a move in the lobby": Case(
        "on_turn", ErrorReason.UNEXPECTED, lobby, lambda t: t.play(OWNER, 0, 0, 0.0)
    ),
    "a move while the table is paused (cut off from most laptops)": Case(
        "on_turn", ErrorReason.UNEXPECTED, lambda: paused(playing()),
        lambda t: t.play(mover(t)[0], sid(t), 0, 0.0),
    ),
    "a move before the held first decision of a successor is offered": Case(
        "on_turn", ErrorReason.UNEXPECTED, held, lambda t: t.play(mover(t)[0], sid(t), 0, 0.0)
    ),
    "a move out of turn": Case(
        "on_turn", ErrorReason.NOT_YOUR_TURN, playing, lambda t: t.play(mover(t)[1], sid(t), 0, 0.0)
    ),
    "a move for an old state": Case(
        "play", ErrorReason.STALE, playing, lambda t: t.play(mover(t)[0], sid(t) - 1, 0, 0.0)
    ),
    "a move not offered": Case(
        "play", ErrorReason.ILLEGAL, playing, lambda t: t.play(mover(t)[0], sid(t), 999, 0.0)
    ),
}


def raise_sites(module: object) -> Counter[tuple[str, str]]:
    """(method, reason name) of every ``raise JoinRefused/RequestRefused(X.REASON, ...)``."""
    sites: Counter[tuple[str, str]] = Counter()
    for fn in ast.walk(ast.parse(inspect.getsource(module))):  # type: ignore[arg-type]
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = getattr(node.exc.func, "id", "")
                if name in ("JoinRefused", "RequestRefused"):
                    reason = node.exc.args[0]
                    assert isinstance(reason, ast.Attribute), ast.unparse(node)
                    sites[(fn.name, reason.attr)] += 1
    return sites


def test_the_cases_cover_every_refusal_the_table_can_raise() -> None:
    cases = Counter((c.where, c.reason.name) for c in CASES.values())
    assert cases == raise_sites(table_module)


def _state(t: Table) -> object:
    return (t.revision, repr(t.players), sorted(t.spectators), t.phase, t.owner, sid_or_none(t))


def sid_or_none(t: Table) -> int | None:
    return None if t.game is None else t.game.state_id


@pytest.mark.parametrize("name", list(CASES))
def test_each_refusal_has_its_reason_and_changes_nothing(name: str) -> None:
    case = CASES[name]
    t = case.setup()
    before = _state(t)
    with pytest.raises(TableError) as refused:
        case.act(t)
    exc = refused.value
    assert exc.reason is case.reason
    assert _state(t) == before
    if isinstance(case.reason, RefuseReason):
        assert isinstance(exc, JoinRefused)
    else:
        assert isinstance(exc, RequestRefused)
        assert exc.to_message() == m.Error(reason=case.reason, text=exc.text, fatal=False)


def test_bad_value_is_the_only_fatal_reason_among_the_refusals() -> None:
    """Unknown bot levels and pids are the table's only ``bad_value`` refusals (sent,
    as every refusal, with fatal false; the wire tests below see the connection stay
    open); no other refusal uses a reason the spec calls fatal."""
    fatal = {c.reason for c in CASES.values() if c.reason in FATAL_REASONS}
    assert fatal == {ErrorReason.BAD_VALUE}


def test_pids_go_round_after_the_wires_largest_and_never_clash() -> None:
    t = lobby(seats=3)
    seen = set()
    for i in range(PID_MAX + 40):
        player, _ = t.join(100 + i, f"p{i}")
        assert 0 <= player.pid <= PID_MAX
        assert len({p.pid for p in t.players.values()}) == len(t.players)
        seen.add(player.pid)
        t.disconnect(100 + i, 0.0, quit=True)
    assert seen == set(range(PID_MAX + 1)) - {0, 1}  # the owner and the guest keep theirs
