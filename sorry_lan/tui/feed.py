"""What the host tells a client, turned into what the screens show.

:func:`apply_event` takes one :data:`~sorry_lan.client.model.ClientEvent` of a
:class:`~sorry_lan.client.model.ClientModel` and updates a :class:`UiState`: the lobby's
seats, the board, whose turn and the card, the legal moves (rebuilt with paths and
bumps for the preview), the log, the last move, scores, the game's figures, chat,
connection state and the turn timer.  The board and the figures are read from the
model's table view as of the event (``ClientModel.view_at``): nothing here applies
events to a board or counts them.  It is plain Python: it sends nothing, redraws nothing (the caller
invalidates the application) and trusts the host for legality.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, assert_never

from sorry_lan.client.model import (
    ClientEvent,
    ClientModel,
    Connection,
    GameRecord,
    ReplayMismatch,
    TableNews,
    TableNewsKind,
)
from sorry_lan.codes import LinkNews
from sorry_lan.i18n import _, words
from sorry_lan.i18n.coded import error_text, say
from sorry_lan.i18n.recordwords import turn_line
from sorry_lan.records.entries import colour_word
from sorry_lan.rules.moves import MoveKind
from sorry_lan.wire import messages as m
from sorry_lan.wire.records import EventKind
from sorry_lan.wire.transitions import State

from .news import (
    at_opening,
    events_news,
    mover_is_away,
    roster_news,
    roster_of,
    shown_name,
    table_news,
)
from .options import BadMove, MoveOption, MovePart, card_name, option_from_compact, played_text
from .state import Link, Screen, Seat, UiState
from .swap_words import swap_news
from .time_words import more_time_news


def link_hint(state: str) -> str:
    """The footer's hint for a connection state (empty when connected)."""
    if state in ("reconnecting", "asleep"):  # asleep: the host may wake; still trying
        return _("your seat is held; wait, or q to leave")
    if state == "lost":
        return _("r rejoins, q leaves")
    return ""


def seats_from_lobby(lobby: m.Lobby, you: int | None) -> list[Seat]:
    """Four seats (one per colour) from the host's roster; ``you`` is our pid."""
    seats = [Seat(c) for c in range(4)]
    for p in lobby.players:
        if p.colour is None:
            continue
        seat = seats[int(p.colour)]
        name = shown_name(p)
        seat.name = name if p.connected else _("{name} (away)").format(name=name)
        seat.bot = p.bot
        seat.program = p.program
        seat.lang = p.lang
        seat.ready = p.ready
        seat.you = you is not None and p.pid == you
        seat.host = lobby.host is not None and p.pid == lobby.host
    return seats


def options_for(
    position: Sequence[int], offer: m.LegalMoves, hand: Sequence[int] = ()
) -> list[MoveOption]:
    """The host's legal moves as list entries with previews.

    With a hand (play for points) each entry says which card it plays.  A move the
    board geometry cannot explain is still listed (without a preview)."""
    out: list[MoveOption] = []
    for opt in offer.moves:
        compact = tuple(int(v) for v in opt.move)
        try:
            # The list shows the short form; the host's words go in the description.
            option = option_from_compact(position, compact, opt.id)
        except BadMove:
            option = MoveOption(
                id=opt.id,
                kind=MoveKind(compact[0]),
                card=compact[1],
                compact=compact,
                notation=opt.notation or str(list(compact)),
                description=opt.notation or _("a move the host offers"),
                parts=(),
            )
        if hand:
            card = card_name(option.card)
            option = replace(
                option,
                notation=f"[{card}] {option.notation}",
                description=words.play_card_words(option.card, option.description),
            )
        out.append(option)
    return out


def last_move_from(events: Sequence[tuple[int, ...]]) -> MoveOption | None:
    """A move rebuilt from the host's event tuples, for the last-move highlight."""
    parts: list[MovePart] = []
    by_pawn: dict[int, int] = {}  # pawn -> index in parts
    card = 0
    bumps: list[int] = []
    for ev in events:
        kind = ev[0]
        if kind == EventKind.PLAY:
            card = ev[2]
        elif kind == EventKind.MOVE:
            pawn, frm, to = ev[1], ev[2], ev[3]
            by_pawn[pawn] = len(parts)
            parts.append(MovePart(pawn, frm, to, to, (to,), (), ()))
        elif kind == EventKind.SLIDE and ev[1] in by_pawn:
            i = by_pawn[ev[1]]
            parts[i] = replace(parts[i], end=ev[3])
        elif kind == EventKind.BUMP:
            bumps.append(ev[1])
    if not parts:
        return None
    if bumps:
        parts[-1] = replace(parts[-1], bumps=tuple(bumps))
    return MoveOption(
        id=-1, kind=MoveKind.SIMPLE, card=card, compact=(), notation="", description="",
        parts=tuple(parts),
    )


