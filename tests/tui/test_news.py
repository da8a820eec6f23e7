"""Telling everyone what happened: roster changes, a bot moving for someone, the turn
summary and bell, a spectator's log, and the game's statistics (feed + news)."""

from __future__ import annotations

from told import ToldModel, shown

from sorry_lan.client.model import ClientModel, TableNews, TableNewsKind
from sorry_lan.i18n import use_language
from sorry_lan.rules.board import START, Colour
from sorry_lan.rules.cards import NO_CARDS
from sorry_lan.rules.variants import Variant
from sorry_lan.succession.election import Claim
from sorry_lan.tui.feed import apply_event
from sorry_lan.tui.news import shown_name, since_text, table_news
from sorry_lan.tui.state import Link, Screen, UiState
from sorry_lan.tui.telling import Teller
from sorry_lan.wire import messages as m
from sorry_lan.wire import records as r


def _client(pid: int | None = 1, spectate: bool = False) -> ClientModel:
    # (the host's messages go through it: the board reads its views)
    return ToldModel("ann", pid, owner=False, spectate=spectate, version=1)


def _lobby(*players: r.PlayerInfo, spectators: int = 0) -> m.Lobby:
    return m.Lobby(
        variant=Variant.STANDARD, seats=4, host=1, players=players, spectators=spectators
    )


ANN = r.PlayerInfo(1, "ann", Colour.RED, False, True, True)
BOB = r.PlayerInfo(2, "bob", Colour.BLUE, False, True, True)
BOB_AWAY = r.PlayerInfo(2, "bob", Colour.BLUE, False, True, False)
BOT = r.PlayerInfo(3, "bot 1", Colour.YELLOW, True, True, True)


def _snapshot(you: Colour | None, pawns: tuple[int, ...] = (START,) * 16) -> m.Snapshot:
    return m.Snapshot(
        sid=1,
        variant=Variant.STANDARD,
        you=you,
        colours=(Colour.RED, Colour.BLUE, Colour.YELLOW),
        pawns=pawns,
        turn=Colour.RED,
        card=None,
        hand=None,
        scores=None,
        pile=45,
        discards=0,
        top=None,
        discarded=NO_CARDS,
    )


def test_joins_drops_returns_and_leaves_are_announced() -> None:
    st, client = UiState(screen=Screen.FIND), _client()
    shown(st, client, _lobby(ANN))
    assert list(st.log) == []  # the table as found is no news
    shown(st, client, _lobby(ANN, BOB))
    shown(st, client, _lobby(ANN, BOB, BOT))
    shown(st, client, _lobby(ANN, BOB_AWAY, BOT))
    shown(st, client, _lobby(ANN, BOB, BOT))
    shown(st, client, _lobby(ANN, BOT))
    assert list(st.log) == [
        "bob (Blue) joined",
        "bot 1 [bot] (Yellow) joined",
        "bob (Blue) lost the connection; the seat is held",
        "bob (Blue) is back",
        "bob (Blue) left the table",
    ]
    assert list(st.chat)[-1] == "-- bob (Blue) left the table"  # the lobby shows them too


def test_a_bot_moving_for_someone_away_or_for_you_says_so() -> None:
    st, client = UiState(screen=Screen.FIND), _client()
    shown(st, client, _lobby(ANN, BOB, BOT))
    shown(st, client, _snapshot(Colour.RED))
    shown(st, client, _lobby(ANN, BOB_AWAY, BOT))
    bob_moves = m.Events(
        sid=2, colour=Colour.BLUE, notation="B1 start->19",
        events=(r.ev_play(1, 1), r.ev_move(4, START, 19)),
    )  # fmt: skip
    shown(st, client, bob_moves)
    assert st.log[-1] == "Bot for bob (away): B1 start->19"
    # Your own turn timed out: you chose nothing, yet your move arrives.
    offer = m.LegalMoves(
        sid=3, moves=(r.MoveOption(id=0, notation="R1 start->4", move=(0, 1, 0, 4)),), timeout=5
    )
    shown(st, client, offer)
    assert st.deadline is not None
    st.deadline -= 6  # the 5 s ran out
    ours = m.Events(
        sid=3, colour=Colour.RED, notation="R1 start->4",
        events=(r.ev_play(0, 1), r.ev_move(0, START, 4)),
    )  # fmt: skip
    shown(st, client, ours)
    assert st.log[-1] == "Bot for you (your time ran out): R1 start->4"
    st.sent_move = True  # what the board does when you press Enter
    shown(st, client, ours)
    assert st.log[-1] == "You: R1 start->4"
    st.sent_move, st.deadline = False, None  # no time limit: a move is yours
    shown(st, client, ours)
    assert st.log[-1] == "You: R1 start->4"


