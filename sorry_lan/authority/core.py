"""The host, sans I/O: what happened goes in, what to do comes out.

A :class:`HostCore` owns the :class:`~sorry_lan.authority.table.Table`, one
:class:`~sorry_lan.authority.peers.Peer` (with its wire session) per connection and
every decision about them: admission and eviction, what each client message does
(``authority/handlers.py``), who is told what (``authority/announce.py``), the chat
and resync allowances and the flood policy, the hello timeout, heartbeats and dead
peers (``authority/limits.py``), bot turns and their fallback, telling a table
that went back to its lobby (``rematch``), the result owed to people who missed the
end of a game (or seated at a table resumed after it), the summary an advertiser
publishes, and who hosts next (``authority/heralds.py``: ``succession`` and the hand
commitments; ``authority/fencing.py``: the pause and the probes of a host cut off
from most of the table's laptops; ``authority/settling.py``: the states enough
laptops hold to be shown, told ``settled`` on protocol version 5).

The contract.  Each input is a method given the time (``now``, seconds on any
monotonic clock): :meth:`start`, :meth:`opened`, :meth:`received`, :meth:`closed`,
:meth:`fell_behind`, :meth:`tick`, :meth:`bot_decided`, :meth:`bot_failed`,
:meth:`journal_failed` and :meth:`shutdown`; for succession (protocol version 4)
:meth:`handover` (the host leaves on purpose), :meth:`newer_epoch` (the table was
found hosted elsewhere: step down if cut off, else refute the claimant) and
:meth:`play_alone` (cut off, its person plays on alone: a game of its own).  Each
returns the effects to carry out, in order (``authority/effects.py``); every
``Append`` must be durable before any ``Send`` after it is written.
:meth:`next_wakeup` says when :meth:`tick` is next due.  Connections are numbers
the shell chooses; a ``Think`` names a ticket that :meth:`bot_decided` or
:meth:`bot_failed` hands back with the answer.  The table's
journal records reach the shell as ``Append`` effects: the core gives the table a
:class:`~sorry_lan.authority.journal_records.RecordBuffer` (``wall`` says the time of
day for a game's record).

It does not read a clock, open a socket, start a thread or write a file.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Callable, Iterable

from sorry_lan.authority import heirs
from sorry_lan.authority.admission import to_evict
from sorry_lan.authority.announce import Announcer, Shared, shared
from sorry_lan.authority.commitments import Commitments
from sorry_lan.authority.effects import (
    Close,
    Effect,
    PauseInput,
    Probe,
    Refute,
    RosterChanged,
    Stop,
    StopListening,
    SummaryChanged,
    TableSummary,
    Think,
)
from sorry_lan.authority.electorate import Electorate, Laptop, on_this_machine
from sorry_lan.authority.fencing import Fence
from sorry_lan.authority.game_log import GameLog
from sorry_lan.authority.handlers import HANDLERS
from sorry_lan.authority.heralds import Heralds
from sorry_lan.authority.journal_records import RecordBuffer
from sorry_lan.authority.limits import Due, HostOptions, due
from sorry_lan.authority.output import Round
from sorry_lan.authority.peers import Peer, PeerPin
from sorry_lan.authority.seat_messages import abandoned
from sorry_lan.authority.settling import Settling
from sorry_lan.authority.table import PAUSED_TEXT, BotTurn, JoinRefused, RequestRefused, Table
from sorry_lan.rules import Event, Move, Phase
from sorry_lan.wire import messages as m
from sorry_lan.wire import succession as wire
from sorry_lan.wire.auth import pin_key
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.limits import SETTLE_VERSION
from sorry_lan.wire.session import HostSession
from sorry_lan.wire.succession import FIRST_EPOCH
from sorry_lan.wire.transitions import State
from sorry_lan.wire.vocab import ByeReason, RefuseReason, clip_text

log = logging.getLogger(__name__)


class HostCore:
    """The decisions of one hosted table; see the module docstring."""

    def __init__(
        self, table: Table, options: HostOptions | None = None, *,
        wall: Callable[[], float] = lambda: 0.0, journalled: bool = True,
    ) -> None:
        """``journalled`` False: the table keeps no journal file (no ``Append`` effects;
        the game's record is still made for the connections)."""
        self.table = table
        self.options = options or HostOptions()
        if self.options.table_id:  # (the game records name the table and its host)
            table.tid, table.epoch = self.options.table_id, self.options.epoch
        self.pin_key = pin_key(self.options.pin) if self.options.pin else self.options.pin_key
        # The game under way as journal records (a resumed table's first): what the
        # game record sent to each connection is made of, with a journal file or not.
        self.game_log = GameLog(table.history)
        self.records = RecordBuffer(wall, seen=self.game_log.add, keep=journalled)
        table.journal = self.records
        self.peers: dict[int, Peer] = {}
        self.tell: Announcer[Peer] = Announcer(
            table, self.send, lambda: self.game_log.parts(table.games_played),
            now=lambda: self._now,
        )
        self.port = 0
        self._now = 0.0
        self.out = Round(self.records)
        self._sent_revision = -1
        self._told_summary: TableSummary | None = None
        self._next_sweep: float | None = None
        # The people owed the result of the game that ended (seats by pid): away at
        # its end, or not yet known to have read it (their pong to the ping sent after
        # ``over`` says so), or seated at a table resumed with its game over; each
        # until told, gone, or the grace after the end.
        self._owed: set[int] = set()
        self._owed_until = 0.0
        self._over_seen = table.games_played  # the game whose end was last handled
        self._thinking: tuple[int, BotTurn] | None = None  # (ticket, turn) being decided
        self._tickets = 0
        self._stopped = False  # Stop was said
        self._ended = False  # the journal failed, or shut down: nothing more happens
        # Succession (protocol version 4): this host's epoch, the laptops that may host
        # next, and whether this host is cut off from most of them.
        self.heralds = Heralds(table, self.options, self.pin_key, self.send)
        self.timings = self.options.timings
        self.fence = Fence()
        # A successor's laptops not back yet: each counts present only once it
        # answered a ping of this host's (expect_laptops)
        self._unproven: set[int] = set()
        # A game paused (its player on turn is offered the moves again at the end),
        # and whether the players were told why it waits.
        self._game_paused = False
        self._pause_told = False
        # Each laptop's offer as last journalled (by pid): see :meth:`_journal_laptops`.
        self._journalled: dict[int, Laptop] = {}
        # Protocol version 5: which states enough laptops hold to be shown.
        self.settling = Settling()
        # The table events of the game that every connection was sent the record of.
        self._table_events_told: tuple[int, int, frozenset[int]] = (
            table.games_played, self.game_log.table_events, frozenset())

    # -- inputs ------------------------------------------------------------------------

    def start(self, port: int, now: float) -> list[Effect]:
        """The table listens on ``port``: say what is due from the start."""
        self.port = port
        self._time_is(now)
        self._next_sweep = now + self._sweep_every()
        if self.options.resumed:  # (its laptops' offers are in its journal already)
            self._journalled.update(self.electorate.laptops)
        if self.options.resumed and self.table.phase is Phase.PLAYING:
            self._resumed(now)
        if self.table.phase is Phase.FINISHED:
            self._owed = {p.pid for p in self.table.players.values() if not p.bot}
            self._owed_until = now + self.table.config.grace
            for p in self.table.players.values():
                if not p.bot and p.conn is None and p.away_since is None:
                    p.away_since = now  # their seat waits the grace for them
        return self._after_change([])

    def _journal_laptops(self) -> None:
        """Journal where each laptop offered to host next, once a game is under way and
        as it changes: resumed (``host --resume``), this table probes them there and
        learns whether it moved on without it.  Nothing is journalled before a game."""
        if not self.game_log.count:
            return
        for laptop in self.electorate.laptops.values():
            if laptop.addrs and self._journalled.get(laptop.pid) != laptop:
                self._journalled[laptop.pid] = laptop
                self.records.laptop(laptop.pid, laptop.addrs, laptop.port)

    def _resumed(self, now: float) -> None:
        """A game resumed from its journal (``host --resume``): its laptops may have
        chosen another host while it was down, so it pauses at once until a quorum of
        them is back and has answered this host's ping.  Its journal does not say which
        seats were laptops, so every person's seat but its own counts (a seat that never
        offered only makes the quorum harder to reach, never a second table easier)."""
        seats = [p.pid for p in self.table.players.values()
                 if not p.bot and p.pid not in (self.table.owner, self.heralds.seat)]
        if not seats:
            return
        known = self.electorate.laptops  # (where the journal says they offered: probed)
        self.electorate.expect(known.get(pid) or Laptop(pid, (), 0) for pid in seats)
        for pid in seats:  # (absent from the start: not heard by this host yet)
            self.electorate.last_heard[pid] = float("-inf")
        log.info("a resumed game waits for %d of its laptops", len(seats))
        self.fence.woke(now, 0.0)  # (cut off from now: the quorum decides at once)
        self.table.pause(now)

    def opened(self, cid: int, address: str, now: float) -> list[Effect]:
        """Connection ``cid`` from ``address`` opened: make room among those not yet
        admitted (the oldest from the busiest address go, so a newcomer always gets its
        chance to say hello)."""
        if self._ended:
            return [Close(cid)]
        self._time_is(now)
        opts = self.options
        waiting = [
            (p, p.address, p.opened)
            for p in self.peers.values()
            if p.session.join_request is None and not p.closed
        ]
        for old in to_evict(waiting, address, opts.max_waiting_per_address, opts.max_waiting):
            log.info("connection %d from %s: too many waiting, closed", old.cid, old.address)
            self._refuse_busy(old, "too many connections are waiting to join; try again")
        session = HostSession(pin_key=self.pin_key)
        session.pin_policy = PeerPin(self.table, opts.pin_throttle, address, self._clock)
        self.peers[cid] = Peer(
            cid, address, now, session, chat_burst=opts.chat_burst,
            resync_burst=opts.resync_burst,
        )  # fmt: skip
        return self.out.take()

    def received(self, cid: int, data: bytes, now: float) -> list[Effect]:
        """Bytes from connection ``cid``: handle every message in them."""
        peer = self.peers.get(cid)
        if peer is None or peer.closed or self._ended:  # gone, or dropped by us
            return []
        self._time_is(now)
        peer.heard = now
        try:
            messages = peer.session.receive_data(data)
        except LocalProtocolError:  # an answer the session could not send
            messages = []
        self.out.touch(peer)
        events: list[Event] = []
        limited = 0
        for msg in messages:
            try:
                events += self._dispatch(peer, msg, now)
            except JoinRefused as exc:  # only a greeting asks for a seat: still joining
                peer.session.refuse(exc.reason, exc.text)
            except RequestRefused as exc:
                if exc.reason is ErrorReason.RATE_LIMITED:
                    limited += 1
                    if limited > self.options.flood_limit:  # no client does that by mistake
                        log.info("connection %d: flooding, dropped", cid)
                        self._drop(peer, ByeReason.KICKED)
                        break
                    if limited > 1:
                        continue  # one answer per read is enough
                    if isinstance(msg, m.Resync):  # read nothing more from it for a while
                        self.out.say(PauseInput(cid, self.options.resync_pause))
                self.send(peer, exc.to_message())
            except LocalProtocolError as exc:
                log.warning("connection %d: cannot answer: %s", cid, exc)
        if peer.session.closed and peer.session.join_request is not None:
            # a bye: free the seat now rather than when the socket goes
            quit = peer.session.error is None
            player = self.table.player_of(cid)
            if quit and player is not None and self._refused_here(peer, player.pid):
                # a laptop of the table that refused this host's claim (it followed a
                # newer epoch, SPEC 13): it votes there, so it is away, not gone
                quit = False
            if quit and player is not None:  # left on purpose: it will not vote
                self.electorate.forget(player.pid)
            self.table.disconnect(cid, now, quit=quit)
        return self._after_change(events)

    def _refused_here(self, peer: Peer, pid: int) -> bool:
        """Whether ``peer``, seat ``pid``'s connection that said ``bye``, is a laptop of
        the electorate that never offered on it: a version-4 client offers as soon as
        it accepts this host's ``succession``, so it refused it instead."""
        return peer.offer is None and pid in self.electorate.laptops

    def closed(self, cid: int, now: float) -> list[Effect]:
        """Connection ``cid`` is gone.  A player keeps the seat for the grace period (a
        bye was handled when it arrived), in the lobby too."""
        peer = self.peers.pop(cid, None)
        if peer is None:
            return []
        self._time_is(now)
        player = self.table.player_of(cid)
        if player is not None and player.pid in self.electorate.laptops:
            # absent from now: it hears no more moves from this host, whatever its lease
            # (a state made meanwhile with the others gone would be shown to this host's
            # own player only, then replaced by a successor's)
            lease = self.timings.lease
            self.electorate.last_heard[player.pid] = min(peer.renewed, now - lease)
        peer.closed = True
        self.out.forget(peer)
        self.settling.gone(cid)
        if peer.session.state is State.GREETING:
            log.debug("connection %d closed before saying hello (a probe?)", cid)
        peer.session.connection_lost()
        if self._ended:
            return []
        self.table.disconnect(cid, now)
        return self._after_change([])

    def fell_behind(self, cid: int, now: float) -> list[Effect]:
        """Connection ``cid`` left too much output unread: say bye (timeout) and drop
        it.  A player keeps the seat for the grace period and may come back."""
        peer = self.peers.get(cid)
        if peer is None or peer.closed or self._ended:
            return []
        self._time_is(now)
        self._drop(peer, ByeReason.TIMEOUT)
        return self.out.take()

    def tick(self, now: float) -> list[Effect]:
        """The time passed :meth:`next_wakeup`: time out connections, ping idle ones,
        and do what the table has due (bot moves, seats given up)."""
        if self._ended:
            return []
        self._time_is(now)
        if self._next_sweep is not None and now >= self._next_sweep:
            self._next_sweep = now + self._sweep_every()
            self._sweep(now)
        deadline = self.table.next_deadline()
        owed = bool(self._owed) and now >= self._owed_until
        if owed:
            self._owed.clear()  # waited long enough: nobody else is coming back for it
        fenced = self.fence.next_wakeup()
        news = self._pause_news_due()
        if owed or any(t is not None and t <= now for t in (deadline, fenced, news)):
            return self._after_change([])
        return self.out.take()

    def bot_decided(self, ticket: int, move: Move, now: float) -> list[Effect]:
        """The bot asked for by ``Think(ticket, ...)`` chose ``move``: play it (unless
        the game moved on meanwhile)."""
        turn = self._answered(ticket)
        if turn is None:
            return []
        self._time_is(now)
        return self._after_change(self.table.play_bot(turn, move, now) or [])

    def bot_failed(self, ticket: int, exc: BaseException, now: float) -> list[Effect]:
        """The bot asked for by ``Think(ticket, ...)`` raised ``exc``: a simpler bot
        plays that move instead (the game goes on)."""
        turn = self._answered(ticket)
        if turn is None:
            return []
        self._time_is(now)
        simpler = turn.failed(exc)
        if simpler is not None and simpler.blocks:
            self._think(simpler)
            return self._after_change([])
        move = turn.moves[0] if simpler is None else simpler.decide_or_fall_back()
        return self._after_change(self.table.play_bot(turn, move, now) or [])

    def journal_failed(self, exc: OSError, now: float) -> list[Effect]:
        """The journal cannot be written or made durable: send nothing more that
        depends on it, tell everyone in one sentence and close the table.  The
        effects returned depend on no record: write them at once."""
        if self._ended:
            return []
        self._time_is(now)
        self._ended = True
        self._thinking = None
        self.out.drop()  # lost with the journal
        self.out.say(StopListening())
        told = shared(
            m.Error(reason=ErrorReason.INTERNAL, text=clip_text(failure_text(exc)), fatal=True)
        )
        for peer in self.peers.values():
            peer.session.data_to_send()  # drop output that may depend on those records
            with contextlib.suppress(LocalProtocolError):
                peer.session.send(*told)
            with contextlib.suppress(LocalProtocolError):
                peer.session.close(ByeReason.ERROR)
            self.out.close_now(peer)
        self._stopped = True
        self.out.say(Stop())
        return self.out.take()

    def shutdown(self, reason: ByeReason, now: float, *, abandon: bool = False) -> list[Effect]:
        """Say bye (``reason``) to everyone after what they are owed and close them.

        ``abandon``: the host ends a game still being played for everyone (its own
        player left on purpose): each connection is first told ``over`` with no
        winner (SPEC section 7: an abandoned game), so nobody waits to be let back
        into a game that will not go on."""
        if self._ended:
            return []
        self._time_is(now)
        self._ended = True
        self._thinking = None
        self.out.say(StopListening())
        game = self.table.game
        if abandon and game is not None and self.table.phase is Phase.PLAYING:
            ended = abandoned(game)
            for peer in self.welcomed():
                self.send(peer, ended)
        self._settle_all()
        for peer in self.peers.values():
            with contextlib.suppress(LocalProtocolError):
                peer.session.close(reason)
            self.out.touch(peer)
        out = self.out.take()
        out += [Close(cid) for cid in self.peers]
        for peer in self.peers.values():
            peer.closed = True
        return out

    def handover(self, now: float) -> list[Effect]:
        """The host leaves on purpose and hands the table to the first laptop in the
        order that is connected (:meth:`can_hand_over`: whether there is one), at the
        next epoch: each connection on version 4 is told ``handover`` (and follows it),
        each older one a sentence naming where the table went and ``bye`` (shutdown);
        the journal says the table ``moved``; then the table is done here."""
        heir = self.heralds.heir(self.peers)
        if self._ended or heir is None:
            return []
        self._time_is(now)
        return self._move_to(self.epoch + 1, heir.pid, handed=True)

    def play_alone(self, now: float) -> list[Effect]:
        """The person at this host chose to play on alone while it is cut off: the
        game goes on here (bots in the away seats) as a game of its own, never the
        table's: the table's journal keeps the game as it stood when cut off (nothing
        of this game is journalled: no move, no winner).  Nothing happens for a host
        without its own seat (a headless one, a bot program never chooses this) or one
        not cut off."""
        if self._ended or self.heralds.seat is None:
            return []
        self._time_is(now)
        self.fence.advance(now)
        if not self.fence.play_alone():
            return []
        log.info("cut off, this host's player plays on alone: a game of its own")
        self.records.stop_keeping()
        return self._after_change([])

    @property
    def alone(self) -> bool:
        """Its person chose to play on alone while cut off (:meth:`play_alone`)."""
        return self.fence.alone

    def newer_epoch(self, epoch: int, pid: int, now: float) -> list[Effect]:
        """This table was found hosted at ``epoch`` (this host's or newer) by seat
        ``pid``'s laptop (a probe's answer, an advert).  Cut off from most laptops,
        this host steps down: everyone still here is told where the table went
        (``handover`` on version 4, a sentence and ``bye`` before), the journal says it
        ``moved``, and the table is done here.
        With a quorum present it stays: the claimant is refuted (``error``
        forbidden, "the host is alive").  Another laptop at this host's own epoch (a
        rival successor) is answered the same way; an older epoch changes nothing, and
        so does any news to a host whose person plays on alone (its game is its own:
        it neither claims the table nor leaves it)."""
        if self._ended or epoch < self.epoch or (epoch == self.epoch and pid == self.heralds.seat):
            return []  # an older epoch, or this very host
        if self.fence.alone:
            return []
        self._time_is(now)
        self.fence.advance(now)
        # (only the table's first host hosts at the first epoch: a laptop there is forged)
        if not self.fence.cut_off or epoch == self.epoch == FIRST_EPOCH:
            refusal = m.Error(reason=ErrorReason.FORBIDDEN, text=ALIVE_TEXT, fatal=True)
            return [Refute(epoch, pid, refusal)]
        log.info("the table is hosted at epoch %d by seat %d: stepping down", epoch, pid)
        return self._move_to(epoch, pid, handed=False)

    def advert(self, epoch: int, addrs: tuple[str, ...], port: int, now: float) -> list[Effect]:
        """An advert of this table at ``epoch`` on ``addrs`` and ``port`` (the shell
        watches the LAN for them).  At a newer epoch, on the standby port a laptop of
        the electorate offered (a successor hosts there), it is where that laptop may
        host the table now, at an address this host was never told (its network gave
        it another while this host slept or was cut off, SPEC 13): it is probed there
        from now on, at once while this host is cut off, and :meth:`newer_epoch`
        decides on what the probe finds.  Any other advert changes nothing (an older
        epoch or this host's, a port no laptop offered, a host whose person plays on
        alone); a host with a quorum present is never probed into stepping down."""
        if self._ended or self.fence.alone or epoch <= self.epoch or not addrs:
            return []
        self._time_is(now)
        self.fence.advance(now)
        seat = self.heralds.seat
        found = [x for x in self.electorate.order(self.table)
                 if x.port == port and x.pid != seat]  # fmt: skip
        for laptop in found:
            self.fence.advertised(laptop.pid, tuple(addrs))
        if not self.fence.cut_off:
            return []
        return [Probe(self.fence.where(x.pid, x.addrs), x.port, x.pid) for x in found]

    def _time_is(self, now: float) -> None:
        """The time is ``now``.  When the sweep (due every ``options.sweep`` while the
        table serves) comes more than D late, this host's process slept (a closed lid,
        SIGSTOP): what it hears first is stale, and its laptops may have chosen another
        host meanwhile, so the fence holds the game for D and probes them all."""
        due = self._next_sweep
        delay = self.options.takeover_delay
        if due is not None and now - due > delay and self.electorate.laptops:
            log.info("this host was asleep for %.0f s: the game waits while it looks for "
                     "a newer host", now - due)
            self.fence.woke(now, delay)
            self.table.pause(due)  # (from when it went quiet: its sleep counts against nobody)
            self._next_sweep = now  # (told once: the sweep runs at once)
        self._now = now

    def next_wakeup(self) -> float | None:
        """When :meth:`tick` is next due (None: only an input changes anything)."""
        if self._ended:
            return None
        deadline = self.table.next_deadline()
        if deadline is not None and self._thinking is not None and deadline <= self._now:
            deadline = None  # the bot due now is thinking; its answer comes as an input
        times = [t for t in (self._next_sweep, deadline, self.fence.next_wakeup(),
                             self._pause_news_due()) if t is not None]  # fmt: skip
        if self._owed:
            times.append(self._owed_until)
        return min(times, default=None)

    # -- queries ---------------------------------------------------------------------

    def expect_laptops(self, laptops: Iterable[Laptop | wire.Laptop]) -> None:
        """Count ``laptops`` in the electorate from the start (a successor: the order it
        knew), until each offers again or its seat goes.  Each counts present only once
        it answered a ping of this host's (Raft: a new leader commits nothing before a
        majority heard it in its term): its answer proves it took this host's succession,
        so it never follows an older host again, and a successor that dies at once has
        made no state that its laptops could then play differently at the old host."""
        laptops = list(laptops)
        self.electorate.expect(laptops)
        for x in laptops:
            player = self.table.players.get(x.pid)
            if player is None or player.conn is None:  # (not back yet)
                self.electorate.last_heard.setdefault(x.pid, -math.inf)
                self._unproven.add(x.pid)

    def summary(self) -> TableSummary:
        t = self.table
        return TableSummary(
            name=self.options.name,
            variant=t.variant,
            phase=t.phase,
            seats_taken=len(t.players),
            seats=t.config.seats,
            pin=self.pin_key is not None,
            port=self.port,
        )

    def lobby_message(self) -> m.Lobby:
        """The lobby as every connection is told it now."""
        return self.tell.lobby_message()

    def can_hand_over(self) -> bool:
        """Whether a laptop is connected that the table could be handed over to."""
        return not self._ended and self.heralds.heir(self.peers) is not None

    @property
    def paused(self) -> bool:
        """The game waits: this host is cut off from most of the table's laptops."""
        return self.fence.paused

    @property
    def thinking(self) -> BotTurn | None:
        """The bot turn being decided off the loop, if any."""
        return None if self._thinking is None else self._thinking[1]

    # -- what handlers use (authority.handlers.Host) ----------------------------------

    def peer(self, cid: int) -> Peer | None:
        return self.peers.get(cid)

    def send(self, peer: Peer, msg: m.Message, frame: bytes | None = None) -> None:
        if isinstance(msg, m.RecordPart):
            peer.record_told = (self.table.games_played, self.game_log.count)
        self.out.send(peer, msg, frame)

    def welcomed(self) -> list[Peer]:
        return [p for p in self.peers.values() if p.welcomed and not p.closed]

    def begin_game(self) -> None:
        self._sent_revision = self.table.revision
        self.tell.begin_game(self.welcomed())

    def close_now(self, peer: Peer, reason: ByeReason) -> None:
        with contextlib.suppress(LocalProtocolError):
            peer.session.close(reason)
        self.out.close_now(peer)

    def owes_result(self, pid: int) -> bool:
        return pid in self._owed

    def told_result(self, pid: int) -> None:
        self._owed.discard(pid)

    def ponged(self, peer: Peer, n: int) -> None:
        peer.ponged(n)  # it heard this host when that ping was sent: its lease runs on
        self.settling.ponged(peer.cid, n)  # (and it holds the states sent before it)
        if n == peer.result_ping:  # it read the ``over`` sent before that ping
            peer.result_ping = None
            player = self.table.player_of(peer.cid)
            if player is not None:
                self._owed.discard(player.pid)

    # -- the round ---------------------------------------------------------------------

    def _clock(self) -> float:
        return self._now

    def _dispatch(self, peer: Peer, msg: m.Message, now: float) -> list[Event]:
        handler = HANDLERS.get(type(msg))
        if handler is None:
            log.info("no handler for %s from connection %d", msg.TYPE.value, peer.cid)
            return []
        return handler(self, peer, msg, now)

    def _after_change(self, events: list[Event]) -> list[Effect]:
        """Tell everyone what changed, run what is due, say what changed, flush."""
        self.tell.events(self.welcomed(), events)
        self.heralds.commit(events, self.welcomed())
        table = self.table
        if table.phase is Phase.LOBBY:  # back in the lobby after a game: say so
            again = shared(m.Rematch())
            for peer in self.welcomed():
                if peer.session.state is State.GAME_OVER:
                    self.send(peer, *again)
        if table.can_auto_start():
            table.start(None, self._now)
            self.begin_game()
        self._watch_quorum()
        self._release_offer()
        self._run_due()
        self.heralds.commit([], self.welcomed())
        if table.phase is Phase.FINISHED and self._over_seen != table.games_played:
            self._over_seen = table.games_played
            self._owe_result()
        self.heralds.tell_succession(self.welcomed())
        self._settle()
        self._journal_laptops()
        if table.revision != self._sent_revision:
            self._sent_revision = table.revision
            lobby_for = self.tell.lobbies()
            for peer in self.welcomed():
                if peer.lobby_revision != table.revision:  # not just told (a join)
                    self.tell.send_lobby(peer, *lobby_for(peer))
        self._tell_table_events()
        self.out.say(RosterChanged())
        summary = self.summary()  # seats, and the phase: a game that began or ended
        if summary != self._told_summary:
            self._told_summary = summary
            self.out.say(SummaryChanged(summary))
        out = self.out.take()
        if not self._stopped and self._finished():
            self._stopped = True
            out.append(Stop())
        return out

    def _tell_table_events(self) -> None:
        """A table event written during the game, or a seated person gone or back (SPEC
        section 7): every connection on version 3 is sent the game so far, after what
        it was told of this change (the roster included), so each laptop's record of
        the game has the table events where the host's does (no ``events`` tells them,
        and a client cannot tell whether a bot covered a person the roster shows away)
        and a successor carries the whole game on."""
        table, game = self.table, self.table.game
        away = frozenset(
            p.colour for p in table.players.values() if not p.bot and not p.connected
        )  # fmt: skip
        now = (table.games_played, self.game_log.table_events, away)
        told, self._table_events_told = self._table_events_told, now
        if now == told or now[0] != told[0]:
            return  # (nothing new; or a game that began: its first snapshot tells it)
        if game is None or game.over or table.phase is not Phase.PLAYING:
            return
        told_now = (table.games_played, self.game_log.count)
        for peer in self.welcomed():
            if peer.record_told != told_now:  # (not one welcomed just now with it)
                self.tell.send_record(peer)

    def _watch_quorum(self) -> None:
        """Count the laptops present (within their lease): cut off from most of them,
        the game pauses until a quorum is back (everyone connected is told why; the
        player on turn is offered its moves again at the end) and the absent ones are
        probed."""
        table, now, electorate = self.table, self._now, self.electorate
        electorate.prune(table, self.heralds.seat)
        lease = self.timings.lease
        absent_at, absent = [], []
        for laptop in electorate.order(table):
            conn = table.players[laptop.pid].conn
            peer = None if conn is None else self.peers.get(conn)
            if peer is not None and not peer.closed and laptop.pid in self._unproven:
                if peer.proved:
                    self._unproven.discard(laptop.pid)
                at = peer.renewed + lease if peer.proved else -math.inf
            elif peer is not None and not peer.closed:
                at = peer.renewed + lease
            else:  # (not seen yet: from when first counted)
                at = electorate.last_heard.setdefault(laptop.pid, now) + lease
            absent_at.append(at)
            if peer is None or peer.closed or at <= now:
                absent.append(laptop)
        self.fence.note(now, absent_at, hosting=self.heralds.seat is not None)
        if self.fence.paused:
            table.pause(now)
            self._tell_paused()
        else:
            table.resume(now)
            self._offer_again()
        if self.fence.probe_due(now):  # (after a sleep, every laptop: any may host now)
            asked = electorate.order(table) if self.fence.waking else absent
            fence = self.fence
            self.out.say(*(Probe(fence.where(x.pid, x.addrs), x.port, x.pid) for x in asked))

    def _settle(self) -> None:
        """Settling (protocol version 5, ``authority/settling.py``): each laptop of the
        order is pinged after the newest state of the game (its pong proves it holds
        it); when the settled state advances, every connection on version 5 is told
        ``settled``.  Nothing waits for it: the game goes on meanwhile."""
        table, game = self.table, self.table.game
        if game is None or table.phase is Phase.LOBBY:
            return  # (a rematch's lobby: the next game settles from its start)
        number, sid, settling = table.games_played, game.state_id, self.settling
        order = self.electorate.order(table)
        for laptop in order:
            conn = table.players[laptop.pid].conn
            peer = None if conn is None else self.peers.get(conn)
            if (peer is not None and peer.welcomed and not peer.closed
                    and settling.due(peer.cid, number, sid)):  # fmt: skip
                n = peer.next_ping(self._now)
                self.send(peer, m.Ping(n=n))
                settling.ping(peer.cid, laptop.pid, n, number, sid)
        settling.settle(number, sid, [x.pid for x in order])
        if settling.settled < 0 or settling.game != number:
            return
        told = (number, settling.settled)
        settled = shared(m.Settled(sid=settling.settled))
        for peer in self.welcomed():
            if peer.protocol >= SETTLE_VERSION and peer.settled != told:
                peer.settled = told
                self.send(peer, *settled)

    def _settle_all(self) -> None:
        """The table closes here for good (no successor): nothing can replace what was
        sent, so every version-5 connection is told the newest state is settled
        before its ``bye`` (the end of the game included); a host cut off from the
        order's quorum (paused) tells nothing, as the others may play on without it."""
        table, game = self.table, self.table.game
        if game is None or self.paused:
            return
        told = (table.games_played, game.state_id)
        settled = shared(m.Settled(sid=game.state_id))
        for peer in self.welcomed():
            if peer.protocol >= SETTLE_VERSION and peer.settled != told:
                peer.settled = told
                self.send(peer, *settled)

    def _pause_news_due(self) -> float | None:
        """When the players are to be told why the game waits: once it has waited a
        lease heartbeat (a pong a little late pauses a game for less: no news)."""
        since = self.table.paused_at
        if since is None or self._pause_told or self.table.phase is not Phase.PLAYING:
            return None
        return since + self.timings.heartbeat

    def _tell_paused(self) -> None:
        """Tell everyone connected why the game waits, once a pause has lasted."""
        if self.table.phase is Phase.PLAYING:
            self._game_paused = True
        due = self._pause_news_due()
        if due is None or self._now < due:
            return
        self._pause_told = True
        said = shared(m.Chat(pid=None, text=PAUSED_TEXT))
        for peer in self.welcomed():
            self.send(peer, *said)

    def _offer_again(self) -> None:
        """A pause of a game is over: the player on turn is offered its moves again
        (a move it sent meanwhile was refused, and its offer is gone)."""
        if not self._game_paused:
            return
        self._game_paused = self._pause_told = False
        game = self.table.game
        if game is None or self.table.phase is not Phase.PLAYING:
            return
        for peer in self.welcomed():
            if self.tell.seat_of(peer) == game.turn:
                self.tell.offer(peer, game.turn)

    def _sweep_every(self) -> float:
        """How often the connections' clocks are looked at: often enough to ping each
        laptop every lease heartbeat."""
        if self.electorate.laptops:  # (a ping due is sent at most half a beat late)
            return min(self.options.sweep, self.timings.heartbeat / 2)
        return self.options.sweep

    # -- succession (protocol version 4) -----------------------------------------------

    @property
    def epoch(self) -> int:
        """This host's epoch (1: the table's first host)."""
        return self.heralds.epoch

    @property
    def electorate(self) -> Electorate:
        return self.heralds.electorate

    @property
    def commitments(self) -> Commitments:
        return self.heralds.commitments

    def welcomed_seat(self, peer: Peer) -> None:
        self.heralds.welcomed_seat(peer)

    def offered(self, peer: Peer, offer: m.Offer) -> None:
        self.heralds.offered(peer, offer)

    def send_succession(self, peer: Peer) -> None:
        self.heralds.send_succession(peer)

    def send_commit(self, peer: Peer) -> None:
        self.heralds.send_commit(peer, self.welcomed())

    def send_pause_news(self, peer: Peer) -> None:
        """A connection welcomed while the game waits, its pause told to everyone
        already, is told why at once (the same chat line)."""
        if self._pause_told and self.fence.paused:
            self.send(peer, m.Chat(pid=None, text=PAUSED_TEXT))

    def _move_to(self, epoch: int, pid: int, *, handed: bool) -> list[Effect]:
        """The table goes on at ``epoch`` on seat ``pid``'s laptop (``handed``: this
        host handed it over; else it stepped down): tell everyone (a connection on an
        older version in its player's language, by the options' ``words``), journal
        ``moved``, close every connection; nothing more happens here."""
        self._ended = True
        self._thinking = None
        self.out.say(StopListening())
        heir = self.table.players.get(pid)
        name = None if heir is None else heir.name
        laptop = self.electorate.laptops.get(pid)
        addr = None  # (an address on this machine only would mislead a peer on another)
        if laptop is not None and laptop.addrs and not on_this_machine(laptop):
            addr = laptop.addrs[0]
        port = None if laptop is None else laptop.port
        self.records.moved(epoch, pid, name)
        moved = shared(m.Handover(epoch=epoch, pid=pid))
        news = heirs.moved(name, addr, port)
        told: dict[str | None, Shared] = {}  # its line in each language, encoded once
        for peer in self.welcomed():
            if peer.protocol >= 4:
                self.send(peer, *moved)  # its session closes after it
                continue
            player = self.table.player_of(peer.cid)
            lang = None if player is None else player.lang  # a spectator: none
            if lang not in told:
                told[lang] = shared(heirs.moved_line(news, lang, self.options.words))
            self.send(peer, *told[lang])
        log.info("the table %s to %s at epoch %d",
                 "is handed over" if handed else "moved", name or f"seat {pid}", epoch)
        for peer in self.peers.values():
            if not peer.session.closed:
                with contextlib.suppress(LocalProtocolError):
                    peer.session.close(ByeReason.SHUTDOWN)
            self.out.touch(peer)
        out = self.out.take()
        out += [Close(cid) for cid in self.peers if not self.peers[cid].closed]
        for peer in self.peers.values():
            peer.closed = True
        self._stopped = True
        out.append(Stop())
        return out

    def _owe_result(self) -> None:
        """The game just ended (its ``over`` is sent): every person is owed the result
        until known to have it.  Each connected one is pinged after the ``over``: its
        pong proves the ``over`` was read (a laptop asleep or cut off never answers,
        and is told when it comes back within the grace)."""
        table = self.table
        self._owed = {p.pid for p in table.players.values() if not p.bot}
        self._owed_until = self._now + table.config.grace
        for peer in self.welcomed():
            if table.player_of(peer.cid) is not None:
                n = peer.next_ping(self._now)
                peer.result_ping = n
                self.send(peer, m.Ping(n=n))

    def _finished(self) -> bool:
        """A headless table (not told to stay) whose game is over and whose people
        have all been told the result (or have left, or were waited for long enough)."""
        table = self.table
        if table.phase is not Phase.FINISHED or not table.config.auto_start or self.options.stay:
            return False
        waiting = self._owed & table.players.keys()
        return not waiting or self._now >= self._owed_until

    def _release_offer(self) -> None:
        """A decision the table held back (a successor waiting for the players' hands)
        is offered now: the player on turn is told its moves, and each player whose
        hand was dealt afresh its state again (its hand as it stands now)."""
        afresh = self.table.release_offer(self._now)
        game = self.table.game
        if afresh is None or game is None:
            return
        for peer in self.welcomed():
            seat = self.tell.seat_of(peer)
            if seat in afresh:
                self.tell.send_state(peer, history=False)
                self.send_commit(peer)
            elif seat == game.turn:
                self.tell.offer(peer, seat)

    def _run_due(self) -> None:
        """Play what is due; each bot move of a burst is told as it is made (its own
        sid and turn, and ``over`` only after the last one): seats given up, and bot
        moves -- quick bots at once, a blocking one (the expert's search) is asked
        for with ``Think`` (one decision at a time)."""
        table = self.table
        table.tick(self._now, bots=False)
        while self._thinking is None:
            turn = table.bot_turn(self._now)
            if turn is None:
                return
            if turn.blocks:
                self._think(turn)
                return
            events = table.play_bot(turn, turn.decide_or_fall_back(), self._now)
            if events is None:
                return  # cannot happen: nothing changed between the decision and the play
            self.tell.events(self.welcomed(), events)
            self.heralds.commit(events, self.welcomed())

    def _think(self, turn: BotTurn) -> None:
        self._tickets += 1
        self._thinking = (self._tickets, turn)
        self.out.say(Think(self._tickets, turn))

    def _answered(self, ticket: int) -> BotTurn | None:
        """The turn ``ticket`` decided (no longer thinking), None for a stale ticket."""
        if self._ended or self._thinking is None or self._thinking[0] != ticket:
            return None
        turn = self._thinking[1]
        self._thinking = None
        return turn

    def _sweep(self, now: float) -> None:
        for peer in list(self.peers.values()):
            if peer.closed:
                continue
            what = due(
                self.options, now, admitted=peer.admitted, opened=peer.opened,
                heard=peer.heard, pinged=peer.pinged,
            )  # fmt: skip
            if what is Due.HELLO_TIMEOUT:
                log.info("connection %d: no hello in time, dropped", peer.cid)
                self.close_now(peer, ByeReason.TIMEOUT)
            elif what is Due.SILENT:
                log.info("connection %d: silent, dropped", peer.cid)
                peer.closed = True
                self.out.forget(peer)
                self.out.say(Close(peer.cid))
            elif what is Due.PING or self._lease_due(peer, now):
                self.send(peer, m.Ping(n=peer.next_ping(now)))

    def _lease_due(self, peer: Peer, now: float) -> bool:
        """Whether a laptop's connection is to be pinged now, so that its answer
        renews its lease (every lease heartbeat)."""
        if not peer.welcomed or now - peer.pinged < self.timings.heartbeat:
            return False
        player = self.table.player_of(peer.cid)
        return player is not None and player.pid in self.electorate.laptops

    def _refuse_busy(self, peer: Peer, text: str) -> None:
        """Refuse (``busy``) and close a connection not admitted yet, at once."""
        with contextlib.suppress(LocalProtocolError):
            peer.session.refuse(RefuseReason.BUSY, text)
        self.out.close_now(peer)
        self.peers.pop(peer.cid, None)

    def _drop(self, peer: Peer, reason: ByeReason) -> None:
        """Say bye after what was written, send nothing more, cut it shortly."""
        session = peer.session
        session.data_to_send()  # what was not written yet will never be
        with contextlib.suppress(LocalProtocolError):
            session.close(reason)
        self.out.close_now(peer, self.options.drop_linger)


ALIVE_TEXT = "the host is alive"  # a claimant told so: this host has a quorum present


def failure_text(exc: OSError) -> str:
    """The one sentence players are told when the host cannot save the game."""
    why = exc.strerror or str(exc) or "a write failed"
    return (
        f"The host cannot save the game ({why}), so the table stops here with every move "
        "you saw saved; the host can continue it later with `sorry-lan host --resume`."
    )
