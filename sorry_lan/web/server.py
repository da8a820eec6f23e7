"""The phone's page over HTTP: its own files and one WebSocket per phone.

:class:`WebServer` serves on the listening sockets the caller made (``net`` makes
sockets, an IPv6 one beside the IPv4 one where the table has it; this package only
uses those it is handed) the page's files, package
data read once (``GET /``, ``/app.js``, ``/app.css``, ``/favicon.svg``), each with
a strict Content-Security-Policy, ``/table`` (the id of the table served:
``table_id``, which a page asks of the next hosts when its own laptop is gone) and
``/ws``, the WebSocket a page plays through (protocol/WEB.md).  Anything else is
refused with a clear status: 404 for a path it does not serve, 405 for a method
other than GET or HEAD, 413 for a request with a body, 400 for a malformed one or a
header too long, 403 for a WebSocket opened from another site's page, 503 once
:data:`PHONES_MAX` pages are open.

Each page joins with a name (or its seat's token) and gets a
:class:`~sorry_lan.web.phone.Phone`: an ordinary client of the table at ``table``
(host, port: the table's own port on loopback).  A page that closes leaves its
seat's client connected for ``linger`` seconds, so a page opened again with the
token takes it back as it was; after that the client leaves, as a player who quit.
Each open page is sent a ``tick`` every ``tick`` seconds, by which it knows its link
lives; a page heard nothing from for ``quiet`` seconds (not even the pong its browser
answers a ping with) is dropped as closed, since a phone whose Wi-Fi died says nothing.
It decides nothing about the game and never names one seat to another's page.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from importlib import resources
from typing import TYPE_CHECKING

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.typedefs import Handler

from sorry_lan.i18n import DEFAULT, use_language

from . import choices as c
from .phone import Phone
from .screen import Json, greeting

if TYPE_CHECKING:
    import socket
    from collections.abc import Coroutine

log = logging.getLogger(__name__)

#: The page's files: name -> content type.
FILES = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
#: What a page may load and where it may connect: its own files and WebSocket, and
#: (``http:``) the ``/table`` of the pages its table's next hosts would serve
#: (``follow``), asked once its own laptop is gone.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self' http:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
#: Pages open at once (a family's phones, with room to spare).
PHONES_MAX = 16
#: A request line or header field longer than this is refused (bytes).
LINE_MAX = 4096
#: WebSocket frames larger than this close the socket (1009); smaller ones that are no
#: choice (``choices.FRAME_MAX``) are answered with an error and the socket stays open.
WS_FRAME_MAX = 4 * c.FRAME_MAX
#: Seconds between two ``tick`` frames to a page: often enough that a page which hears
#: none for 2.5 of them (10 s) may take its link as dead and look for its table, rare
#: enough to cost nothing (some 30 bytes; a phone's radio wakes for game news anyway).
TICK = 4.0
#: Seconds of silence from a page after which it is dropped: it is pinged after 2/3 of
#: that, and its browser answers at once whether the page's script runs or not (a
#: locked phone's page keeps its seat); past it the seat's client lingers as for a close.
QUIET = 12.0
#: Seconds a page closed by the server is given to answer the close (a live page does
#: at once; a dead link would hold the closing, its table's end or hand-over, for long).
CLOSE_WAIT = 2.0


def page_files() -> dict[str, bytes]:
    """The page's files as shipped in the package."""
    root = resources.files(__package__).joinpath("static")
    return {name: root.joinpath(name).read_bytes() for name in FILES}


