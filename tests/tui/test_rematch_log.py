"""Another game as four players' boards tell it: what each log and roster says from the
game over to the next game's start, with four client models at a host core in memory
(``tests/authority/pair.py``) and the board's own feed (``tui/feed.py``).  No log line
may say someone did what they did not."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import ClientEvent, ClientModel
from sorry_lan.i18n import use_language
from sorry_lan.rules import Phase
from sorry_lan.tui.feed import apply_event
from sorry_lan.tui.state import Screen, UiState
from sorry_lan.wire import messages as m

QUIET = HostOptions(heartbeat=1000.0, dead_after=5000.0)


class Board:
    """A client end: a :class:`ClientModel` whose events go through the board's feed."""

    def __init__(self, name: str, **kw: object) -> None:
        self.model = ClientModel(name, **kw)  # type: ignore[arg-type]
        self.state = UiState(default_name=name)
        self.state.screen = Screen.LOBBY

    def receive_data(self, data: bytes, now: float) -> list[ClientEvent]:
        got = self.model.receive_data(data, now)
        with use_language("en"):
            for ev in got:
                apply_event(self.state, self.model, ev)
        return got

    def data_to_send(self) -> bytes:
        return self.model.data_to_send()

    def log_since(self, mark: int) -> list[str]:
        return list(self.state.log)[mark:]

    def ready(self) -> dict[str, bool]:
        return {s.name: s.ready for s in self.state.seats if s.name}


def _arrive(pair: Pair, board: Board) -> int:
    board.model.join(pair.now)
    cid, _end = pair.connect(board)
    pair.pump()
    assert board.model.connected
    return cid


def _play_out(pair: Pair, boards: list[Board]) -> None:
    for _ in range(10_000):
        if pair.table.phase is Phase.FINISHED:
            return
        for b in boards:
            offer = b.model.moves
            if offer is not None and b.model.connected:
                b.model.play(offer.moves[0].id)
        pair.pump()
    raise AssertionError("the game did not end")


def test_four_boards_tell_the_rematch_truthfully() -> None:
    table = Table(TableConfig(seats=4, auto_start=False, seed=11))
    owner, token = table.join(None, "Ann")
    table.owner = owner.pid
    pair = Pair(table, QUIET)
    ann = Board("Ann", token=token)
    bob, cat = Board("Bob"), Board("Cat")
    niran = Board("Niran", program=True)  # a `sorry-lan bot --games 1`
    boards = [ann, bob, cat, niran]
    cids = {id(b): _arrive(pair, b) for b in boards}
    ann.model.send(m.Start())
    pair.pump()
    _play_out(pair, boards)
    assert all(b.state.screen is Screen.OVER for b in boards)
    colour = {p.name: p.colour for p in pair.table.players.values()}

    def who(name: str) -> str:
        return f"{name} ({('Red', 'Blue', 'Yellow', 'Green')[colour[name]]})"

    marks = {id(b): len(b.state.log) for b in boards}
    niran.model.close()  # its one game played: it says bye
    pair.pump()
    assert cids[id(niran)] not in pair.open
    bob.model.send(m.Rematch())  # bob wants another game
    pair.pump()
    for b in (ann, cat):
        said = b.log_since(marks[id(b)])
        assert f"{who('Niran')} left the table" in said
        assert not any("lost the connection" in line for line in said)
        assert f"{who('Bob')} asks for a rematch (r: you too)" in said
        assert b.ready() == {"Ann": False, "Bob": True, "Cat": False}
    assert pair.table.phase is Phase.FINISHED  # a player's r starts nothing

    marks = {id(b): len(b.state.log) for b in boards}
    ann.model.send(m.Rematch())  # the host's r: the next game's lobby
    pair.pump()
    for b in (ann, bob, cat):
        said = b.log_since(marks[id(b)])
        assert b.state.screen is Screen.LOBBY, said
        assert not any("asks for a rematch" in line for line in said), said  # nobody did
        assert not any("begins" in line for line in said), said  # no game began
        opened = (
            "you opened the next game's lobby, with the same seats: s starts it"
            if b is ann
            else "Ann opened the next game's lobby, with the same seats"
        )
        assert opened in said, said
        # The roster: those who asked are ready, Cat has her say, Niran is gone.
        assert b.ready() == {"Ann": True, "Bob": True, "Cat": False}
    assert pair.phase_now() is Phase.LOBBY

    cat.model.send(m.Ready(ready=True))
    pair.pump()
    assert ann.ready()["Cat"]
    ann.model.send(m.Start())
    pair.pump()
    for b in (ann, bob, cat):
        assert b.state.screen is Screen.GAME
        assert b.log_since(marks[id(b)]).count("the game begins") == 1
    game = pair.table.game
    assert game is not None and sorted(game.seated) == sorted(
        colour[n] for n in ("Ann", "Bob", "Cat")
    )


def test_a_new_table_at_the_same_address_is_shown_as_the_lobby_it_is() -> None:
    """The host quit after a game and started a new table where the old one was: the
    board joined again shows that table's lobby, not the dead game, and can get ready."""
    first = Table(TableConfig(seats=2, auto_start=True, seed=3))
    first.add_bot(None)
    old = Pair(first, QUIET)
    ann = Board("Ann")
    cid = _arrive(old, ann)
    _play_out(old, [ann])
    assert ann.state.screen is Screen.OVER
    old.lose(cid)
    ann.model.connection_lost()
    ann.model.token = None  # the new table does not know it: the board asks afresh
    new = Pair(Table(TableConfig(seats=3, auto_start=True, seed=4)), QUIET)
    _arrive(new, ann)
    assert ann.state.screen.value == "lobby"
    assert ann.model.snapshot is None and ann.model.colour == 0
    assert "the table is in its lobby: the game shown before is over" in ann.state.log
    ann.model.send(m.Ready(ready=True))  # the lobby's keys work: get ready
    new.pump()
    assert ann.ready() == {"Ann": True}