def test_your_turn_sums_up_what_happened_to_you_and_rings() -> None:
    st, client = UiState(screen=Screen.FIND), _client()
    shown(st, client, _lobby(ANN, BOB, BOT))
    pawns = (10,) + (START,) * 3 + (5,) + (START,) * 11
    shown(st, client, _snapshot(Colour.RED, pawns))
    sorry = m.Events(
        sid=4, colour=Colour.BLUE, notation="Sorry! B2 start->10 xR1",
        events=(r.ev_play(1, 13), r.ev_move(5, START, 10), r.ev_bump(0, 10)),
    )  # fmt: skip
    shown(st, client, sorry)
    offer = m.LegalMoves(
        sid=5, moves=(r.MoveOption(id=0, notation="R1 start->4", move=(0, 1, 0, 4)),), timeout=None
    )
    shown(st, client, offer)
    assert st.summary == ["Blue (bob) played Sorry! on your R1"]
    assert since_text(st.summary) == "Since your last move: Blue (bob) played Sorry! on your R1."
    assert st.bell_due and not any("Since" in line for line in st.log)  # the panel shows it
    assert st.stats[1]["sorry"] == 1 and st.stats[1]["bumps"] == 1
    st.bell, st.bell_due = False, False
    shown(st, client, offer)
    assert not st.bell_due  # the bell turned off stays quiet
    assert st.stats_partial  # this game was joined with pawns already out


def test_a_spectator_is_told_they_are_watching() -> None:
    st, client = UiState(screen=Screen.FIND), _client(pid=None, spectate=True)
    shown(st, client, _lobby(ANN, BOB, BOT, spectators=1))
    assert st.spectating
    pawns = (10,) + (START,) * 15
    shown(st, client, _snapshot(None, pawns))
    assert st.log[-1] == "you are watching a game under way"


def test_a_rematch_request_is_announced_after_the_game() -> None:
    st, client = UiState(screen=Screen.FIND), _client()
    shown(st, client, _lobby(ANN, BOB))
    shown(st, client, _snapshot(Colour.RED))
    shown(st, client, m.GameOver(sid=2, winners=(Colour.BLUE,), scores=None))
    assert st.screen is Screen.OVER
    bob_waits = r.PlayerInfo(2, "bob", Colour.BLUE, False, False, True)
    bob_asks = r.PlayerInfo(2, "bob", Colour.BLUE, False, True, True)
    shown(st, client, _lobby(ANN, bob_waits))
    shown(st, client, _lobby(ANN, bob_asks))
    assert st.log[-1] == "bob (Blue) asks for a rematch (r: you too)"


def test_a_bot_the_table_named_reads_in_the_players_language_a_persons_name_does_not() -> None:
    made = r.PlayerInfo(3, "greedy bot 1", Colour.BLUE, True, True, True)
    chosen = r.PlayerInfo(4, "Robo", Colour.GREEN, True, True, True)
    person = r.PlayerInfo(5, "greedy bot 2", Colour.RED, False, True, True)  # not a bot
    with use_language("el"):
        assert shown_name(made) == "άπληστο ρομπότ 1"
        assert shown_name(chosen) == "Robo" and shown_name(person) == "greedy bot 2"
        assert since_text(["x", "y"]).endswith(": x· y.")  # a Greek ";" asks a question
    assert shown_name(made) == "greedy bot 1"
    assert since_text(["a"], more=2) == "Since your last move: a; 2 more in the log (L)."


