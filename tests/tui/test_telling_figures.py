"""The line mode says the game's figures at its end (each player's bumps, Sorry!s,
slides and turns), the numbers the board's game-over screen shows, read from the same
table view; when this client's count began late it says so, and says the whole
game's figures again once the host's record of it came.  A real HostCore in memory
(``tests/authority/pair.py``), ClientModels, the board's feed and the line mode."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import ClientEvent, ClientModel, GameRecord
from sorry_lan.client.so_far import FoldError
from sorry_lan.rules import START, Card, Colour, Variant
from sorry_lan.tui.feed import apply_event
from sorry_lan.tui.news import record_stats
from sorry_lan.tui.sentences import play_counts
from sorry_lan.tui.state import Screen, UiState
from sorry_lan.tui.telling import Teller
from sorry_lan.wire import messages as m
from sorry_lan.wire import records as r

sys.path.insert(0, str(Path(__file__).resolve().parent))
from told import ToldModel

SINCE = "These figures count the play since you joined."


class Both:
    """A client end whose events go to the board (a UiState, through the feed) and to
    the line mode (a Teller), as each reads them."""

    def __init__(self, model: ClientModel) -> None:
        self.model = model
        self.state = UiState()
        self.teller = Teller()
        self.said: list[tuple[ClientEvent, list[str]]] = []

    def receive_data(self, data: bytes, now: float) -> list[ClientEvent]:
        got = self.model.receive_data(data, now)
        for ev in got:
            apply_event(self.state, self.model, ev)
            self.said.append((ev, self.teller.tell(self.model, ev)))
        return got

    def data_to_send(self) -> bytes:
        return self.model.data_to_send()

    def lines_at(self, kind: type) -> list[str]:
        """The lines the last event of ``kind`` made."""
        return next(lines for ev, lines in reversed(self.said) if isinstance(ev, kind))


def _arrive(pair: Pair, model: ClientModel) -> tuple[int, Both]:
    model.join(pair.now)
    cid, end = pair.connect(Both(model))
    pair.pump()
    assert model.connected
    return cid, end


def _board_lines(end: Both, stats: Mapping[int, Mapping[str, int]]) -> list[str]:
    """What the line mode must say for ``stats``: the board's own numbers, by name."""
    people = end.teller.people
    return [
        f"{people.name(c)}: "
        + play_counts(stats[c]["bumps"], stats[c]["sorry"], stats[c]["slides"], stats[c]["turns"])
        + "."
        for c in end.state.seated
    ]


def _figures_said(lines: list[str], end: Both) -> list[str]:
    names = tuple(f"{end.teller.people.name(c)}: " for c in end.state.seated)
    return [line for line in lines if line.startswith(names)]


@pytest.mark.parametrize(("variant", "seed"), [(Variant.STANDARD, 31), (Variant.TEAM, 33)])
def test_game_over_says_the_figures_the_board_shows(variant: Variant, seed: int) -> None:
    """At the end, the line mode says what the board's game-over screen shows, the
    host's count of the whole game, once.  In team play at seed 33 the turns lost
    before the first decision cannot be ordered from the first snapshot: the host
    sends the game so far as the game begins (issue 32; before, the count began late
    and the line mode waited for the whole record), so it is said at the result."""
    table = Table(TableConfig(variant=variant, seats=2, auto_start=True, seed=seed))
    pair = Pair(table)
    ann, bob = ClientModel("ann"), ClientModel("bob")
    _a, ann_end = _arrive(pair, ann)
    _b, bob_end = _arrive(pair, bob)
    pair.play_models([ann, bob], pick=-1)
    whole = ann.records[-1].record
    late = False  # (seed 33's count began late before the host told its first turns)
    for end in (ann_end, bob_end):
        st = end.state
        assert st.screen is Screen.OVER and not st.stats_partial
        figures = _board_lines(end, st.stats)
        assert _board_lines(end, record_stats(whole)) == figures  # (the host's count)
        at_over, at_record = end.lines_at(m.GameOver), end.lines_at(GameRecord)
        assert _figures_said(at_over, end) == ([] if late else figures)
        assert at_record == (figures if late else [])
        assert not any(SINCE in line for line in at_over + at_record)
        assert all(line in end.teller.board() for line in figures)  # (board, at the end)
        assert end.teller.board()[-len(figures) - 1 : -1] == figures  # (before the prompt)
    said = ann_end.teller.result()
    assert said[1].startswith("The standings: place 1: ")
    assert said[2].startswith("ann: ") and said[3].startswith("bob: ")  # (in seat order)


def test_a_count_begun_late_waits_for_the_whole_game_s_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ann's fold cannot follow one ``events`` message mid-game (made here: it raises
    :class:`FoldError` once): its count goes on from the board told again, so at the
    end the line mode waits for the host's whole record and says the whole game's
    figures, the board's."""
    table = Table(TableConfig(seats=2, auto_start=True, seed=31))
    pair = Pair(table)
    ann, bob = ClientModel("ann"), ClientModel("bob")
    _a, ann_end = _arrive(pair, ann)
    _arrive(pair, bob)
    pair.play_models([ann, bob], turns=10, pick=-1)
    follows = ann.seen.events
    failed: list[int] = []

    def fails(msg: m.Events) -> None:
        if not failed:
            failed.append(msg.sid)
            raise FoldError("a bug")
        follows(msg)

    monkeypatch.setattr(ann.seen, "events", fails)
    pair.play_models([ann, bob], pick=-1)
    assert failed and ann.over is not None and ann.replay_mismatches == 1
    assert _figures_said(ann_end.lines_at(m.GameOver), ann_end) == []
    said = ann_end.lines_at(GameRecord)
    assert said == _board_lines(ann_end, record_stats(ann.records[-1].record))
    assert said == _board_lines(ann_end, ann_end.state.stats)
    assert not ann_end.state.stats_partial


def test_with_no_record_to_come_the_figures_say_where_the_count_began() -> None:
    """A host on protocol version 2 sends no game records: a spectator who came in
    after the lobby is told the figures it counted, and that they count from there."""
    red, blue = Colour.RED, Colour.BLUE
    players = (r.PlayerInfo(0, "Ann", red, False, True, True),
               r.PlayerInfo(1, "Bob", blue, False, True, True))  # fmt: skip
    lobby = m.Lobby(variant=Variant.STANDARD, seats=2, host=0, players=players, spectators=1)
    begun = m.Snapshot(
        sid=4, variant=Variant.STANDARD, you=None, colours=(red, blue), pawns=(START,) * 16,
        turn=red, card=Card.ONE, hand=None, pile=44, discards=0, top=None,
        discarded=(0,) * 14, scores=None,
    )
    teller, zed = Teller(), ToldModel("Zed", None, owner=False, spectate=True, version=2)
    for msg in (lobby, begun):
        for ev in zed.hear(msg):
            teller.tell(zed, ev)
    played = m.Events(sid=5, colour=red, notation="", events=((3, red, 1), (0, 0, START, 4)))
    for ev in zed.hear(played):
        teller.tell(zed, ev)
    said = [line for ev in zed.hear(m.GameOver(sid=6, winners=(red,), scores=None))
            for line in teller.tell(zed, ev)]  # fmt: skip
    assert said == [
        "The game is over: Ann won.",
        "The standings: place 1: Ann, 0 pawns home; place 2: Bob, 0 pawns home.",
        "Ann: 0 bumps, 0 Sorry!, 0 slides in 1 turn.",
        "Bob: 0 bumps, 0 Sorry!, 0 slides in 0 turns.",
        SINCE,
    ]
