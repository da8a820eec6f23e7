"""One phone's seat: an ordinary client of the table, run on the serving laptop.

A :class:`Phone` owns a :class:`~sorry_lan.net.client.GameClient` that joined the
table at its own port (the same client ``sorry-lan join`` runs: the host checks
every move, the PIN applies, a hand in play for points is sent to this client
alone, a dropped link is reconnected with the seat's token) and the line mode's
:class:`~sorry_lan.tui.telling.Teller` of that seat.  Each event from the host is
told in the phone's language, kept in the log and the page is sent the whole screen
again (:func:`~sorry_lan.web.screen.screen`).  The page's choices are this client's
requests and no other seat's: a phone has no way to name another seat.

It does not speak HTTP (``web.server`` does) and keeps no rules: whether a choice
is allowed is the client model's and the host's to say, and a refusal is sent back
to the page worded by the catalogs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable

from sorry_lan.client.model import Connection
from sorry_lan.codes import JoinFailure
from sorry_lan.i18n import N_, _, use_language
from sorry_lan.i18n.coded import say
from sorry_lan.net.client import ClientOptions, GameClient, JoinError
from sorry_lan.tui.telling import Teller
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.limits import SUPPORTED_VERSIONS
from sorry_lan.wire.vocab import RefuseReason

from . import choices as c
from .record import record_frame
from .screen import Json, screen

log = logging.getLogger(__name__)

#: Log lines a page is sent (the newest).
LOG_KEPT = 40
#: The protocol versions a phone's page offers: every one (it trades colours and asks
#: for more time as any seat does).
PHONE_VERSIONS = SUPPORTED_VERSIONS

#: Sends one frame to the page attached (none attached: dropped).
Send = Callable[[Json], Awaitable[None]]


#: The refusals whose words for a terminal name a command-line option (``--pin``,
#: ``--name``): a phone's page says what to do on the page instead.
_ON_THE_PAGE: dict[object, str] = {
    RefuseReason.BAD_PIN: N_("wrong PIN: check it with the host and type it again"),
    RefuseReason.NAME_TAKEN: N_("that name is taken at this table: choose another"),
    JoinFailure.PIN_NEEDED: N_("this game needs a PIN: ask the host for it and type it here"),
}


def refused_words(exc: JoinError) -> str:
    """Why the host would not seat a phone, in the current language, worded for a
    page (never a command-line option)."""
    page = _ON_THE_PAGE.get(exc.reason)
    return _(page) if page is not None else say(exc)


class SeatRefused(c.BadChoice):
    """The host would not seat this phone: ``reason`` is ``refused``; the message is
    the host's refusal in the phone's language."""


class Phone:
    """One phone's seat at the table; see the module docstring."""

    def __init__(self, client: GameClient, lang: str) -> None:
        self.client = client
        self.lang = lang
        self.teller = Teller(typed=False)  # (its page taps, it types nothing)
        self.log: deque[str] = deque(maxlen=LOG_KEPT)
        self.link: str | None = None  # the last link news, while it is not connected
        self._send: Send | None = None
        self._pump: asyncio.Task[None] | None = None
        self._showing: asyncio.Future[None] | None = None
        # (the record frame the attached page was sent last: game, language, page)
        self._record_sent: tuple[int, str, Send] | None = None
        self.ended = asyncio.Event()  # the client is closed for good

    @property
    def token(self) -> bytes | None:
        return self.client.model.token

    @classmethod
    async def join(
        cls, table: tuple[str, int], choice: c.Join, lang: str
    ) -> Phone:
        """A phone seated at ``table`` (host, port) by the page's join; a token the
        host no longer knows is dropped and the phone joins afresh.  Raises
        :class:`SeatRefused` with the host's words."""
        host, port = table
        token = choice.token
        while True:
            # (a phone's page cannot answer an ask to trade colours: it offers no
            # version 6, so the host never lets anyone ask it)
            options = ClientOptions(token=token, lang=lang, pin=choice.pin, versions=PHONE_VERSIONS)
            client = GameClient(host, port, choice.name, options)
            try:
                await client.connect()
            except JoinError as exc:
                if token is not None and exc.reason is RefuseReason.BAD_TOKEN:
                    token = None
                    continue
                with use_language(lang):
                    raise SeatRefused("refused", refused_words(exc)) from None
            phone = cls(client, lang)
            phone._pump = asyncio.create_task(phone._run())
            return phone

    def attach(self, send: Send | None) -> None:
        """The page that shows this seat from now (None: none is open)."""
        self._send = send

    def shown_soon(self) -> None:
        """Send the attached page the whole screen once the events of this read are
        told (one frame for several)."""
        if self._showing is None or self._showing.done():
            self._showing = asyncio.ensure_future(self.show())

    async def show(self) -> None:
        """Send the attached page the whole screen; once the game on the board is
        over and its whole record in, that record first (once a page and language)."""
        await asyncio.sleep(0)
        send = self._send
        if send is None:
            return
        with use_language(self.lang):
            frame = screen(self.client.model, self.teller, self.log, self.lang, self.link)
            record = self._record_owed(send, frame)
        with contextlib.suppress(ConnectionError, RuntimeError):
            if record is not None:
                await send(record)
            await send(frame)

    def _record_owed(self, send: Send, frame: Json) -> Json | None:
        """The record frame ``send``'s page is owed with ``frame`` (None: none, or
        sent it already in this language)."""
        game = frame.get("record")
        if not isinstance(game, int) or self._record_sent == (game, self.lang, send):
            return None
        record = record_frame(self.client.model.book)
        if record is not None:
            self._record_sent = (game, self.lang, send)
        return record

    async def _run(self) -> None:
        client = self.client
        try:
            while True:
                ev = await client.next_event()
                with use_language(self.lang):
                    lines = self.teller.tell(client.model, ev)
                if isinstance(ev, Connection):
                    connected = ev.state == "connected"
                    self.link = None if connected else (lines[-1] if lines else None)
                    if ev.state == "lost":
                        self.log.extend(lines)
                        await self.show()
                        return
                if not self.teller.offered or client.model.moves is None:
                    self.log.extend(lines)
                elif lines:
                    self.log.append(lines[0])  # an offer's head: its moves are buttons
                self.shown_soon()
        finally:
            self.ended.set()

    def choose(self, choice: c.Choice) -> None:
        """Ask the host for what the page chose; a choice not allowed now raises
        :class:`~sorry_lan.web.choices.BadChoice` (``refused``, in the phone's words)."""
        client = self.client
        try:
            match choice:
                case c.Ready(ready=ready):
                    client.ready(ready)
                case c.Colour(colour=colour):
                    client.choose_colour(colour)
                case c.Move(offer=sid, index=index):
                    self._play(sid, index)
                case c.Chat(text=text):
                    client.chat(text)
                case c.Rematch():
                    client.rematch()
                case c.Trade(pid=pid):
                    client.ask_swap(pid)
                case c.Answer(accept=accept):
                    client.answer_swap(accept)
                case c.MoreTime():
                    client.ask_more_time()
                case c.Language(lang=lang):
                    self.lang = lang
                    client.set_profile(lang)
                case c.Join():
                    raise c.BadChoice("joined", "this page has a seat already")
        except LocalProtocolError as exc:
            with use_language(self.lang):
                raise c.BadChoice("refused", say(exc.reason)) from None

    def _play(self, sid: int, index: int) -> None:
        offer = self.client.model.moves
        if offer is None or offer.sid != sid or index >= len(self.teller.offered):
            raise c.BadChoice("stale", "that move is no longer on offer")
        self.client.play(self.teller.offered[index].id)
        self.teller.played()

    async def close(self, *, bye: bool = True) -> None:
        """Leave the table (its bye; without ``bye`` the seat is kept for its grace)
        and stop telling, once the page was sent what it was told last (the game's
        result, when the table closes as the game ends)."""
        if self._showing is not None:
            with contextlib.suppress(Exception):
                await self._showing
        self._send = None
        await self.client.close(bye=bye)
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