def test_who_hosts_the_table_now_is_told_on_the_board_and_in_line_mode() -> None:
    moved = TableNews(TableNewsKind.HOST_CHANGED, 2, "bob", 2)
    assert table_news(moved) == "bob's laptop hosts the table now"
    assert table_news(TableNews(TableNewsKind.HOST_CHANGED, 1, "ann", 2, you=True)) == (
        "your laptop hosts the table now"
    )
    assert table_news(TableNews(TableNewsKind.HANDOVER, 2, "bob", 3)) == (
        "The host hands the table to bob's laptop"
    )
    mine = TableNews(TableNewsKind.HANDOVER, 2, "bob", 2, mine=True)  # the host woke: it moved
    assert table_news(mine) == "your table moved to bob's laptop; you play on as a player"
    assert Teller().tell(_client(), mine) == [
        "Your table moved to bob's laptop; you play on as a player."
    ]
    for lang in ("el", "hi", "lo", "th", "cy"):
        with use_language(lang):
            assert "bob" in table_news(mine) and table_news(mine) != table_news(
                TableNews(TableNewsKind.HANDOVER, 2, "bob", 2)
            )
    hostile = TableNews(TableNewsKind.CLAIM_REFUSED, 3, None, 2, claim=Claim.OUT_OF_TURN)
    assert table_news(hostile) == "3 claimed the table out of turn: refused"
    stale = TableNews(TableNewsKind.CLAIM_REFUSED, 3, "cat", 1, claim=Claim.OLD_EPOCH)
    with use_language("cy"):
        assert table_news(stale) == "Hawliodd cat y bwrdd ag hen epoc: gwrthodwyd"
        assert table_news(TableNews(TableNewsKind.HANDOVER, 2, "bob", 3)) == (
            "Mae'r gwesteiwr yn trosglwyddo'r bwrdd i liniadur bob"
        )
    st = UiState(link=Link.RECONNECTING)  # the host was lost
    shown(st, _client(), moved)
    assert st.link is Link.CONNECTED  # the title bar says so once the new host is followed
    assert st.notice == "bob's laptop hosts the table now"
    assert "bob's laptop hosts the table now" in st.log[-1]
    assert st.hosted_by == "bob's laptop hosts the table now"  # the panel keeps saying it
    # a sentence keeps the player's name as it is (bob, not Bob)
    assert Teller().tell(_client(), moved) == ["bob's laptop hosts the table now."]


def test_in_play_for_points_a_new_host_is_waited_on_for_the_hands_until_it_offers() -> None:
    moved = TableNews(TableNewsKind.HOST_CHANGED, 2, "bob", 2)
    st = UiState(screen=Screen.GAME, link=Link.RECONNECTING, variant=Variant.POINTS)
    shown(st, _client(), moved)
    seen = [st.hands_awaited]  # its board says why no move is offered yet
    # (an offer reads no view: told to the board as it is)
    apply_event(st, _client(), m.LegalMoves.trusted(sid=9, moves=(), timeout=None))
    seen.append(st.hands_awaited)  # offered: waiting no more
    assert seen == [True, False]
    standard = UiState(screen=Screen.GAME, link=Link.RECONNECTING)
    shown(standard, _client(), moved)
    assert not standard.hands_awaited  # no hands to wait for
    lobby = UiState(screen=Screen.LOBBY, variant=Variant.POINTS)
    shown(lobby, _client(), moved)
    assert not lobby.hands_awaited


def test_a_title_that_was_the_old_hosts_address_names_the_table_once_it_moved() -> None:
    moved = TableNews(TableNewsKind.HOST_CHANGED, 2, "bob", 2)
    st = UiState(link=Link.RECONNECTING, game_title="10.0.0.5:4000", title_is_address=True)
    shown(st, _client(), moved)  # no succession known: the new host's name
    assert st.game_title == "bob's table" and not st.title_is_address
    named = UiState(game_title="Friday", title_is_address=False)
    shown(named, _client(), moved)
    assert named.game_title == "Friday"  # a table's own name stays
