"""The text board's link to a host: :class:`Actions` on top of a :class:`GameClient`.

:class:`ClientController` turns key presses into requests to the host (joining,
colours, ready, bots, variant, start, moves, chat, rematch) and turns everything the
host says into :class:`UiState` changes (through :func:`feed.apply_event`), then
redraws; for the game over's replay it reads the game as it was told from the client
model's table view (:func:`~sorry_lan.replay.seen.tape_of`), and prefers the host's
record when one came.
Every :class:`Actions` method returns at once; the network work runs as a
task on the event loop, and failures come back as a line on the screen (a refused
join leaves the player on the find screen to try again).  After the client has given
up reconnecting ("host lost"), ``reconnect`` connects the same client again, so its
seat token reclaims the seat.

It does not draw, read keys, search the LAN (``finder.py``) or decide anything about
the game: the host is the authority and offers the legal moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from sorry_lan.bots import DEFAULT_STRENGTH, STRENGTHS, level_of
from sorry_lan.client.model import ClientEvent, Connection
from sorry_lan.client.swaps import holder
from sorry_lan.client.view import NO_VIEW, TableView
from sorry_lan.i18n import _, language
from sorry_lan.i18n.coded import say
from sorry_lan.net.address import AddressError, parse_address
from sorry_lan.net.client import ClientOptions, GameClient, JoinError, JoinFailure
from sorry_lan.records import RecordError
from sorry_lan.replay import Tape, from_record
from sorry_lan.replay.seen import tape_of
from sorry_lan.rules.variants import Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.records import PlayerInfo
from sorry_lan.wire.vocab import RefuseReason

from .alone import AloneQuestion, cut_off_words
from .feed import apply_event, link_hint
from .hinting import HintsOff, Job, allowed, hint_job, judge
from .menu import percent
from .state import AloneAsk, Link, Screen, UiState
from .time_words import time_refused

log = logging.getLogger(__name__)


# Refusals after which the find screen offers to watch the table instead.
WATCH_OFFERED = frozenset({RefuseReason.FULL, RefuseReason.STARTED})

ClientFactory = Callable[[str, int, str, str | None], GameClient]


class Redraw(Protocol):
    def invalidate(self) -> None: ...


def _default_client(host: str, port: int, name: str, pin: str | None) -> GameClient:
    return GameClient(host, port, name, ClientOptions(pin=pin, lang=language()))


def join_error_text(exc: JoinError) -> str:
    """A refusal in words for the find screen: what to do here for a missing or wrong
    PIN or a taken name (the code's own words name command options), else the words
    of its code."""
    if exc.reason is JoinFailure.PIN_NEEDED:
        return _("this game needs a PIN: type it in the PIN field and press Enter")
    if exc.reason is RefuseReason.NAME_TAKEN:
        return _("that name is taken at this table: change your name and press Enter")
    if exc.reason is RefuseReason.BAD_PIN:
        return _("wrong PIN: check it with the host, type it again and press Enter")
    return say(exc)


class ClientController:
    """Implements :class:`~sorry_lan.tui.state.Actions` for one player; see the module doc."""

    def __init__(
        self,
        state: UiState,
        *,
        make_client: ClientFactory = _default_client,
        colour: int | None = None,
    ) -> None:
        self.state = state
        self.make_client = make_client
        self.wanted_colour = colour
        self.client: GameClient | None = None
        self.view: Redraw | None = None
        self.on_leave: Callable[[], None] | None = None
        self.on_joined: Callable[[], None] | None = None  # e.g. stop searching the LAN
        # told the name a seat was taken under (the join screen offers it next time)
        self.on_name: Callable[[str], object] | None = None
        self.on_event: Callable[[ClientEvent], None] | None = None  # after it is shown
        self._pump: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._rejoining = False
        self._refusal: JoinError | None = None  # the last join refusal (worded again)
        # the table as of the last event shown (the model's view: the replay reads it)
        self.shown: TableView = NO_VIEW
        # this machine's games, per person: won of their latest (the lobby says it)
        self.form: Callable[[], dict[str, tuple[int, int]]] | None = None
        self._form_read = False
        self._told_cut_off = False  # the host's person was told its game waits, cut off
        state.relabel.append(self._relabel)
        state.game_tape = self.game_tape

    def _relabel(self) -> None:
        """The find screen's refusal again, in the language chosen since."""
        if self._refusal is not None and self.state.error:
            self.state.error = self._refusal_words(self._refusal)

    def _refusal_words(self, exc: JoinError) -> str:
        text = join_error_text(exc)
        if exc.reason in WATCH_OFFERED and self.state.watch_offer:
            text = _("{why}; press Enter to watch it instead").format(why=text)
        return text

    # -- wiring -------------------------------------------------------------------------

    def attach(self, view: Redraw) -> None:
        self.view = view

    def redraw(self) -> None:
        if self.view is not None:
            self.view.invalidate()

    def adopt(self, client: GameClient) -> None:
        """Use an already connected client (the host's own player) and follow its events."""
        self.client = client
        st = self.state
        st.link = Link.CONNECTED
        st.link_hint = ""
        st.is_host = client.model.owner
        st.spectating = client.model.spectate
        if st.screen is Screen.FIND:
            st.screen = Screen.LOBBY
        self._pump = asyncio.create_task(self._follow(client))
        if self.on_joined is not None:
            self.on_joined()
        self.redraw()

    async def _follow(self, client: GameClient) -> None:
        while True:
            ev = await client.next_event()
            if not isinstance(ev, Connection):  # (the shell's news: the table as it was)
                self.shown = client.model.view_at(ev)
            try:
                if isinstance(ev, m.GameOver) or (isinstance(ev, m.Lobby) and not self._form_read):
                    self._read_form()
                apply_event(self.state, client.model, ev)
                self._cut_off_news()
            except Exception:  # a bad message must not kill the screen
                log.exception("could not show %r", ev)
            self.redraw()
            if self.on_event is not None:
                self.on_event(ev)

    def _read_form(self) -> None:
        """This machine's games again: at the first roster and after each game."""
        self._form_read = True
        if self.form is None:
            return
        try:
            self.state.form = self.form()
        except OSError as exc:
            log.debug("the saved games could not be read: %s", exc)

    def game_tape(self) -> Tape | None:
        """The game just played, to replay: the host's record of it (protocol version
        3), else as this board was told it (an older host, or the record not come)."""
        seen = tape_of(self.shown)
        kept = self.client.model.records if self.client is not None else []
        if kept and seen is not None and seen.over and seen.steps:
            try:
                recorded = from_record(kept[-1].record, "the host's game record")
            except RecordError as exc:
                log.debug("the host's game record does not replay: %s", exc)
                return seen
            if recorded.steps and recorded.steps[-1].pawns == seen.steps[-1].pawns:
                return recorded  # (the last kept is this game's: it ended as seen)
        return seen

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _request(self, what: str, make: Callable[[GameClient], None]) -> None:
        client = self.client
        if client is None or not client.connected:
            self.state.notice = _("cannot {action}: not connected to the host").format(action=what)
            self.redraw()
            return
        try:
            make(client)
        except LocalProtocolError as exc:
            self.state.notice = _("cannot {action}: {why}").format(action=what, why=exc)
            self.redraw()

    # -- Actions ------------------------------------------------------------------------

    def join(self, address: str, name: str, pin: str, watch: bool = False) -> None:
        st = self.state
        if st.joining or self.client is not None:
            return
        self._refusal = None
        try:
            host, port = parse_address(address)
        except AddressError as exc:
            st.error = str(exc)
            self.redraw()
            return
        st.joining = True
        st.error = ""
        st.watch_offer = ""
        st.link = Link.CONNECTING
        st.link_hint = f"{host}:{port}"
        self.redraw()
        self._spawn(self._join(host, port, name, pin or None, watch, address))

    async def _join(
        self,
        host: str,
        port: int,
        name: str,
        pin: str | None,
        watch: bool = False,
        address: str = "",
    ) -> None:
        st = self.state
        client = self.make_client(host, port, name, pin)
        if watch:
            client.model.spectate = True
        try:
            await client.connect()
        except JoinError as exc:
            self._refusal = exc
            st.focus_field = ""
            if exc.reason in (JoinFailure.PIN_NEEDED, RefuseReason.BAD_PIN):
                st.focus_field = "pin"
            elif exc.reason is RefuseReason.NAME_TAKEN:
                st.focus_field = "name"
            if exc.reason in WATCH_OFFERED and not client.model.spectate:
                st.watch_offer = address
            st.error = self._refusal_words(exc)
            st.link = Link.OFFLINE
            st.link_hint = ""
            return
        except (OSError, LocalProtocolError) as exc:  # e.g. a name the protocol refuses
            self._refusal = None
            st.error = str(exc) or _("{error} while joining: try again").format(
                error=type(exc).__name__
            )
            st.link = Link.OFFLINE
            st.link_hint = ""
            return
        finally:
            st.joining = False
            self.redraw()
        if not st.game_title:  # joined by address: the lobby names the host's table
            st.game_title = f"{host}:{port}"
            st.title_is_address = True
        self.adopt(client)
        if self.on_name is not None and not client.model.spectate:
            self.on_name(client.name)
        if client.seat_not_kept is not None:  # only this process can take the seat back
            st.notice = say(client.seat_not_kept)
            st.add_log(st.notice)
        if self.wanted_colour is not None and not client.model.spectate:
            self.choose_colour(self.wanted_colour)

    def choose_colour(self, colour: int) -> None:
        self._request(_("change colour"), lambda c: c.choose_colour(colour))

    def ask_swap(self, colour: int | None) -> None:
        """Ask whoever sits at ``colour`` to trade colours (None: take the ask back)."""
        if colour is None:
            self._request(_("take back your ask"), lambda c: c.ask_swap(None))
            return
        lobby = self.client.model.lobby if self.client is not None else None
        other = holder(lobby, colour)
        if other is None:
            self.choose_colour(colour)  # (free again meanwhile)
            return
        pid = other.pid
        self._request(_("ask to trade colours"), lambda c: c.ask_swap(pid))

    def answer_swap(self, accept: bool) -> None:
        self._request(_("answer the ask to trade colours"), lambda c: c.answer_swap(accept))

    def ready(self) -> None:
        mine = next((s for s in self.state.seats if s.you), None)
        want = not (mine is not None and mine.ready)
        self._request(_("say you are ready"), lambda c: c.ready(want))

    def add_bot(self) -> None:
        self._request(_("add a bot"), lambda c: c.add_bot())

    def _newest_bot(self) -> PlayerInfo | None:
        lobby = self.client.model.lobby if self.client is not None else None
        bots = [p for p in lobby.players if p.bot] if lobby is not None else []
        if not bots:
            self.state.notice = _("there is no bot at the table")
            self.redraw()
            return None
        return max(bots, key=lambda p: p.pid)

    def remove_bot(self) -> None:
        bot = self._newest_bot()
        if bot is not None:
            pid = bot.pid
            self._request(_("remove a bot"), lambda c: c.remove_bot(pid))

    def cycle_bot(self) -> None:
        """Give the newest bot the next strength (random, greedy, expert, master): it leaves
        its seat and a bot of that strength takes it."""
        bot = self._newest_bot()
        if bot is None:
            return
        level = level_of(bot.name) or DEFAULT_STRENGTH
        following = STRENGTHS[(STRENGTHS.index(level) + 1) % len(STRENGTHS)]
        pid, colour = bot.pid, bot.colour

        def swap(c: GameClient) -> None:
            c.remove_bot(pid)
            c.add_bot(None if colour is None else int(colour), following)

        self._request(_("change the bot's strength"), swap)

    def set_variant(self, variant: Variant) -> None:
        self._request(_("change the rules"), lambda c: c.set_variant(variant))

    def start(self) -> None:
        self._request(_("start the game"), lambda c: c.start())

    def play(self, move_id: int) -> None:
        st = self.state
        if not any(mv.id == move_id for mv in st.moves):
            st.notice = _("that move is not on offer")
            self.redraw()
            return
        st.set_moves([])
        st.deadline = None
        self._request(_("play the move"), lambda c: c.play(move_id))

    def hint(self) -> None:
        """h: each offered move's chance to win, worked out on a worker thread from
        this seat's view; the menu then lists them best first."""
        st, client = self.state, self.client
        if client is None:
            return
        if not allowed(client.model):
            st.notice = _("this table has no hints (the host can turn them on: host --hints)")
            self.redraw()
            return
        try:
            job = hint_job(client.model)
        except HintsOff:
            st.notice = _("hints are for your turn")
            self.redraw()
            return
        st.hinting = True
        st.notice = _("working out the hints...")
        self.redraw()
        self._spawn(self._hints(client, job))

    async def _hints(self, client: GameClient, job: Job) -> None:
        chances = await asyncio.to_thread(judge, job)
        st = self.state
        offer = client.model.moves
        if offer is None or offer.sid != job[0] or not st.moves:
            return  # the turn has gone by meanwhile
        st.show_hints(chances)
        best = max(chances.values(), default=0.0)
        st.notice = _("hints: the moves best first; the best has {chance} to win").format(
            chance=percent(best))
        self.redraw()

    def more_time(self) -> None:
        """+: more time for the turn on offer, once a turn; or why not.  The host's
        ``time`` moves the countdown on."""
        st, client = self.state, self.client
        why = None if client is None else time_refused(client.model)
        if why is not None:
            st.notice = why
            self.redraw()
            return
        st.notice = _("asking for more time")
        self._request(_("ask for more time"), lambda c: c.ask_more_time())
        self.redraw()

    def chat(self, text: str) -> None:
        self._request(_("send the chat line"), lambda c: c.chat(text[:200]))

    def language_changed(self) -> None:
        """The player chose another language: tell the host, so that the others'
        lobbies show it (a version-1 host cannot hear it; the next connection tells)."""
        if self.client is not None:
            self.client.set_profile(language())

    def rematch(self) -> None:
        st = self.state
        if st.is_host:
            st.notice = _("opening the next game's lobby")
        elif st.auto_start:
            st.notice = _("you asked for another game: it begins once every player has asked")
        else:
            st.notice = _("you asked for another game: the host opens its lobby")
        self._request(_("ask for a rematch"), lambda c: c.rematch())

    def reconnect(self) -> None:
        """After "host lost": connect the same client again; its seat token reclaims the
        seat (a spectator just watches again).  The outcome is shown either way."""
        st = self.state
        client = self.client
        if client is None:
            st.notice = _("not at a table: choose a game and press Enter")
        elif st.link is not Link.LOST or self._rejoining:
            st.notice = _("still connected to the host") if client.connected else st.notice
        else:
            self._rejoining = True
            st.link = Link.CONNECTING
            st.link_hint = _("rejoining {address}").format(address=f"{client.host}:{client.port}")
            st.notice = _("rejoining the table...")
            self._spawn(self._rejoin(client))
        self.redraw()

    async def _rejoin(self, client: GameClient) -> None:
        st = self.state
        try:
            await client.connect()
        except JoinError as exc:
            self._rejoin_failed(client, join_error_text(exc), exc.reason)
        except (OSError, LocalProtocolError) as exc:
            self._rejoin_failed(client, str(exc), JoinFailure.UNREACHABLE)
        else:
            st.link = Link.CONNECTED
            st.link_hint = ""
            st.notice = _("rejoined: you are back at the table")
            st.add_log(st.notice)
        finally:
            self._rejoining = False
            self.redraw()

    def _rejoin_failed(
        self, client: GameClient, text: str, reason: RefuseReason | JoinFailure
    ) -> None:
        st = self.state
        st.link = Link.LOST
        st.link_hint = link_hint("lost")
        if reason is RefuseReason.BAD_TOKEN and client.model.token is not None:
            # The table no longer knows our seat (e.g. a new table on the same address):
            # the next try asks for a new seat under the same name.
            client.model.token = None
            text = _("{why}; r asks for a new seat").format(why=text)
        st.notice = _("could not rejoin: {why}").format(why=text)
        st.add_log(st.notice)

    def leave(self) -> None:
        if self.on_leave is not None:
            self.on_leave()

    # -- playing on alone (issue 31) ------------------------------------------------------

    def ask_alone(self, question: AloneQuestion) -> None:
        """Put the heir's question (nobody answers once the host is lost: start a game
        of your own here?) on the board while it is asked; it goes when it is answered
        or withdrawn (the table was found, or the heir gave up)."""
        st = self.state

        def changed() -> None:
            if question.asking and st.alone_ask is None:
                st.alone_ask = AloneAsk(question.answer)
            elif not question.asking and st.alone_ask is not None and not st.alone_ask.cut_off:
                st.alone_ask = None
            self.redraw()

        question.on_change.append(changed)

    def _cut_off_news(self) -> None:
        """Say once on the board, when the host's game begins to wait because its laptop
        is cut off, why (its ``a`` key then plays on alone)."""
        st = self.state
        cut = st.play_alone is not None and st.play_alone.possible()
        if cut and not self._told_cut_off:
            st.notice = cut_off_words()
            st.add_log(st.notice)
        self._told_cut_off = cut

    # -- ending -------------------------------------------------------------------------

    async def close(self) -> None:
        """Say goodbye to the host and stop following it."""
        for task in list(self._tasks):
            task.cancel()
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
        if self.client is not None:
            await self.client.close()