class WebServer:
    """Serves the phone's page for the table at ``table``; see the module docstring."""

    def __init__(
        self, table: tuple[str, int], *, linger: float = 60.0, table_id: str | None = None,
        tick: float = TICK, quiet: float = QUIET,
    ) -> None:
        self.table = table
        self.table_id = table_id
        self.linger = linger
        self.tick = tick
        self.quiet = quiet
        self.files = page_files()
        self.phones: dict[bytes, Phone] = {}  # by seat token
        self._pages = 0
        self._runner: web.AppRunner | None = None
        self._lingering: dict[bytes, asyncio.TimerHandle] = {}
        self._holders: dict[Phone, _Page] = {}  # the page that shows each seat
        self._open: set[_Page] = set()  # every page whose socket is open
        self._tasks: set[asyncio.Future[object]] = set()
        self.address: tuple[str, int] = ("", 0)
        self.also: list[tuple[str, int]] = []  # further addresses served, as bound

    def app(self) -> web.Application:
        app = web.Application(middlewares=[_guard], client_max_size=c.FRAME_MAX)
        app.router.add_get("/", self._file("index.html"))
        for name in FILES:
            app.router.add_get(f"/{name}", self._file(name))
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/table", self._which)
        return app

    async def start(self, sock: socket.socket, *more: socket.socket) -> None:
        """Serve on ``sock`` and on each of ``more`` (listening already, the same port
        in another family, IPv6 beside IPv4; the caller keeps no other use of them).
        :attr:`address` is ``sock``'s, :attr:`also` the others'."""
        runner = web.AppRunner(
            self.app(), handle_signals=False, access_log=None,
            max_line_size=LINE_MAX, max_field_size=LINE_MAX,
        )
        await runner.setup()
        try:
            for each in (sock, *more):
                await web.SockSite(runner, each).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        host, port = sock.getsockname()[:2]
        self.address = (host, port)
        self.also = [(str(s.getsockname()[0]), int(s.getsockname()[1])) for s in more]

    async def told_result(self, timeout: float) -> None:
        """Wait (``timeout`` seconds at most) until every phone's client has read the
        game's result and its page was sent it: a table that closes as its game ends
        closes its phones' pages only after that."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline and any(
            p.teller.over is None and not p.ended.is_set() for p in self.phones.values()
        ):
            await asyncio.sleep(0.02)

    async def close(self, *, bye: bool = True) -> None:
        """Stop serving; every phone's client leaves the table and every page is
        closed (without ``bye``: the table moved to another laptop, where each phone's
        seat waits for its page)."""
        for handle in self._lingering.values():
            handle.cancel()
        self._lingering.clear()
        phones, self.phones = list(self.phones.values()), {}
        # (all at once: a page on a dead link takes its close wait, not the others')
        await asyncio.gather(*(phone.close(bye=bye) for phone in phones))
        # a table that closed closes its pages as done (1000); one that moved, as
        # going away (1001): those look for it at once (WEB.md)
        code = WSCloseCode.OK if bye else WSCloseCode.GOING_AWAY
        await asyncio.gather(*(page.ws.close(code=code) for page in list(self._open)))
        for task in list(self._tasks):
            await task
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _file(self, name: str) -> Handler:
        body, kind = self.files[name], FILES[name]

        async def serve(request: web.Request) -> web.StreamResponse:
            return web.Response(body=body, headers={**HEADERS, "Content-Type": kind})

        return serve

    async def _which(self, request: web.Request) -> web.StreamResponse:
        """The id of the table served here, for a page of another of its laptops that
        looks for it (any site may read it: the table's adverts say it too)."""
        headers = {**HEADERS, "Access-Control-Allow-Origin": "*"}
        return web.json_response({"table": self.table_id}, headers=headers)

    # -- a page's WebSocket ------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and origin.partition("://")[2] != request.host:
            raise web.HTTPForbidden(text="a page of another site may not play here\n")
        if self._pages >= PHONES_MAX:
            raise web.HTTPServiceUnavailable(text="too many pages are open\n")
        # (aiohttp pings after ``heartbeat`` s of silence and drops the page when no
        # pong came ``heartbeat / 2`` s later: after ``quiet`` s in all)
        ws = web.WebSocketResponse(max_msg_size=WS_FRAME_MAX, heartbeat=self.quiet * 2 / 3,
                                   timeout=CLOSE_WAIT)
        await ws.prepare(request)
        self._pages += 1
        page = _Page(self, ws)
        self._open.add(page)
        ticks = asyncio.ensure_future(page.tick())
        try:
            await page.run()
        finally:
            ticks.cancel()
            self._pages -= 1
            self._open.discard(page)
            page.gone()
        if isinstance(ws.exception(), TimeoutError) and request.transport is not None:
            request.transport.abort()  # (a dead link: what is unsent would never go)
        return ws

    async def take_from(self, phone: Phone, page: _Page) -> None:
        """``page`` shows ``phone``'s seat from now: a page that showed it before is
        told so and closed (one page acts for a seat)."""
        before = self._holders.get(phone)
        if before is not None and before is not page:
            before.phone = None
            await before.error(c.BadChoice("replaced", "this seat is open on another page"))
            self._later(before.ws.close())  # (its link may be dead: the new page waits not)
        self._holders[phone] = page

    def seat(self, phone: Phone) -> None:
        token = phone.token
        if token is not None:
            self.phones[token] = phone
            handle = self._lingering.pop(token, None)
            if handle is not None:
                handle.cancel()

    def left(self, phone: Phone, page: _Page) -> None:
        """The page of ``phone`` closed: its client leaves after :attr:`linger`."""
        if self._holders.get(phone) is page:
            del self._holders[phone]
        token = phone.token
        if token is None or self.phones.get(token) is not phone:
            self._closing(phone)
            return
        loop = asyncio.get_running_loop()
        self._lingering[token] = loop.call_later(self.linger, self._leave, token)

    def _leave(self, token: bytes) -> None:
        self._lingering.pop(token, None)
        phone = self.phones.pop(token, None)
        if phone is not None:
            self._closing(phone)

    def _closing(self, phone: Phone) -> None:
        """Close ``phone``'s client in the background (kept until done)."""
        self._later(phone.close())

    def _later(self, closing: Coroutine[object, object, object]) -> None:
        """Run ``closing`` in the background (kept until done; :meth:`close` waits)."""
        task = asyncio.ensure_future(closing)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


class _Page:
    """One open page: its language, its seat once it joined."""

    def __init__(self, server: WebServer, ws: web.WebSocketResponse) -> None:
        self.server = server
        self.ws = ws
        self.lang = DEFAULT
        self.phone: Phone | None = None

    async def send(self, frame: Json) -> None:
        if not self.ws.closed:
            await self.ws.send_json(frame)

    async def error(self, exc: c.BadChoice) -> None:
        await self.send({"t": "error", "reason": exc.reason, "text": str(exc)})

    async def tick(self) -> None:
        """Send a ``tick`` now and every :attr:`WebServer.tick` seconds (until
        cancelled, or the socket fails); it checks nothing itself."""
        every = self.server.tick
        with contextlib.suppress(ConnectionError):
            while not self.ws.closed:
                await self.send({"t": "tick", "every": every})
                await asyncio.sleep(every)

    async def run(self) -> None:
        with use_language(self.lang):
            await self.send(greeting(self.lang))
        async for msg in self.ws:
            if msg.type is WSMsgType.BINARY:
                await self.error(c.BadChoice("binary", "a page sends text frames only"))
                continue
            if msg.type is not WSMsgType.TEXT:
                break
            try:
                choice = c.read_choice(msg.data)
                await self.chose(choice)
            except c.BadChoice as exc:
                await self.error(exc)

    async def chose(self, choice: c.Choice) -> None:
        phone = self.phone
        if isinstance(choice, c.Language):
            self.lang = choice.lang
        if phone is not None:
            phone.choose(choice)
            if isinstance(choice, c.Language):
                await phone.show()
            return
        if isinstance(choice, c.Language):
            with use_language(self.lang):
                await self.send(greeting(self.lang))
            return
        if not isinstance(choice, c.Join):
            raise c.BadChoice("no-seat", "join first")
        await self._join(choice)

    async def _join(self, choice: c.Join) -> None:
        server = self.server
        if choice.lang is not None:
            self.lang = choice.lang
        kept = None if choice.token is None else server.phones.get(choice.token)
        if kept is not None and not kept.ended.is_set():
            phone = kept  # the page opened again: the seat's client never left
            phone.lang = self.lang
        else:
            phone = await Phone.join(server.table, choice, self.lang)
        self.phone = phone
        server.seat(phone)
        await server.take_from(phone, self)
        phone.attach(self.send)
        token = phone.token
        await self.send({"t": "seat", "token": None if token is None else token.hex()})
        await phone.show()

    def gone(self) -> None:
        phone, self.phone = self.phone, None
        if phone is not None:
            phone.attach(None)
            self.server.left(phone, self)


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuse what no page sends: a method other than GET or HEAD, or a body (a path
    not served is the router's 404)."""
    if request.match_info.http_exception is not None:
        routed: web.StreamResponse = await handler(request)
        return routed
    if request.method not in ("GET", "HEAD"):
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "HEAD"],
                                       text="only GET and HEAD are served\n")
    if request.content_length or request.body_exists:
        raise web.HTTPRequestEntityTooLarge(0, request.content_length or 0,
                                            text="a request here has no body\n")
    answer: web.StreamResponse = await handler(request)
    return answer

