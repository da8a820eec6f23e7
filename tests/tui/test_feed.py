"""Host messages -> UiState (feed), typed addresses, and the find list's rows (finder)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from told import ToldModel, shown
from zeroconf.asyncio import AsyncZeroconf

from sorry_lan.client.model import ClientModel, Connection
from sorry_lan.codes import LinkNews
from sorry_lan.discovery import ChangeKind, DiscoveryError, FoundGame, GameAd, GameEvent, Unjoinable
from sorry_lan.net.seats import SeatStore
from sorry_lan.rules.board import START, Colour
from sorry_lan.rules.cards import Card
from sorry_lan.rules.variants import Variant
from sorry_lan.tui.feed import last_move_from, options_for, seats_from_lobby
from sorry_lan.tui.finder import GameFinder, row_for
from sorry_lan.tui.state import Link, Screen, UiState
from sorry_lan.wire import messages as m
from sorry_lan.wire import records as r


def test_options_in_points_say_which_card_they_play() -> None:
    pos = [START] * 16
    pos[0] = 10
    offer = m.LegalMoves(
        sid=3,
        moves=(
            r.MoveOption(id=0, notation="R1 10->15", move=(0, 5, 0, 15)),
            r.MoveOption(id=1, notation="discard 8", move=(5, 8)),
        ),
        timeout=None,
    )
    plain = options_for(pos, offer)
    assert [o.notation for o in plain] == ["R1 10->15", "discard 8"]
    hand = options_for(pos, offer, hand=(5, 8, 13))
    assert hand[0].notation == "[5] R1 10->15" and hand[0].description.startswith("play the 5")
    assert hand[0].parts[0].path == (11, 12, 13, 14, 15)
    assert hand[1].notation.startswith("[8] ")


def test_an_option_the_board_cannot_explain_is_still_listed() -> None:
    offer = m.LegalMoves(
        sid=1, moves=(r.MoveOption(id=4, notation="odd", move=(0, 5, 0, 15)),), timeout=None
    )
    (opt,) = options_for([START] * 16, offer)  # R1 is in START: a 5 cannot move it
    assert opt.id == 4 and opt.parts == () and opt.notation == "odd"


def test_last_move_from_events_follows_slides_and_bumps() -> None:
    events = (
        r.ev_play(1, 4),
        r.ev_move(4, 20, 31),
        r.ev_slide(4, 31, 34),
        r.ev_bump(9, 32),
    )
    move = last_move_from(events)
    assert move is not None
    (part,) = move.parts
    assert (part.pawn, part.frm, part.end, part.bumps) == (4, 20, 34, (9,))
    assert last_move_from((r.ev_turn_lost(1, 4),)) is None


def _client(pid: int = 1) -> ClientModel:
    # (the host's messages go through it: the board reads its views)
    return ToldModel("ann", pid, owner=False, version=1)


def test_seats_from_lobby() -> None:
    lobby = m.Lobby(
        variant=Variant.STANDARD,
        seats=4,
        host=0,
        players=(
            r.PlayerInfo(0, "bob", Colour.RED, False, False, True),
            r.PlayerInfo(1, "ann", Colour.YELLOW, False, True, True),
            r.PlayerInfo(2, "bot 1", Colour.GREEN, True, True, True),
            r.PlayerInfo(3, "cy", Colour.BLUE, False, False, False),
        ),
        spectators=0,
    )
    seats = seats_from_lobby(lobby, you=1)
    assert seats[0].host and not seats[0].you
    assert seats[2].you and seats[2].ready and seats[2].name == "ann"
    assert seats[3].bot
    assert seats[1].name == "cy (away)"


def test_lobby_tells_how_many_seats_the_table_has() -> None:
    st = UiState(screen=Screen.FIND)
    lobby = m.Lobby(
        variant=Variant.POINTS,
        seats=2,
        host=None,
        players=(r.PlayerInfo(0, "hal", Colour.RED, True, True, True),),
        spectators=0,
    )
    shown(st, _client(), lobby)
    assert st.screen is Screen.LOBBY
    assert st.seat_limit == 2 and st.variant is Variant.POINTS
    assert [s.name for s in st.seats] == ["hal", "", "", ""]


def test_a_game_seen_through_events() -> None:
    st = UiState(screen=Screen.GAME, you=1, seated=(0, 1), names={0: "bob", 1: "ann"})
    client = _client()
    shown(st, client, m.Snapshot(
        sid=1, variant=Variant.STANDARD, you=Colour.BLUE, colours=(Colour.RED, Colour.BLUE),
        pawns=(START,) * 16, turn=Colour.BLUE, card=None, hand=None, pile=44, discards=0,
        top=None, discarded=None, scores=None,
    ))  # fmt: skip
    shown(
        st, client, m.Turn(sid=2, colour=Colour.RED, card=Card.ONE, hand=None, pile=40)
    )
    assert st.turn == 0 and st.card == 1 and st.log[-1] == "Red (bob) drew 1"
    ev = m.Events(
        sid=3,
        colour=Colour.RED,
        notation="R1 start->4",
        events=(r.ev_play(0, 1), r.ev_move(0, START, 4)),
    )
    shown(st, client, ev)
    assert st.position[0] == 4 and st.log[-1] == "Red (bob): R1 start->4"
    assert st.position == client.view.pawns and st.stats[0]["turns"] == 1
    assert st.last_move is not None
    shown(
        st,
        client,
        m.Turn(sid=3, colour=Colour.BLUE, card=Card.TWO, hand=None, pile=39),
    )
    offer = m.LegalMoves(
        sid=3, moves=(r.MoveOption(id=0, notation="B1 start->19", move=(0, 2, 4, 19)),), timeout=30
    )
    shown(st, client, offer)
    assert st.your_turn() and st.moves[0].notation == "B1 start->19"
    left = st.seconds_left()
    assert left is not None and 29 <= left <= 30
    shown(st, client, Connection(LinkNews.HELD(reason="x")))
    assert st.link is Link.RECONNECTING and not st.moves and st.deadline is None
    shown(st, client, Connection(LinkNews.GAVE_UP(last="x")))
    assert link_of(st) is Link.LOST and "q leaves" in st.link_hint
    shown(st, client, m.GameOver(sid=9, winners=(Colour.BLUE,), scores=None))
    assert st.screen is Screen.OVER and "Blue (ann) wins" in st.winner and "you" in st.winner


def _found(reason: Unjoinable | None, name: str = "Friday", seats: int = 2) -> FoundGame:
    ad = GameAd(name, "Bob", seats_total=4, seats_taken=seats, pin_required=True)
    return FoundGame(
        service_name=f"{name}._sorry-lan._tcp.local.",
        instance=name,
        name=name,
        ad=ad,
        addresses=("10.0.0.5",),
        port=47474,
        reason=reason,
        address="10.0.0.5",
    )


def test_rows_show_details_and_why_a_game_cannot_be_joined() -> None:
    row = row_for(_found(None))
    assert row.joinable and row.address == "10.0.0.5:47474"
    assert "host Bob" in row.detail and "2/4 seats" in row.detail and "PIN" in row.detail
    full = row_for(_found(Unjoinable.FULL, seats=4))
    assert not full.joinable and full.watch and "full: Enter watches" in full.detail
    playing = row_for(_found(Unjoinable.PLAYING))
    assert not playing.joinable and playing.watch and "playing: Enter watches" in playing.detail
    assert playing.detail.startswith("playing: Enter watches · PIN · host Bob")  # Enter first
    mine = row_for(_found(Unjoinable.PLAYING), mine=True)
    assert mine.joinable and mine.mine and not mine.watch
    assert mine.detail.startswith("your seat · playing · PIN · host Bob")
    old = row_for(_found(Unjoinable.NEWER_PROTOCOL), mine=True)
    assert not old.joinable and not old.watch and "cannot join: newer protocol" in old.detail


@pytest.mark.asyncio
async def test_finder_follows_the_browser_and_says_when_nothing_is_found() -> None:
    st = UiState()
    finder = GameFinder(st, make_zc=_no_zeroconf)
    await finder.start()
    assert not st.searching and "Cannot search the network" in st.find_message
    assert "--address" in st.find_message
    await finder.close()

    st = UiState()
    finder = GameFinder(st, quiet_after=0.05)
    finder._quiet = asyncio.get_running_loop().call_later(0.05, finder._nothing_yet)
    game = _found(None)
    finder._on_change(GameEvent(ChangeKind.ADDED, game))
    assert [f.title for f in st.found] == ["Friday"] and st.find_message == ""
    finder._on_change(GameEvent(ChangeKind.ADDED, _found(Unjoinable.PLAYING, "Alpha")))
    assert [f.title for f in st.found] == ["Alpha", "Friday"]
    assert st.found_selected == 1  # still on Friday
    finder._on_change(GameEvent(ChangeKind.REMOVED, game))
    finder._on_change(GameEvent(ChangeKind.REMOVED, _found(None, "Alpha")))
    assert st.found == []
    await asyncio.sleep(0.1)
    assert not st.searching and "--address" in st.find_message
    await finder.close()


def link_of(st: UiState) -> Link:
    return st.link


def _no_zeroconf() -> AsyncZeroconf:
    raise DiscoveryError("no multicast here")


def test_the_finder_marks_the_tables_where_the_user_holds_a_seat(tmp_path: Path) -> None:
    seats = SeatStore(tmp_path)
    seats.save("Bob", bytes(16), ["10.0.0.5"], 47474)
    st = UiState()
    finder = GameFinder(st, make_zc=_no_zeroconf, seats=seats)
    mine = _found(Unjoinable.PLAYING, "Friday")
    finder._on_change(GameEvent(ChangeKind.ADDED, mine))
    (row,) = st.found
    assert row.mine and row.joinable and not row.watch and "your seat" in row.detail
    other = GameFinder(UiState(), make_zc=_no_zeroconf, seats=seats, name="Ann")
    other._on_change(GameEvent(ChangeKind.ADDED, mine))
    assert not other.state.found[0].mine and other.state.found[0].watch  # not Ann's seat
