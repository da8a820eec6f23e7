"""The client's side of a table over TCP: connect, reconnect, and pump bytes.

:class:`GameClient` owns one TCP connection at a time and a
:class:`~sorry_lan.client.model.ClientModel` that outlives them: the model keeps what
this seat knows (the lobby, the board, whose turn, the moves on offer, the chat
heard) and turns the host's bytes into :data:`~sorry_lan.client.model.ClientEvent`
values, which :meth:`GameClient.next_event` hands to a user interface or a bot (with
the time each arrived, :attr:`GameClient.event_at`).  Requests (``play``, ``chat``,
``ready``...) are the model's, sent at once.

When the connection drops it reconnects on its own (a player reclaims its seat with
its token, a spectator just watches again) through unreachable hosts, hosts that
accept but never answer and tables that are momentarily full, and reports
``reconnecting`` / ``connected`` / ``lost`` as
:class:`~sorry_lan.client.model.Connection` events.  A host that welcomed this client
before and now takes connections without answering, or lets them time out, is asleep
or out of reach (a laptop's lid closed, heavy packet loss), not at a wrong address.
A ``bye`` of reason ``timeout`` (the host dropped us because we fell behind or went
quiet) is reconnected too; any other ``bye`` ends it.

It decides no timing itself: when the host is lost (silent for ``dead_after``, or
for the takeover delay D at a version-4 table), how often it is pinged, the back-off
between reconnects, when to say the host is asleep and when to give up
(``reconnect_for``, ``asleep_for``) are :mod:`sorry_lan.succession.watch`'s
(:class:`~sorry_lan.succession.watch.Watch`,
:class:`~sorry_lan.succession.watch.Reconnect`), with the delays of
:class:`~sorry_lan.succession.timings.LaptopTimings` (:attr:`ClientOptions.timings`);
the client reads, pings, connects and tells.

Given a :class:`~sorry_lan.net.seats.SeatStore` (``seats``), it keeps its seat's
token there from ``welcome`` until the game ends (or it leaves the lobby, or the
host no longer knows the token), so that a new process can take the seat back.  When
the store cannot be written (a read-only or full data dir) the token stays in this
process only, and :attr:`GameClient.seat_not_kept` says so, for the interface to tell
the player once.  Given a :class:`~sorry_lan.net.played.PlayedStore` (``played``), it
files there each whole game record the host sends (protocol version 3), so the
machine keeps the games it played or watched.

A player's ``lang`` (the language it reads) and ``program`` (a program plays the seat)
go to the host in a ``profile`` after every welcome, when the connection settled on
protocol version 2 or later (an older host is simply not told); :meth:`GameClient.set_profile`
tells it again when either changes.

At a version-4 table (issue 19) the client has an ``heir``
(:class:`~sorry_lan.net.heir.Heir`, its standby and its takeover): when the host is
lost (its link failed, or nothing was heard for the takeover delay) or hands the
table over, the client carries out the table's election with it
(:func:`sorry_lan.net.recovery.recover`) instead of plain reconnecting, and follows
the new host.  The client drives the heir; the heir never calls the client.  A
player's heir may host; a spectator's only follows (it walks the same order, waits
at the candidate's standby, never votes) and its board is told who hosts now like a
player's.  Given a ``finder`` (:class:`TableFinder`, from the discovery layer) the
client also watches the LAN for its table's adverts while the host is lost and tells
the election of each (an advert at a newer epoch is tried first), so a successor
whose addresses are not those the old host listed is still found.

It does not draw a board, read a keyboard or choose moves (see ``commands/join.py``
and ``net/botrunner.py``), and it never prints or logs the seat token.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Protocol

from sorry_lan.client.model import ClientEvent, ClientModel, Connection, SeatNews, TableNews
from sorry_lan.codes import Coded, Joining, LinkNews, Said, SeatFile
from sorry_lan.codes import JoinFailure as JoinFailure  # importers find it here
from sorry_lan.rules import Variant
from sorry_lan.succession.election import Decision, Election, Follow, TryCandidate
from sorry_lan.succession.heirless import heirless
from sorry_lan.succession.retry import Pause
from sorry_lan.succession.timings import LaptopTimings
from sorry_lan.succession.watch import HostLost, Reconnect, SayAsleep, SayQuiet, Watch
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.limits import SUPPORTED_VERSIONS
from sorry_lan.wire.transitions import State
from sorry_lan.wire.vocab import ByeReason, RefuseReason

from .gcsettle import settle
from .heir import Heir
from .played import PlayedStore
from .recovery import recover
from .seats import SavedSeat, SeatStore

#: Told of an advert of the table (its epoch, addresses and port) while its host is lost.
Sighted = Callable[[int, tuple[str, ...], int], None]


class TableFinder(Protocol):
    """Looks for the table's adverts on the LAN while its host is lost (the command
    makes it, from the discovery layer: the client itself touches no zeroconf)."""

    async def start(self, tid: str, sighted: Sighted) -> None: ...

    async def stop(self) -> None: ...


log = logging.getLogger(__name__)

_GOODBYE = "the host closed the table"


def _quiet_news(say: SayQuiet) -> Said:
    """What the player is told when the host did not answer a ping."""
    code = LinkNews.QUIET if say.heir else LinkNews.QUIET_NO_HEIR
    return code(seconds=say.seconds)


@dataclass(frozen=True)
class _Ended:
    """Why a link to the host ended: ``why`` in English (for the player's news);
    ``goodbye``: the host said ``bye`` (it ended the table: nothing to reconnect to)."""

    why: str
    goodbye: bool = False


_DEFAULT = LaptopTimings()


@dataclass(frozen=True)
class ClientOptions:
    """How a :class:`GameClient` joins and keeps its link (seconds).  The seat's
    settings (``pin``, ``spectate``, ``token``, ``lang``, ``program``) are where its
    :class:`ClientModel` starts; the model's own are the live ones.  The delays are
    :class:`~sorry_lan.succession.timings.LaptopTimings`' (:attr:`timings`, checked
    when the options are built)."""

    pin: str | None = None
    spectate: bool = False
    token: bytes | None = None  # reclaim this seat
    connect_timeout: float = _DEFAULT.connect_timeout  # to connect, and to be welcomed
    heartbeat: float = _DEFAULT.heartbeat  # ping a host that said nothing for this long
    dead_after: float = _DEFAULT.dead_after  # nothing heard for this long: the host is gone
    reconnect_for: float = _DEFAULT.reconnect_for  # keep trying to reconnect for this long
    asleep_for: float = _DEFAULT.asleep_for  # ...this long in all while the host is asleep
    capture: bytearray | None = None  # every byte received is appended here (tests)
    seats: SeatStore | None = None  # where the seat's token is kept for a later process
    played: PlayedStore | None = None  # where the whole games the host sends are kept
    game: str | None = None  # the table's LAN name, when it was found by discovery
    table_id: str | None = None  # the table's id, when its advert carried one
    lang: str | None = None  # the language code the roster shows for this player
    program: bool = False  # a program (a bot process) plays this seat
    finder: TableFinder | None = None  # looks for the table's adverts when the host is lost
    versions: tuple[int, ...] = SUPPORTED_VERSIONS  # the protocol versions offered
    timings: LaptopTimings = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        timings = LaptopTimings(
            connect_timeout=self.connect_timeout, heartbeat=self.heartbeat,
            dead_after=self.dead_after, reconnect_for=self.reconnect_for,
            asleep_for=self.asleep_for,
        )
        object.__setattr__(self, "timings", timings)


class JoinError(Coded):
    """Could not join: ``reason`` is the host's refusal or a :class:`JoinFailure`;
    :attr:`said` what to tell people (its English is ``text``)."""

    def __init__(self, reason: RefuseReason | JoinFailure, said: Said | None = None) -> None:
        super().__init__(said or Said(reason))
        self.reason = reason
        self.text = str(self)


# A seat's host that gave these may have moved: where else its table may be, is tried.
_MOVED = frozenset({JoinFailure.UNREACHABLE, JoinFailure.ASLEEP})
_FIND_ROUNDS = 3  # while a laptop there says busy, go on trying this many connect timeouts

# Failures worth retrying while reconnecting: the host may answer, or have room, soon
# (busy: too many connections were waiting to join; the host made room by closing ours).
_RETRY = frozenset(
    {
        JoinFailure.UNREACHABLE,
        JoinFailure.ASLEEP,
        JoinFailure.LOST,
        RefuseReason.FULL,
        RefuseReason.BUSY,
    }
)


def refusal(refuse: m.Refuse) -> Said:
    """A refusal as its code with the fields its English needs: the versions spoken,
    or the host's own text where it may add something (which limit was reached)."""
    if refuse.reason is RefuseReason.VERSION:
        return refuse.reason(theirs=list(refuse.versions), ours=list(SUPPORTED_VERSIONS))
    bare = refuse.reason(more="")
    if not refuse.text or refuse.text in str(bare):
        return bare
    return refuse.reason(more=f" ({refuse.text})")