def _who(st: UiState, colour: int) -> str:
    return words.you_word() if colour == st.you else st.player_name(colour)


def _event_lines(st: UiState, ev: m.Events) -> list[str]:
    """Log lines for one events message (moves, lost turns, draws again, reshuffles)."""
    lines: list[str] = []
    played = False
    for item in ev.events:
        kind = item[0]
        if kind == EventKind.PLAY:
            played = True
        elif kind == EventKind.DISCARD:
            lines.append(words.discarded_line(_who(st, item[1]), item[2]))
        elif kind == EventKind.TURN_LOST:
            lines.append(words.turn_lost_line(_who(st, item[1]), item[2]))
        elif kind == EventKind.DRAW_AGAIN:
            if item[1] == st.you:
                lines.append(words.you_draw_again_line())
            else:
                lines.append(words.draws_again_line(_who(st, item[1])))
        elif kind == EventKind.RESHUFFLE:
            lines.append(words.reshuffle_line(item[1]))
        elif kind == EventKind.BUMP and played:
            pawn = item[1]
            lines.append("  " + words.bumped_line(pawn, item[2]))
    if played and ev.colour is not None:
        colour = int(ev.colour)
        away = mover_is_away(st, colour)
        timed_out = st.deadline is not None and time.monotonic() >= st.deadline - 0.5
        if colour == st.you and not st.sent_move and timed_out:
            who = _("Bot for you (your time ran out)")
        elif away is not None and colour != st.you:
            who = _("Bot for {name} (away)").format(name=away)
        else:
            who = _who(st, colour)
        played_words = played_text(ev.events, ev.notation or _("moved"))
        lines.insert(0, f"{who}: {played_words}")
    return lines


def apply_event(st: UiState, client: ClientModel, ev: ClientEvent) -> None:
    """Update ``st`` for one event of ``client`` (see the module docstring)."""
    match ev:
        case m.Lobby():
            _lobby(st, client, ev)
        case m.Snapshot():
            _snapshot(st, ev)
            _figures(st, client, ev)
        case m.Turn():
            _turn(st, ev)
        case m.LegalMoves():
            st.hands_awaited = False
            st.set_moves(options_for(st.position, ev, st.hand))
            secs = ev.timeout
            st.deadline = None if secs is None else time.monotonic() + secs
            st.notice = _("your turn: pick a move")
            _your_turn(st)
        case m.MoreTime():
            _more_time(st, client, ev)
        case m.Events():
            # (the view as of this event: the model may have read more behind it)
            st.position = client.view_at(ev).pawns
            st.hands_awaited = False
            move = last_move_from(ev.events)
            if move is not None:
                st.last_move = move
            for line in _event_lines(st, ev):
                st.add_log(line)
            st.events_seen += 1
            colour = None if ev.colour is None else int(ev.colour)
            events_news(st, colour, ev.events)
            _figures(st, client, ev)
            if colour is not None and colour == st.you:
                st.since_last.clear()
                st.summary = []
        case m.GameOver():
            _over(st, ev)
        case m.Rematch():
            _back_to_lobby(st)
            st.add_log(_lobby_opened(client))
        case m.Chat():
            st.add_chat(_chat_name(client, ev.pid), ev.text)
        case m.Error():
            st.notice = error_text(ev.reason.value, ev.text)
        case Connection():
            _connection(st, ev)
        case ReplayMismatch():
            pass  # the client has asked for a resync: the snapshot that answers redraws
        case GameRecord():
            _game_record(st, client, ev)
        case TableNews():
            text = table_news(ev)
            st.notice = text
            st.add_log(text)
            if ev.kind is TableNewsKind.HOST_CHANGED:  # followed: connected again, to the new host
                st.hosted_by = text
                st.hands_awaited = st.screen is Screen.GAME and st.variant.rules.deals_hands
                st.link = Link.CONNECTED
                st.link_hint = ""
                _retitle(st, client, ev)
        case _:
            assert_never(ev)


def _more_time(st: UiState, client: ClientModel, ev: m.MoreTime) -> None:
    """A seat got more time: logged for everyone; this seat's countdown follows."""
    colour = int(ev.colour)
    mine = colour == st.you
    offer = client.view_at(ev).offer
    if mine and offer is not None and offer.sid == ev.sid:
        st.deadline = time.monotonic() + ev.left
    text = more_time_news(None if mine else st.player_name(colour), ev.more)
    st.add_log(text)
    if mine:
        st.notice = text


def _retitle(st: UiState, client: ClientModel, ev: TableNews) -> None:
    """A title that was the address joined names the table once it moved: that
    address is the old host's, and no longer where the table is."""
    if not st.title_is_address:
        return
    config = client.succession.config if client.succession is not None else None
    if config is not None and config.name:
        st.game_title = config.name
    elif ev.name:
        st.game_title = _("{name}'s table").format(name=ev.name)
    else:
        return
    st.title_is_address = False


