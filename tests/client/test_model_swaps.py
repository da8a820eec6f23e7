"""Trading colours through ClientModel at a real HostCore, in memory: the asked seat
reads the ask from its lobby, answers it (only it can), the colours trade; the line
mode says each step to the two people concerned and the board shows the ask with its
keys.  No sockets, no sleeps."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client import swaps
from sorry_lan.client.model import ClientEvent, ClientModel
from sorry_lan.tui.feed import apply_event
from sorry_lan.tui.line_help import COMMAND_WORDS, help_lines
from sorry_lan.tui.lines import command, not_understood
from sorry_lan.tui.screens.lobby import TABLE, asked
from sorry_lan.tui.state import UiState
from sorry_lan.tui.swap_words import ask_note
from sorry_lan.tui.telling import Teller
from sorry_lan.wire.errors import LocalProtocolError


class Told:
    """A client end on a model whose every event a line-mode teller (on ``clock``)
    and a board hear."""

    def __init__(self, model: ClientModel, clock: Callable[[], float] = time.monotonic) -> None:
        self.model = model
        self.teller = Teller(clock=clock)
        self.board = UiState()
        self.lines: list[str] = []

    def receive_data(self, data: bytes, now: float) -> list[ClientEvent]:
        got = self.model.receive_data(data, now)
        for ev in got:
            self.lines += self.teller.tell(self.model, ev)
            apply_event(self.board, self.model, ev)
        return got

    def data_to_send(self) -> bytes:
        return self.model.data_to_send()

    def heard(self) -> list[str]:
        lines, self.lines = self.lines, []
        return lines


def _table() -> tuple[Pair, Told, Told]:
    """ann (red) and bob (blue) fill a table of two."""
    pair = Pair(Table(TableConfig(seats=2, seed=3)))
    ends = []
    for name in ("ann", "bob"):
        model = ClientModel(name)
        model.join(pair.now)
        ends.append(pair.connect(Told(model))[1])
        pair.pump()
    ann, bob = ends
    ann.heard(), bob.heard()
    return pair, ann, bob


def test_an_ask_is_told_to_the_asked_who_accepts_and_the_colours_trade() -> None:
    pair, ann, bob = _table()
    assert bob.model.pid is not None and ann.model.pid is not None
    bob.model.ask_swap(ann.model.pid)
    pair.pump()
    asker = swaps.asked_by(ann.model.lobby, ann.model.pid)
    assert asker is not None and asker.name == "bob"
    assert swaps.asking(bob.model.lobby, bob.model.pid) is not None
    assert ann.heard() == [
        "bob asks to trade colours with you: you would play blue.", "Type accept or decline.",
    ]
    assert bob.heard() == ["You asked ann to trade colours; waiting for an answer."]
    # ann's board shows the ask with its keys, and y / n answer it
    assert asked(ann.board) and not asked(bob.board)
    assert "y accepts, n declines" in ask_note(ann.board.swaps, ann.board.roster, ann.board.me)
    assert any(c.keys == ("y",) and c.when(ann.board) for c in TABLE.commands)
    with pytest.raises(LocalProtocolError):
        bob.model.answer_swap(True)  # bob is not asked: his model sends nothing
    ann.model.answer_swap(True)
    pair.pump()
    assert ann.model.colour == 1 and bob.model.colour == 0
    told = ann.heard(), bob.heard()
    assert "You now play blue." in told[0] and not any("trade" in x for x in told[0])
    assert "You now play red." in told[1] and "ann traded colours with you." in told[1]
    assert not asked(ann.board) and ann.board.you == 1


def test_a_declined_ask_is_told_and_nothing_trades() -> None:
    pair, ann, bob = _table()
    assert ann.model.pid is not None
    bob.model.ask_swap(ann.model.pid)
    pair.pump()
    ann.heard(), bob.heard()
    ann.model.answer_swap(False)
    pair.pump()
    assert (ann.model.colour, bob.model.colour) == (0, 1)
    assert bob.heard() == ["ann kept their colour: no trade."]
    assert ann.heard() == []


def test_an_ask_taken_back_is_told_to_the_asked() -> None:
    pair, ann, bob = _table()
    assert ann.model.pid is not None
    bob.model.ask_swap(ann.model.pid)
    pair.pump()
    ann.heard()
    bob.model.ask_swap(None)
    pair.pump()
    assert ann.heard() == ["bob no longer asks to trade colours with you."]
    with pytest.raises(LocalProtocolError):
        ann.model.answer_swap(True)


class Typist:
    """What the line mode's commands use of a ``GameClient``, on a model."""

    def __init__(self, model: ClientModel) -> None:
        self.model = model

    def ask_swap(self, pid: int | None) -> None:
        self.model.ask_swap(pid)

    def answer_swap(self, accept: bool) -> None:
        self.model.answer_swap(accept)


def _typed(end: Told, line: str) -> list[str]:
    try:
        return command(Typist(end.model), end.teller, line) or []  # type: ignore[arg-type]
    except ValueError as exc:
        return [not_understood(str(exc))]


def test_the_line_modes_swap_accept_and_decline() -> None:
    pair, ann, bob = _table()
    assert _typed(ann, "decline") == [
        not_understood("nobody is asking you to trade colours")]
    assert _typed(bob, "swap green") == [
        not_understood("nobody sits at green: type colour green to take it")]
    assert _typed(bob, "swap blue") == [not_understood("you already play blue")]
    assert _typed(bob, "swap red") == []
    pair.pump()
    assert ann.heard()[-1] == "Type accept or decline."
    assert _typed(ann, "accept") == []
    pair.pump()
    assert (ann.model.colour, bob.model.colour) == (1, 0)
    assert "swap" in COMMAND_WORDS and any("type swap" in x for x in help_lines("lobby"))


def test_a_phone_s_screen_offers_the_trade_its_answers_and_more_time() -> None:
    """The phone's page (``web.screen``) reads the same model: each other seat can be
    asked to trade, an ask made to this seat comes with its words (the page shows
    accept and decline), one made by it to take back; and no more time in a lobby."""
    from sorry_lan.web.screen import screen

    pair, ann, bob = _table()
    assert bob.model.pid is not None and ann.model.pid is not None
    shown = screen(ann.model, ann.teller, [], "en")
    seats = shown["seats"]
    assert isinstance(seats, list)
    assert [s.get("trade") for s in seats] == [None, bob.model.pid]
    assert shown["ask"] is None and shown["more_time"] is False
    bob.model.ask_swap(ann.model.pid)
    pair.pump()
    ask = screen(ann.model, ann.teller, [], "en")["ask"]
    assert ask == {"from": bob.model.pid,
                   "text": "bob asks to trade colours with you: you would play blue."}
    assert screen(bob.model, bob.teller, [], "en")["ask"] == {
        "to": ann.model.pid, "text": "You asked ann to trade colours; waiting for an answer."}
