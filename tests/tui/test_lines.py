"""The line interface's words for every kind of client event."""

from __future__ import annotations

from sorry_lan.client import model as c
from sorry_lan.codes import LinkNews
from sorry_lan.rules.board import START, Colour
from sorry_lan.rules.cards import Card
from sorry_lan.rules.variants import Variant
from sorry_lan.tui.lines import describe
from sorry_lan.wire import messages as m
from sorry_lan.wire import records as r
from sorry_lan.wire.errors import ErrorReason

PAWNS = (1, START, START, START, START, START, START, START) + (START,) * 8
SNAPSHOT = m.Snapshot(
    sid=4, variant=Variant.STANDARD, you=Colour.RED, colours=(Colour.RED, Colour.BLUE),
    pawns=PAWNS, turn=Colour.RED, card=Card.ONE, hand=None, pile=40, discards=4,
    top=Card.ONE, discarded=(0, 4) + (0,) * 12, scores=None,
)


def client() -> c.ClientModel:
    ann = c.ClientModel("ann")  # never connected: describe reads its state
    ann.snapshot, ann.pawns = SNAPSHOT, PAWNS
    return ann


def test_every_event_is_described() -> None:
    ann = r.PlayerInfo(pid=0, name="ann", colour=Colour.RED, bot=False, ready=True,
                       connected=True)
    bot = r.PlayerInfo(pid=1, name="bot 1", colour=None, bot=True, ready=True, connected=False)
    option = r.MoveOption(id=0, notation="R1 1->2", move=(0, 1, 0, 2))
    cases: list[tuple[c.ClientEvent, list[str]]] = [
        (m.Lobby(variant=Variant.TEAM, seats=4, host=0, players=(ann, bot), spectators=0),
         ["table [team play]: ann (red), bot 1 (?, bot, away)"]),
        (SNAPSHOT,
         ["game on:", "     red (you): R1 1, R2 start, R3 start, R4 start",
          "    blue: B1 start, B2 start, B3 start, B4 start"]),
        (m.Turn(sid=4, colour=Colour.BLUE, card=Card.TWO, hand=None, pile=39),
         ["blue drew 2"]),
        (m.LegalMoves(sid=4, moves=(option,), timeout=None),
         ["your move:", "   1. R1 1->2", "type a number"]),
        (m.Events(sid=5, colour=Colour.RED, notation="R1 1->2", events=()),
         ["red: R1 1->2", "     red (you): R1 1, R2 start, R3 start, R4 start",
          "    blue: B1 start, B2 start, B3 start, B4 start"]),
        (m.GameOver(sid=9, winners=(Colour.BLUE,), scores=None),
         ["game over: blue won; scores []", "rematch? type rematch"]),
        (m.Rematch(), ["rematch!"]),
        (m.Chat(pid=1, text="hi"), ["[chat 1] hi"]),
        (m.Error(reason=ErrorReason.COLOUR_TAKEN, text="that colour is taken", fatal=False),
         ["refused: that colour is taken"]),
        (c.Connection(LinkNews.DROPPED(reason="gone")), ["connection lost: gone"]),
        (c.ReplayMismatch(5, "no pawn there"), []),
    ]
    assert len({type(ev) for ev, _ in cases}) == len(c.ClientEvent.__args__)
    for ev, lines in cases:
        assert describe(client(), ev) == lines, ev


def test_the_table_line_names_each_players_language_and_bot_programs() -> None:
    lobby = m.Lobby(
        variant=Variant.STANDARD, seats=4, host=0, spectators=0,
        players=(
            r.PlayerInfo(0, "ann", Colour.RED, False, True, True, lang="cy"),
            r.PlayerInfo(1, "robo", Colour.BLUE, False, True, True, program=True),
            r.PlayerInfo(2, "sam", Colour.YELLOW, False, True, True, lang="xx-YY"),
        ),
    )
    [line] = describe(client(), lobby)
    assert "ann (red, Cymraeg)" in line
    assert "robo (blue, bot)" in line
    assert "sam (yellow, xx-YY)" in line