def _your_turn(st: UiState) -> None:
    """Your turn has come: the summary of what happened to you since, and the bell."""
    st.sent_move = False
    if st.since_last:
        st.summary = list(st.since_last)
        st.since_last.clear()
    if st.bell:
        st.bell_due = True


def _lobby_opened(client: ClientModel) -> str:
    """Who opened the next game's lobby, truthfully: the host, or (at a table nobody
    hosts) every player, by asking for another game."""
    lobby = client.lobby
    host = None if lobby is None or lobby.host is None else lobby.host
    if host is None:
        return _("everyone asked for another game: its lobby is open, with the same seats")
    if host == client.pid:
        return _("you opened the next game's lobby, with the same seats: s starts it")
    name = next((p.name for p in lobby.players if p.pid == host), "") if lobby else ""
    return _("{host} opened the next game's lobby, with the same seats").format(
        host=name or _("the host")
    )


def _back_to_lobby(st: UiState) -> None:
    """The table is in its lobby (the next game's, or a new table's): the game shown
    is over and gone; its log stays."""
    st.screen = Screen.LOBBY
    st.set_moves([])
    st.deadline = None
    st.turn = None
    st.card = None
    st.hand = ()
    st.notice = ""


def _lobby(st: UiState, client: ClientModel, lobby: m.Lobby) -> None:
    if client.state is State.LOBBY and st.screen in (Screen.GAME, Screen.OVER):
        # Welcomed into a lobby with an old game on the screen: a new table at the
        # same address, or the next game's lobby opened while we were away.
        _back_to_lobby(st)
        st.add_log(_("the table is in its lobby: the game shown before is over"))
    roster = roster_of(lobby)
    swaps = lobby.swaps or ()
    if st.roster:  # (the first roster is the table as found, not news)
        news = roster_news(st.roster, roster, client.pid, st.screen is Screen.OVER)
        news += swap_news(st.swaps, st.roster, swaps, roster, client.pid, client.swap_answered)
        for line in news:
            st.add_log(line)
            if st.screen is Screen.LOBBY:
                st.chat.append(f"-- {line}")
    if any(asked == client.pid for _asker, asked in swaps) and not any(
            asked == client.pid for _asker, asked in st.swaps):  # fmt: skip
        st.bell_due = st.bell  # someone asks: the player may be looking away
    st.roster, st.swaps, st.me = roster, swaps, client.pid
    st.swaps_on = lobby.swaps is not None
    st.spectating = client.spectate
    st.watchers = lobby.spectators
    st.auto_start = lobby.host is None  # a headless table (no owner) starts by itself
    st.hints_on = bool(lobby.hints)
    if st.title_is_address and lobby.host is not None and lobby.host in roster:
        st.game_title = _("{name}'s table").format(name=roster[lobby.host].name)
        st.title_is_address = False
    st.seats = seats_from_lobby(lobby, client.pid)
    st.is_host = client.owner
    st.variant = lobby.variant
    st.seat_limit = lobby.seats
    # After a game, the names of those who left stay on its result.
    kept = st.names if st.screen is Screen.OVER else {}
    st.names = {c: name for c, name in kept.items() if c in st.seated}
    for p in lobby.players:
        if p.colour is not None:
            st.names[int(p.colour)] = shown_name(p)
    if st.screen is Screen.FIND:
        st.screen = Screen.LOBBY
        st.notice = ""
    if client.colour is not None and st.screen is Screen.LOBBY:
        st.you = client.colour


def _snapshot(st: UiState, snap: m.Snapshot) -> None:
    resync = st.screen is Screen.GAME  # the same game again (after a reconnection)
    st.screen = Screen.GAME
    st.you = None if snap.you is None else int(snap.you)
    st.position = tuple(snap.pawns)
    st.seated = tuple(int(c) for c in snap.colours)
    st.turn = None if snap.turn is None else int(snap.turn)
    st.card = None if snap.card is None else int(snap.card)
    st.hand = tuple(int(c) for c in snap.hand) if snap.hand else ()
    st.variant = snap.variant
    points = snap.variant.rules.scores_points
    st.scores = {c: s for c, s in enumerate(snap.scores or ()) if c in st.seated and points}
    st.set_moves([])
    st.deadline = None
    st.last_move = None
    st.winner = ""
    st.won = ()
    st.notice = ""
    fresh = at_opening(snap)
    if fresh:
        st.events_seen = 0
    if fresh or not resync:
        st.since_last.clear()
        st.summary = []
    if st.spectating:
        if fresh:
            line = _("you are watching: the game begins")
        else:
            line = _("you are watching a game under way")
    else:
        line = _("the game begins") if fresh else _("back at the game in progress")
    if not st.log or st.log[-1] != line:
        st.add_log(line)
        if st.turn is not None and st.card is not None:
            if st.turn == st.you:
                st.add_log(words.you_drew_line(st.card))
            else:
                st.add_log(words.drew_line(_who(st, st.turn), st.card))