def _gave_up(election: Election, spectate: bool, last: str) -> Said:
    """The news when the election found no host: that no laptop of the table can host
    it (``heirless``: no seat is held by anyone, the host never came back), else that
    the reconnecting gave up, ``last`` the link's end."""
    if heirless(election):
        return LinkNews.GAVE_UP_NO_HEIR()
    return (LinkNews.GAVE_UP_WATCHING if spectate else LinkNews.GAVE_UP)(last=last)


def refusal_text(refuse: m.Refuse) -> str:
    """A refusal in one English sentence (see :func:`refusal`)."""
    return str(refusal(refuse))


class GameClient:
    """One player's (or spectator's) connection to a host; see the module docstring."""

    def __init__(
        self, host: str, port: int, name: str, options: ClientOptions | None = None,
        heir: Heir | None = None,
    ) -> None:
        opts = options if options is not None else ClientOptions()
        self.heir = heir  # this laptop's part in the table's succession (a spectator's follows)
        self.host = host
        self.port = port
        self.name = name
        self.options = opts
        self.model = ClientModel(
            name,
            token=opts.token,
            spectate=opts.spectate,
            pin=opts.pin,
            lang=opts.lang,
            program=opts.program,
            dead_after=opts.dead_after,
            versions=opts.versions,
        )
        self.event_at = 0.0  # time.monotonic() when the last event handed out arrived
        self._events: asyncio.Queue[tuple[ClientEvent, float]] = asyncio.Queue()
        self._peer = ""  # the address that answered
        self._at: tuple[str, int] | None = None  # the host that welcomed us last
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.seat_not_kept: Said | None = None  # the seat's file could not be written
        self._welcomed = False  # this host has let us in before (its address works)
        self.unreachable = False  # the last connect failed: "network is unreachable"
        self.unanswered = False  # the last connect was taken, its greeting never answered
        self._decided: list[Decision] = []  # the election's, for the heir's recover
        self._watch = Watch(opts.timings)  # when the host is lost

    @property
    def connected(self) -> bool:
        return self.model.connected

    async def next_event(self) -> ClientEvent:
        """The next event, in order; :attr:`event_at` is then the time it arrived."""
        ev, self.event_at = await self._events.get()
        return ev

    def _put(self, events: list[ClientEvent], at: float) -> None:
        for ev in events:
            self._events.put_nowait((ev, at))

    # -- connecting ------------------------------------------------------------------

    async def connect(self) -> m.Welcome:
        """Connect and join; raises :class:`JoinError` with a sentence for people.

        A player with no token but a seat store offers the token kept there for this
        table and name (the seat of an earlier process); if the host no longer knows
        it, the file is forgotten and the client joins afresh."""
        model, seats = self.model, self.options.seats
        if self.heir is not None and not model.spectate:
            port, addrs = await self.heir.start()  # offered to the host after the welcome
            if addrs:
                model.set_standby(port, addrs)
        seat: SavedSeat | None = None
        if model.token is None and seats is not None and not model.spectate:
            opts = self.options
            seat = seats.choose(
                (self.host,), self.port, self.name, game=opts.game, table=opts.table_id
            )
            if seat is not None:
                model.token = seat.token
                if seat.epoch is not None:
                    model.recall(seat.table, seat.epoch, seat.host, seat.port,
                                 dict(seat.standbys))
        try:
            try:
                welcome = await self._open()
            except JoinError as exc:
                if seat is not None and exc.reason in _MOVED and seats is not None:
                    welcome = await self._open_elsewhere(seats, seat, exc)
                elif seat is not None and exc.reason is RefuseReason.BAD_TOKEN:
                    model.token = None
                    welcome = await self._open()
                elif seat is not None and seats is not None and model.replay_refused:
                    welcome = await self._past_replay(seats, seat, exc)
                else:
                    raise
        except BaseException:
            if self.heir is not None:
                await self.heir.close()  # not joined: nothing to stand by for
            raise
        self._task = asyncio.create_task(self._run())
        settle()  # start-up is over: full collections leave its objects alone
        return welcome

    async def _open_elsewhere(
        self, seats: SeatStore, seat: SavedSeat, failed: JoinError
    ) -> m.Welcome:
        """The host at the address given does not answer and our seat there knows where
        else its table may be hosted (it moved, or may have, since the seat was kept):
        each place in turn, the likeliest first, while one says it is busy (a laptop
        taking the table over) until the connect timeout has passed a few times over;
        ``failed`` when none takes us."""
        given = (self.host, self.port)
        places = seats.elsewhere(seat, [given])
        deadline = time.monotonic() + _FIND_ROUNDS * self.options.connect_timeout
        while places:
            busy = False
            for self.host, self.port in places:
                try:
                    return await self._open()
                except JoinError as exc:
                    if exc.reason is RefuseReason.BAD_TOKEN:
                        raise  # the table's host does not know the seat (it forgot it)
                    busy = busy or exc.reason is RefuseReason.BUSY
            if not busy or time.monotonic() >= deadline:
                break
            await asyncio.sleep(0.5)
        self.host, self.port = given
        raise failed

    async def _past_replay(
        self, seats: SeatStore, seat: SavedSeat, failed: JoinError
    ) -> m.Welcome:
        """The table found (by its advert, or the address given) was the host our seat
        followed replayed on another port, refused: the table is looked for where
        the seat knows it may be (that host on its own port, the laptops next in its
        order), as a walk goes on past a refused claim, a round every few seconds for
        as long as a reconnect would wait (its host may be starting again, ``host
        --resume``); ``failed`` when none takes us by then.  It never tries the
        replay again."""
        given = (self.host, self.port)
        timings = self.options.timings
        deadline = time.monotonic() + timings.reconnect_for
        places = seats.elsewhere(seat, [given])
        while places:
            for self.host, self.port in places:
                try:
                    return await self._open()
                except JoinError as exc:
                    if exc.reason is RefuseReason.BAD_TOKEN:
                        raise  # the table's host does not know the seat (it forgot it)
            if time.monotonic() >= deadline:
                break
            await asyncio.sleep(timings.backoff_max)
        self.host, self.port = given
        raise failed

    async def _open(
        self, at: tuple[str, int] | None = None, timeout: float | None = None,
        attempt: TryCandidate | None = None,
    ) -> m.Welcome:
        """Connect to the host (or ``at``: a candidate's standby, for the election's
        ``attempt``) and be welcomed.

        A try cut short (its task cancelled: the heir's standby got its quorum while it
        tried the old host) stops at once, even as its connection opens: each step is
        bounded by ``asyncio.timeout``, not ``asyncio.wait_for``, which on Python 3.11
        drops a cancellation that comes as the step completes, so the try would go on
        to wait out the host's silence (and the voters the new host holds meanwhile
        would give up on it and elect another laptop)."""
        host, port = at if at is not None else (self.host, self.port)
        timeout = self.options.timings.connect_timeout if timeout is None else timeout
        self.unreachable = False
        self.unanswered = False
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await asyncio.open_connection(host, port)
        except ConnectionRefusedError:
            said = Joining.REFUSED(host=host, port=port)
            raise JoinError(JoinFailure.UNREACHABLE, said) from None
        except TimeoutError:
            said = Joining.NO_ROUTE(host=host, port=port, why="no answer")
            raise self._silent(said) from None
        except OSError as exc:
            self.unreachable = exc.errno == errno.ENETUNREACH
            said = Joining.NO_ROUTE(host=host, port=port, why=exc.strerror or str(exc))
            raise JoinError(JoinFailure.UNREACHABLE, said) from None
        model = self.model
        model.join(time.monotonic(), attempt=attempt, port=port)
        writer.write(model.data_to_send())
        try:
            async with asyncio.timeout(timeout):
                welcome, events, came = await self._handshake(reader, writer)
        except JoinError as exc:
            writer.close()
            seats, token = self.options.seats, model.token
            if exc.reason is RefuseReason.BAD_TOKEN and token is not None and seats is not None:
                seats.forget(token)
            raise
        except TimeoutError:
            writer.close()
            self.unanswered = True  # it took the connection and the hello: not a word
            said = Joining.SILENT(host=host, port=port, seconds=timeout)
            raise self._silent(said) from None
        except BaseException:
            writer.close()
            raise
        self._reader, self._writer = reader, writer
        self._put(events, came)  # the lobby, snapshot... of the same read: a move made on
        # them goes to this connection's writer, never the one before
        peer = writer.get_extra_info("peername")
        self._peer = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        self._at = (self._peer or host, port)
        self._tend_seat()
        self._keep_seat()
        self._welcomed = True
        return welcome

    def _silent(self, first_time: Said) -> JoinError:
        """No answer in time: at a host that let us in before, it is asleep or out of
        reach (the address worked); else ``first_time`` (check the address)."""
        if self._welcomed:
            return JoinError(JoinFailure.ASLEEP)
        return JoinError(JoinFailure.UNREACHABLE, first_time)

    async def _handshake(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> tuple[m.Welcome, list[ClientEvent], float]:
        """Read until welcomed: the welcome, the events of the read that brought it
        and when it came (for the caller to hand out once the connection is its link)."""
        model = self.model
        while True:
            try:
                data = await reader.read(65536)
            except OSError as exc:
                raise JoinError(JoinFailure.UNREACHABLE, Joining.BROKEN(why=exc)) from None
            if not data:
                raise JoinError(JoinFailure.LOST, Joining.CLOSED())
            now = time.monotonic()
            events = self._received(data, now)
            writer.write(model.data_to_send())
            if model.pin_asked:
                raise JoinError(JoinFailure.PIN_NEEDED)
            refused = model.refusal
            if refused is not None:
                raise JoinError(refused.reason, refusal(refused))
            if model.connected and model.welcome is not None:
                return model.welcome, events, now
            if model.closed:
                # A laptop that claimed the table and was refused: the player is told why
                # (the claim's TableNews), not shown anything else it sent.
                self._put([ev for ev in events if isinstance(ev, TableNews)], now)
                err = model.session.error if model.session is not None else None
                raise JoinError(JoinFailure.LOST, Joining.ENDED(why=err))

    def _received(self, data: bytes, now: float) -> list[ClientEvent]:
        if self.options.capture is not None:
            self.options.capture.extend(data)
        events = self.model.receive_data(data, now)
        self._decided += self.model.take_decisions()
        played = self.options.played
        for got in self.model.take_records():
            if played is not None:
                played.save(got.record)
        return events

    # -- the running connection ---------------------------------------------------------

    async def _run(self) -> None:
        spectate = self.model.spectate
        while True:
            ended = await self._pump()
            reason = ended.why
            self.model.connection_lost()
            if self._closing:
                return
            heir, election = self.heir, self.model.election
            if heir is not None and election is not None:  # a spectator's follows too
                pending, self._decided = self._decided, []
                handed = heir.carry_out_now(pending)
                if not ended.goodbye or handed:  # lost, or handed over: who hosts next?
                    election.host_port = self.port  # (its advert at our epoch: tried there)
                    async with self._looking(heir):
                        found = await recover(self, heir, pending, self.unreachable)
                    if found:
                        continue
                    await self._tell(_gave_up(election, spectate, reason))
                    return
            if ended.goodbye:  # the host said bye: nothing to reconnect to
                await self._tell(LinkNews.CLOSED())
                return
            if self.model.token is None and not spectate:
                await self._tell(LinkNews.DROPPED(reason=reason))
                return
            held = LinkNews.REWATCH if spectate else LinkNews.HELD
            await self._tell(held(reason=reason))
            if not await self._reconnect():
                return

    @contextlib.asynccontextmanager
    async def _looking(self, heir: Heir) -> AsyncIterator[None]:
        """While the heir finds who hosts next: the table's adverts on the LAN (the
        finder's, if any) are told to the election, newer epochs tried first."""
        finder, succession = self.options.finder, self.model.succession
        if finder is None or succession is None:
            yield
            return

        def sighted(epoch: int, addrs: tuple[str, ...], port: int) -> None:
            heir.hint(epoch, addrs, port)  # told to the election: a newer epoch first

        try:
            await finder.start(succession.table, sighted)
        except Exception as exc:  # no mDNS here: the addresses the host gave will do
            log.info("cannot look for the table on the LAN: %s", exc)
            yield
            return
        try:
            yield
        finally:
            await finder.stop()

    async def _tell(self, news: Said) -> None:
        """Report what happened to the link (its state, and its English sentence)."""
        assert isinstance(news.code, LinkNews)
        await self._events.put((Connection(news), time.monotonic()))

    async def _pump(self) -> _Ended:
        reader, writer, model, watch = self._reader, self._writer, self.model, self._watch
        assert reader is not None and writer is not None
        pinged = told = False  # a ping of ours waits for its pong; the player was told
        try:
            while not model.closed:
                election = model.election if self.heir is not None else None
                delay = None if election is None else election.order.delay
                wait = watch.after_ping(delay) if pinged and not told else watch.beat(delay)
                try:
                    data = await asyncio.wait_for(reader.read(65536), wait)
                except TimeoutError:
                    now = time.monotonic()
                    silence = watch.silent(now, model.heard_at, delay=delay,
                                           here=model.hosted_here)
                    if isinstance(silence, HostLost):
                        return _Ended("the host stopped answering")
                    if pinged and not told and not model.hosted_here:
                        told = True
                        await self._tell(_quiet_news(watch.quiet(now, model.heard_at,
                                                                 delay=delay)))
                    model.quiet(now)  # its ping
                    writer.write(model.data_to_send())
                    pinged = True
                    continue
                if not data:
                    return _Ended("the host closed the connection")
                if told:
                    await self._tell(LinkNews.ANSWERS())
                pinged = told = False
                now = time.monotonic()
                self._put(self._received(data, now), now)
                self._tend_seat()
                out = model.data_to_send()
                if out:
                    writer.write(out)
                if self.heir is not None and self._decided:
                    if self.heir.carry_out_now(self._decided):
                        return _Ended("the host handed the table over")  # for recover
                    self._decided.clear()
            if model.bye is ByeReason.TIMEOUT:
                return _Ended("the host dropped the connection: it fell behind")
            if model.dropped:  # (a hello of ours from a try given up on took the seat)
                return _Ended("the host closed the connection")
            return _Ended(_GOODBYE, goodbye=True)
        except (OSError, asyncio.IncompleteReadError) as exc:
            return _Ended(f"network error: {exc}")
        finally:
            writer.close()
            if self._writer is writer:  # what is sent from now waits for the next link
                self._reader = self._writer = None

    async def _reconnect(self) -> bool:
        """A plain reconnect (``succession.watch.Reconnect`` says when to give up)."""
        last = ""
        spectate = self.model.spectate
        tries = Reconnect(self.options.timings, time.monotonic(), seat=not spectate)
        while not self._closing and tries.due(time.monotonic()):
            try:
                await self._open()
            except JoinError as exc:
                last = exc.text
                if exc.reason not in _RETRY:
                    await self._tell(LinkNews.NO_REJOIN(why=exc.said))
                    return False
                asleep = exc.reason is JoinFailure.ASLEEP
                for step in tries.failed(time.monotonic(), asleep=asleep):
                    if isinstance(step, SayAsleep):
                        await self._tell(LinkNews.ASLEEP())
                    elif isinstance(step, Pause):
                        await asyncio.sleep(max(0.0, step.until - time.monotonic()))
                continue
            await self._tell(LinkNews.WATCHING() if spectate else LinkNews.BACK())
            return True
        gave_up = LinkNews.GAVE_UP_WATCHING if spectate else LinkNews.GAVE_UP
        await self._tell(gave_up(last=last))
        return False

    # -- the table's succession (what net/recovery.py asks) -------------------------------

    def take_decided(self) -> list[Decision]:
        """The election's decisions on what the model read, not yet carried out."""
        taken, self._decided = self._decided + self.model.take_decisions(), []
        return taken

    async def tell(self, news: Said) -> None:
        """Report link news (the recovery's: the host is gone, finding who hosts next)."""
        await self._tell(news)

    async def try_host(self) -> bool:
        """Try the host we follow once more: whether it welcomed us."""
        try:
            await self._open(timeout=self._attempt_timeout)
        except JoinError:
            return False
        await self._tell(LinkNews.WATCHING() if self.model.spectate else LinkNews.BACK())
        return True

    async def try_candidate(self, attempt: TryCandidate) -> list[Decision]:
        """Say hello at ``attempt``'s standby, each address in turn, as the election
        asked (the model reads the answer and checks a new host): what the election
        decided of it.  A new host followed is this client's host from now."""
        election = self.model.election
        assert election is not None
        was = self.model.succession
        known = None if was is None else (was.epoch, was.host)
        timeout = self._attempt_timeout
        unreachable = unanswered = False
        addrs = list(attempt.addrs)
        while addrs:
            address = addrs.pop(0)
            try:
                await self._open((address, attempt.port), timeout, attempt)
            except JoinError as exc:
                if self.model.plain_again():  # a version-4 standby: its hello of before
                    addrs.insert(0, address)
                    continue
                decided = self.take_decided()
                unreachable = unreachable or self.unreachable
                unanswered = unanswered or self.unanswered
                if decided or exc.reason is RefuseReason.BUSY:
                    return decided  # the model told the election (busy, refused, followed)
                continue  # no answer there: the next address
            self.host, self.port = address, attempt.port  # the model followed it
            decided = self.take_decided()
            if any(isinstance(d, Follow) and (d.epoch, d.pid) == known for d in decided):
                # the host we lost, at a new address: no new host (no table news)
                await self._tell(LinkNews.WATCHING() if self.model.spectate else LinkNews.BACK())
            return decided
        if unanswered:  # (a standby holding our hello while its laptop takes over)
            return election.silent(attempt, time.monotonic())
        return election.failed(attempt, time.monotonic(), unreachable)

    @property
    def _attempt_timeout(self) -> float:
        """One try of a candidate or of the old host (the heir's, if any)."""
        heir = self.heir
        return (self.options.timings if heir is None else heir.timings).attempt_timeout

    def drop_link(self) -> None:
        """Close the current connection (a new host the model refused)."""
        if self._writer is not None:
            self._writer.write(self.model.data_to_send())  # its bye
            self._writer.close()
        self._reader = self._writer = None
        self.model.connection_lost()

    async def join_own_table(self, address: tuple[str, int]) -> bool:
        """This laptop hosts the table now at ``address``: join it with the seat's token
        (on loopback when it listens on every address)."""
        host, port = address
        self.host = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host
        self.port = port
        timings = self.options.timings
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timings.connect_timeout
        while True:
            try:
                await self._open()
                return True
            except JoinError:
                if loop.time() >= deadline:
                    return False
                await asyncio.sleep(timings.own_retry)

    # -- the seat file --------------------------------------------------------------------

    def _keep_seat(self) -> None:
        """Write the seat's token to the store (from welcome until the game ends)."""
        model, seats = self.model, self.options.seats
        if seats is None or model.token is None or model.over is not None:
            return
        name = model.welcome.name if model.welcome is not None else self.name
        addresses, opts = (self.host, self._peer), self.options
        known = model.succession  # (where the table goes next: a new process finds it)
        table, epoch, host = model.followed or (opts.table_id, None, None)
        hosts = [] if self._at is None else [self._at]
        if known is not None:
            hosts += [(a, laptop.port) for laptop in known.order for a in laptop.addrs]
        if not seats.save(name, model.token, addresses, self.port, opts.game,
                          opts.table_id or table, epoch=epoch, hosts=hosts,
                          host=host, standbys=model.standby_ports.items()):  # fmt: skip
            failure = seats.failure
            why = failure.strerror or str(failure) if failure is not None else ""
            self.seat_not_kept = SeatFile.NOT_KEPT(why=f"{seats.directory}: {why}")

    def _forget_seat(self) -> None:
        if self.options.seats is not None and self.model.token is not None:
            self.options.seats.forget(self.model.token)

    def _tend_seat(self) -> None:
        news = self.model.take_seat_news()
        if news is SeatNews.KEEP:
            self._keep_seat()
        elif news is SeatNews.FORGET:
            self._forget_seat()

    # -- asking the host ------------------------------------------------------------------

    def _flush(self) -> None:
        if self._writer is not None:
            out = self.model.data_to_send()
            if out:
                self._writer.write(out)

    def send(self, msg: m.Message) -> None:
        """Send ``msg`` (raises :class:`LocalProtocolError` if not allowed now)."""
        self.model.send(msg)
        self._flush()

    def set_profile(self, lang: str | None, program: bool | None = None) -> bool:
        """See :meth:`ClientModel.set_profile`."""
        told = self.model.set_profile(lang, program)
        self._flush()
        return told

    def play(self, move_id: int) -> None:
        """Play one of the moves on offer (by its id)."""
        self.model.play(move_id)
        self._flush()

    def choose_colour(self, colour: int) -> None:
        self.send(m.ChooseColour(colour=colour))  # type: ignore[arg-type]

    def ready(self, ready: bool = True) -> None:
        self.send(m.Ready(ready=ready))

    def ask_swap(self, pid: int | None) -> None:
        """See :meth:`ClientModel.ask_swap`."""
        self.model.ask_swap(pid)
        self._flush()

    def answer_swap(self, accept: bool) -> None:
        """See :meth:`ClientModel.answer_swap`."""
        self.model.answer_swap(accept)
        self._flush()

    def ask_more_time(self) -> None:
        """See :meth:`ClientModel.ask_more_time`."""
        self.model.ask_more_time()
        self._flush()

    def add_bot(self, colour: int | None = None, level: str | None = None) -> None:
        """See :meth:`ClientModel.add_bot`."""
        self.model.add_bot(colour, level)
        self._flush()

    def remove_bot(self, pid: int) -> None:
        self.send(m.RemoveBot(pid=pid))

    def set_variant(self, variant: Variant) -> None:
        self.send(m.SetVariant(variant=variant))

    def start(self) -> None:
        self.send(m.Start())

    def rematch(self) -> None:
        self.send(m.Rematch())

    def chat(self, text: str) -> None:
        self.send(m.Chat(pid=None, text=text))

    def resync(self) -> None:
        self.send(m.Resync())

    # -- ending -------------------------------------------------------------------------

    async def close(self, *, bye: bool = True) -> None:
        """Say bye and close; no reconnection after this.  Without ``bye`` the link
        only drops: the host keeps the seat for its grace (a table that moved to
        another laptop, where the seat's owner takes it back)."""
        self._closing = True
        model, writer = self.model, self._writer
        if bye and model.state is State.LOBBY:
            self._forget_seat()  # leaving the lobby gives the seat up
        if bye and writer is not None and model.session is not None and not model.closed:
            with contextlib.suppress(LocalProtocolError, OSError):
                model.close(ByeReason.QUIT)
                writer.write(model.data_to_send())
                await writer.drain()
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await writer.wait_closed()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.heir is not None:
            await self.heir.close()  # its standby, and the table this laptop hosts, if any

    def abort(self) -> None:
        """Drop the connection without a word (as a crash would); reconnection follows."""
        if self._writer is not None:
            transport = self._writer.transport
            transport.abort()