def _figures(st: UiState, client: ClientModel, ev: ClientEvent) -> None:
    """The game's figures as of ``ev``: the model's history's (``client.figures``),
    the same count the line mode, a bot and the replay read; partial when that
    history does not begin at the game's start."""
    history = client.view_at(ev).history
    st.stats = history.figures.counters()
    st.stats_partial = not history.whole


def _game_record(st: UiState, client: ClientModel, got: GameRecord) -> None:
    """The host's record of the game (protocol version 3; the client process files a
    whole one): the model's history goes on from it (the game so far, sent after the
    snapshot to a player who came back mid-game or whose process was new) or takes
    it (the first whole one, when its own is not), so the figures are read again."""
    if st.screen not in (Screen.GAME, Screen.OVER):
        return
    _figures(st, client, got)
    if not got.whole and st.events_seen == 0:
        _log_so_far(st, got.record)


def _log_so_far(st: UiState, record: dict[str, Any]) -> None:
    """A process that came in mid-game (a new one after a crash, another client) logs
    nothing of what was played before it: put the game so far, a turn a line, in front
    of its "back at the game" line, so its log is the whole game like everyone's."""
    names: dict[object, str] = {colour_word(c): _who(st, c) for c in range(4)}  # as said live
    try:
        earlier = [turn_line(t, names) for t in record.get("turns") or [] if isinstance(t, dict)]
    except (KeyError, TypeError, ValueError, AttributeError):
        return  # a turn this program cannot word: the log stays as it was
    if not earlier:
        return
    lines = list(st.log)
    back = {_("back at the game in progress"), _("you are watching a game under way")}
    at = max((i for i, line in enumerate(lines) if line in back), default=len(lines))
    lines[at:at] = earlier
    st.log = deque(lines, maxlen=st.log.maxlen)


def _turn(st: UiState, turn: m.Turn) -> None:
    colour = int(turn.colour)
    changed = st.turn != colour
    st.turn = colour
    st.card = None if turn.card is None else int(turn.card)
    if turn.hand is not None:
        st.hand = tuple(int(c) for c in turn.hand)
    st.set_moves([])  # the legal moves, if any, follow
    st.deadline = None
    if colour != st.you:
        st.notice = ""
    if changed and st.card is not None:
        if colour == st.you:
            st.add_log(words.you_drew_line(st.card))
        else:
            st.add_log(words.drew_line(_who(st, colour), st.card))
    elif changed:
        st.add_log(words.to_play_line(_who(st, colour)))


def _over(st: UiState, over: m.GameOver) -> None:
    st.screen = Screen.OVER
    st.hands_awaited = False
    st.set_moves([])
    st.deadline = None
    st.turn = None
    winners = [int(c) for c in over.winners]
    st.won = tuple(winners)
    if not winners:
        st.winner = words.winners_line([])
    else:
        you_won = st.you is not None and st.you in winners
        st.winner = words.winners_line([st.player_name(c) for c in winners])
        if you_won:
            st.winner += "  " + _("(that's you!)")
    if over.scores is not None:
        st.scores = {c: s for c, s in enumerate(over.scores) if c in st.seated}
    st.add_log(_("game over: {result}").format(result=st.winner))
    st.notice = ""


def _connection(st: UiState, ev: Connection) -> None:
    link = {
        "connected": Link.CONNECTED,
        "reconnecting": Link.RECONNECTING,
        "asleep": Link.RECONNECTING,
        "lost": Link.LOST,
    }.get(ev.state, Link.LOST)
    st.link = link
    st.link_hint = link_hint(ev.state)
    code = ev.news.code
    st.quiet_until = None
    if code in (LinkNews.QUIET, LinkNews.QUIET_NO_HEIR):
        seconds = ev.news.fields.get("seconds")
        assert isinstance(seconds, int)
        st.quiet_until = time.monotonic() + seconds
        st.quiet_heir = code is LinkNews.QUIET
    text = say(ev.news)
    st.notice = text
    st.add_log(text)
    if link is not Link.CONNECTED:
        st.set_moves([])
        st.deadline = None


def _chat_name(client: ClientModel, pid: int | None) -> str:
    if pid is None:
        return _("host")
    lobby = client.lobby
    if lobby is not None:
        for p in lobby.players:
            if p.pid == pid:
                colour = "" if p.colour is None else f" ({words.colour_name(int(p.colour))})"
                return shown_name(p) + colour
    return _("player {pid}").format(pid=pid)
