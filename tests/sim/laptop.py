"""One laptop of a simulated evening, and the glue that carries its decisions out.

This module is the simulator's copy of what the I/O shells do (``net/client.py``,
``net/recovery.py``, ``net/heir.py``, ``net/standby.py``, ``net/host.py`` and
``net/probe.py``), on the fake network of ``world``: it is the one place to adapt
when those change.

- :class:`HostShell` runs a :class:`~sorry_lan.authority.core.HostCore` (a table's
  first host, a successor, or a rogue): connections in, effects out, a bot's
  ``Think`` decided on the spot, the journal kept in a list, probes answered by
  whatever listens at the probed laptop's port (``net/host.py``, ``net/probe.py``).
- :class:`Laptop` is a player's machine: a :class:`ClientModel` on its link to the
  host (heartbeats, and the loss rule ``GameClient._pump`` carries out:
  ``succession.watch.Watch``), the heir's loop after the host is lost
  (``net/recovery.py``: the steps ``succession.retry.Recovery`` orders, the old host
  tried again with its backoff, each candidate the election names tried at its
  standby, votes counted by its own :class:`Standby`, a takeover built with
  ``authority.takeover``), and a seeded bot that answers each offer with one of its
  legal moves.

It decides nothing about succession: the election, the watch, the recovery's steps,
the standby and the host core do, as in the product; the delays are the product's
(``succession.timings.LaptopTimings``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sorry_lan.authority import effects as fx
from sorry_lan.authority.core import HostCore
from sorry_lan.authority.electorate import Laptop as Offered
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.restore import moved_to, offers, replay, taken_over
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.authority.takeover import (
    build_table,
    pin_verifier,
    resume_table,
    resumed_options,
)
from sorry_lan.client.events import TableNews, TableNewsKind
from sorry_lan.client.model import ClientModel
from sorry_lan.succession import election as el
from sorry_lan.succession.retry import Pause, Recovery, TryHost
from sorry_lan.succession.standby import MOVING, Host, Standby, TurnAway, Wait
from sorry_lan.succession.timings import LaptopTimings
from sorry_lan.succession.watch import HostLost, Watch
from sorry_lan.wire import messages as m
from sorry_lan.wire.session import HostSession
from sorry_lan.wire.standby import NOT_HOSTING
from sorry_lan.wire.vocab import ByeReason, RefuseReason

from .world import CLOSE, Conn

if TYPE_CHECKING:
    from .evening import Evening

EPOCH = 1_790_000_000.0  # the wall clock at simulated time 0
TID = "simtable"
TIMINGS = LaptopTimings()  # net/client.py ClientOptions, net/heir.py HeirOptions
ATTEMPT_TIMEOUT = TIMINGS.attempt_timeout
BROWSE = 2.0  # how often the table's adverts are looked at while the host is lost
JOIN_RETRY = (RefuseReason.FULL, RefuseReason.BUSY)  # net/client.py _RETRY
IDLE_TEXT = NOT_HOSTING  # net/standby.py IDLE_TEXT


class HostShell:
    """A host core on a laptop, as ``net/host.py`` runs it (no sockets)."""

    def __init__(
        self, ev: Evening, lap: Laptop, table: Table, options: HostOptions, *,
        label: str, parent: HostShell | None = None, rogue: bool = False,
        journal: list[dict[str, object]] | None = None, expect: list[Offered] | None = None,
    ) -> None:
        self.ev = ev
        self.lap = lap
        self.label = label
        self.parent = parent
        self.rogue = rogue
        self.table = table
        self.port = lap.port
        self.journal: list[dict[str, object]] = list(journal or [])  # (resumed: the old)
        self.conns: dict[int, Conn] = {}
        self.listening = True
        self.stopped = False
        self.dead = False
        self.states: dict[int, tuple[int, ...]] = {}  # sid -> pawns, each state it made
        # The sid its table began at (None: no game): its parent's record ends there.
        self.begun = None if table.game is None else table.game.state_id
        self.started = ev.world.now
        self._next_cid = 1
        self._later: list[Callable[[], list[fx.Effect]]] = []
        self._wake: float | None = None
        self._probing: set[int] = set()
        self._browsing = False  # the adverts are looked at again soon
        self.ready = False  # the state it starts from is no commit of its own
        # (a game resumed with its end in it: nobody wins it here)
        self.over_at_start = table.game is not None and table.game.over
        world = ev.world
        self.core = HostCore(table, options, wall=lambda: EPOCH + world.now, journalled=True)
        self.core.expect_laptops(expect or [])  # (resumed: where its journal says they offered)
        self._seen_state()
        self.ready = True
        self.run(self.core.start(self.port, world.now))

    @property
    def epoch(self) -> int:
        return self.core.epoch

    @property
    def live(self) -> bool:
        return not (self.dead or self.stopped)

    # -- connections -------------------------------------------------------------------

    def accept(self, conn: Conn, address: str) -> int:
        cid = self._next_cid
        self._next_cid += 1
        self.conns[cid] = conn
        conn.on_server = lambda data: self.lap.handle(self._from_client, cid, data)
        self.run(self.core.opened(cid, address, self.ev.world.now))
        return cid

    def _from_client(self, cid: int, data: bytes) -> None:
        if not self.live:
            return
        now = self.ev.world.now
        if data == CLOSE:
            self.run(self.core.closed(cid, now))
        else:
            self.run(self.core.received(cid, data, now))

    # -- time ----------------------------------------------------------------------------

    def _schedule(self) -> None:
        if not self.live:
            return
        wake = self.core.next_wakeup()
        if wake is None or wake == self._wake:
            return
        self._wake = wake
        self.lap.later(max(0.0, wake - self.ev.world.now), self._tick, wake)

    def _tick(self, wake: float) -> None:
        if self._wake != wake or not self.live:
            return
        self._wake = None
        self.run(self.core.tick(self.ev.world.now))

    # -- effects ---------------------------------------------------------------------------

    def run(self, effects: list[fx.Effect]) -> None:
        self._later.append(lambda: effects)
        if len(self._later) > 1:
            return
        while self._later:
            for effect in self._later[0]():
                self._do(effect)
            self._later.pop(0)
        self._seen_state()
        self._schedule()
        self._look_for_adverts()
        self.ev.host_ran(self)

    def _look_for_adverts(self) -> None:
        """While cut off, the table's adverts on the LAN are looked at every
        :data:`BROWSE` seconds (``net/host.py``'s table watch)."""
        if self._browsing or not self.live or self.rogue or not self.core.fence.cut_off:
            return
        self._browsing = True
        self.lap.later(BROWSE, self._adverts)

    def _adverts(self) -> None:
        """Each honest host's advert this laptop reaches (at its laptop's address
        now) is told to the core."""
        self._browsing = False
        if not self.live or not self.core.fence.cut_off:
            return
        for host in self.ev.hosts:
            there = host.lap
            if (host is self or host.rogue or not host.listening or host.dead
                    or not there.alive or not self.ev.net.reachable(self.lap, there)):  # fmt: skip
                continue
            if self.dead or self.stopped:
                return
            self.run(self.core.advert(host.epoch, (there.addr,), host.port,
                                      self.ev.world.now))
        self._look_for_adverts()

    def _seen_state(self) -> None:
        game = self.table.game
        if game is not None and game.state_id not in self.states:
            self.states[game.state_id] = tuple(game.pawns)
            self.ev.monitor.state_made(self, game.state_id)

    def _do(self, effect: fx.Effect) -> None:
        self._seen_state()
        if isinstance(effect, fx.Send):
            conn = self.conns.get(effect.cid)
            if conn is not None:
                conn.to_client(effect.data)
        elif isinstance(effect, fx.Close):
            conn = self.conns.get(effect.cid)
            if conn is not None and conn.server_open:
                conn.close_by_server()
                cid = effect.cid
                self._later.append(lambda: self.core.closed(cid, self.ev.world.now))
        elif isinstance(effect, fx.Append):
            self.journal.append(effect.record)
        elif isinstance(effect, fx.Think):
            self._later.append(lambda: self._decide(effect))
        elif isinstance(effect, fx.StopListening):
            self.listening = False
        elif isinstance(effect, fx.Stop):
            self.stopped = True
            self.listening = False
            self.ev.world.note("stop", self.label)
        elif isinstance(effect, fx.Probe):
            self._probe(effect)

    def _decide(self, think: fx.Think) -> list[fx.Effect]:
        now = self.ev.world.now
        try:
            move = think.turn.decide()
        except Exception as exc:
            return self.core.bot_failed(think.ticket, exc, now)
        return self.core.bot_decided(think.ticket, move, now)

    def _probe(self, probe: fx.Probe) -> None:
        """``net/host.py`` _probe and ``net/probe.py``: ask the laptop at the probed
        address what it hosts; a host of this table there is a sighting."""
        if probe.pid in self._probing:
            return
        self._probing.add(probe.pid)
        self.lap.later(ATTEMPT_TIMEOUT / 2, self._probed, probe)

    def _probed(self, probe: fx.Probe) -> None:
        self._probing.discard(probe.pid)
        if not self.live:
            return
        for address in probe.addrs:
            there = self.ev.at_address(address)
            if there is None or not self.ev.net.reachable(self.lap, there) or there.asleep:
                continue
            host = there.host
            if host is None or not host.listening or host.port != probe.port or host.dead:
                continue
            seat = host.core.heralds.seat
            who = seat if seat is not None else probe.pid
            self.ev.world.note("probe", self.label, host.label, host.epoch)
            self.run(self.core.newer_epoch(host.epoch, who, self.ev.world.now))
            return


class Laptop:
    """One player's laptop: its client model, its standby, and a table it may host."""

    def __init__(self, ev: Evening, n: int, name: str, *, token: bytes | None = None,
                 own_host: bool = False) -> None:  # fmt: skip
        self.ev = ev
        self.n = n
        self.name = name
        self.addr = f"10.0.{n}.1"
        self.port = 7000 + n
        self.alive = True
        self.asleep_until: float | None = None
        self.gen = 0
        self.deferred: list[tuple[Callable[..., object], tuple[Any, ...]]] = []
        self.bot = random.Random(ev.world.rng.getrandbits(32))
        self.host: HostShell | None = None
        self.standby: Standby | None = None
        self.own_host = own_host
        self.token = token
        self.shown: list[tuple[int, tuple[int, ...]]] = []  # (sid, pawns) of each state shown
        self.gave_up = False
        self.took_over = 0
        self.crashes = 0
        self.kept: HostShell | None = None  # the table it started and hosted, crashed
        self.kept_token: bytes | None = None  # that table's own player's token
        self.others_play = False  # as it joined: the game went on at another laptop
        # where its seat file says the table may be (the host it followed, the laptops
        # of its order), and until when a join that refused a replay looks there
        self.places: list[tuple[str, int]] = []
        self.look_until: float | None = None
        self.refused_at: tuple[str, int] | None = None  # (the replay: never tried again)
        # the whole games its client was sent, filed as they came (``net/played``: kept
        # on disk, across a crash)
        self.filed: list[dict[str, Any]] = []
        self._fresh_model()

    def _fresh_model(self) -> None:
        # (the first host's own player has a standby too, as ``host``'s client has its
        # heir: once the table moved it is a laptop of the electorate like any other)
        standby = (self.port, (self.addr,))
        self.model = ClientModel(self.name, token=self.token, standby=standby,
                                 dead_after=self.ev.dead_after)
        self.conn: Conn | None = None  # the link to the host we follow (or try)
        self.host_at: tuple[str, int] | None = None  # where that host listens
        self.trying: str | None = None  # "host" / "candidate" / "join": a try under way
        self.claim_refused = False  # the host a join tried was refused (an older epoch...)
        self.try_conn: Conn | None = None
        self.try_attempt: el.TryCandidate | None = None
        self.claim_refused = False  # this join's host was refused by the model (a claim)
        self.recovering = False
        self.recovery: Recovery | None = None  # the heir's steps while it recovers
        self.watch = Watch(replace(TIMINGS, dead_after=self.ev.dead_after))
        self._tick_at: float | None = None
        self._play_for: object = None
        self._beat = False

    # -- the laptop's own clock ---------------------------------------------------------

    @property
    def asleep(self) -> bool:
        return self.asleep_until is not None

    def later(self, delay: float, fn: Callable[..., object], *args: Any) -> None:
        """An event of this laptop's: dropped if it crashes meanwhile, held while asleep."""
        self.ev.world.after(delay, self._run, self.gen, fn, args)

    def handle(self, fn: Callable[..., object], *args: Any) -> None:
        """Something reaches this laptop now (held while it sleeps)."""
        self._run(self.gen, fn, args)

    def _run(self, gen: int, fn: Callable[..., object], args: tuple[Any, ...]) -> None:
        if gen != self.gen or not self.alive:
            return
        if self.asleep:
            self.deferred.append((fn, args))
            return
        fn(*args)

    # -- faults ---------------------------------------------------------------------------

    def crash(self) -> None:
        """The process dies (journals kept): every connection resets."""
        self.ev.world.note("crash", self.name)
        self.crashes += 1
        for conn in self.ev.conns_of(self):
            conn.reset()
        if self.host is not None:
            # the table this laptop hosted (started by its person, ``sorry-lan host``, or
            # taken over), still its to host: its journal is kept for ``host --resume``
            hosting = not self.host.rogue and self.host.live
            self.kept = self.host if hosting else None
            if hosting:  # (its own player's token: the host process keeps it)
                self.kept_token = self.model.token or self.token
            self.host.dead = True
            self.host.listening = False
            self.host = None
        self.alive = False
        self.gen += 1
        self.standby = None
        self.deferred.clear()
        self.asleep_until = None

    def restart(self) -> None:
        """Started again with its seat file (the token): it looks for the table.  The
        person who started the table (``sorry-lan host``) whose laptop crashed while it
        hosted, finding the table advertised nowhere (:meth:`find_table`), starts it
        again as README says: ``sorry-lan host --resume`` (:meth:`_resume`)."""
        self.ev.world.note("restart", self.name)
        self.alive = True
        self.gen += 1
        self.token = self.model.token if self.model.token is not None else self.token
        followed = self.model.followed  # (its seat file keeps the epoch it followed)
        port = None if self.host_at is None else self.host_at[1]  # (and the host's port)
        standbys = self.model.standby_ports  # (and each laptop's standby port)
        known = self.model.succession  # (and where the table may be: SeatStore.elsewhere)
        order = [] if known is None else [(a, lap.port) for lap in known.order
                                           for a in lap.addrs]
        self.places = [*([] if self.host_at is None else [self.host_at]), *order]
        self.look_until = None
        self.own_host = False
        self._fresh_model()
        if followed is not None:
            self.model.recall(*followed, port=port, standbys=standbys)
        self.find_table()

    def _resume(self) -> None:
        """``sorry-lan host --resume``: the game read back from the journal it kept
        (``commands/host.py``: a finished or moved one is refused, its person told so),
        hosted again on the same port at the table's id and the first epoch, or, a
        successor's journal (it begins with the takeover), at the epoch it hosted
        (``net/hosted.py``: ``resume_table``); its own player joins it with its seat's
        token."""
        kept, self.kept = self.kept, None
        assert kept is not None
        records = list(kept.journal)
        restored = replay(records)
        if restored is None or restored.ended or moved_to(records) is not None:
            self.ev.world.note("resume refused", self.name)
            self.gave_up = True
            return
        ev = self.ev
        config = TableConfig(seats=ev.n, auto_start=True, seed=self.bot.getrandbits(63),
                             grace=ev.grace, bot_level="random")
        start = taken_over(records)
        table: Table
        if start is None:
            table = Table.restore(config, restored, ev.world.now, None)
            options = replace(ev.host_options, resumed=True)
        else:
            table = resume_table(config, restored, start, ev.world.now, None)
            options = resumed_options(replace(ev.host_options, name=self.name), start)
        label = f"{self.name}@{options.epoch}r{self.crashes}"
        host = HostShell(ev, self, table, options, label=label, parent=kept, journal=records,
                         expect=offers(records))
        self.host = host
        ev.hosts.append(host)
        self.own_host = True
        self.token = self.kept_token
        self._fresh_model()
        self.host_at = (self.addr, self.port)
        self._open(self, "join", None)

    def sleep(self, seconds: float) -> None:
        self.ev.world.note("sleep", self.name, seconds)
        self.asleep_until = self.ev.world.now + seconds
        self.ev.world.after(seconds, self._wake, self.gen)

    def _wake(self, gen: int) -> None:
        """Awake: what the kernel buffered is read first (the blocked pipes go on),
        then the timers that fell due while it slept run, in their order."""
        if gen != self.gen or not self.alive:
            return
        self.ev.world.note("wake", self.name)
        self.asleep_until = None
        if self.host is not None and self.host.live:
            # whatever runs first, the host core is told the time first (every input
            # of the core begins so): a host that slept past D pauses before any move
            self.host.run(self.host.core.tick(self.ev.world.now))
        self.ev.net.kick()
        held, self.deferred = self.deferred, []
        self.ev.world.after(0.05, self._run_held, self.gen, held)

    def _run_held(self, gen: int, held: list[tuple[Callable[..., object], tuple[Any, ...]]]
                  ) -> None:  # fmt: skip
        for fn, args in held:
            self._run(gen, fn, args)

    def move_address(self) -> None:
        """A new address (DHCP): connections through the old one reset."""
        was = self.addr
        self.addr = f"10.{self.crashes + 1}.{self.n}.{self.ev.world.rng.randrange(2, 250)}"
        self.ev.world.note("moved", self.name, self.addr)
        if self.host_at is not None and self.host_at[0] == was:
            # its own host: its player joins it over loopback (``commands/host.py``),
            # whatever address the laptop has
            self.host_at = (self.addr, self.host_at[1])
        for conn in self.ev.conns_of(self):
            if conn.client is not conn.server:
                conn.reset()
        self.model.set_standby(self.port, (self.addr,))
        self.flush()

    # -- connecting ----------------------------------------------------------------------

    def find_table(self) -> None:
        """(Re)started: the table found as its advert shows it (the newest epoch)."""
        if self.conn is not None or self.trying is not None:
            return
        best = self.ev.advertised(self)
        if best is None and self.kept is not None:
            self._resume()
            return
        if best is None:
            self.later(2.0, self.find_table)
            return
        self.host_at = (best.lap.addr, best.port)
        # (what its person sees in the room as it joins: before its hello counts)
        self.others_play = self.ev.goes_on_without(self)
        self._open(best.lap, "join", None)

    def _open(self, there: Laptop, why: str, attempt: el.TryCandidate | None) -> None:
        """Connect to the host listening on ``there`` (a try: welcome or not in 2 s)."""
        if self.try_conn is not None:
            self.try_conn.close_by_client()
        self.try_attempt = attempt
        self.claim_refused = False
        host = there.host
        assert host is not None
        self.model.join(self.ev.world.now, attempt=attempt, port=host.port)
        conn = Conn(self.ev.net, self, there, lambda d: None, lambda d: None)
        self.ev.conns.append(conn)
        conn.on_client = lambda data: self.handle(self._from_host, conn, data)
        host.accept(conn, "127.0.0.1" if there is self else self.addr)
        self.trying = why
        self.try_conn = conn
        self.flush_to(conn)
        self.later(ATTEMPT_TIMEOUT, self._try_timeout, conn, attempt)

    def flush_to(self, conn: Conn) -> None:
        conn.to_server(self.model.data_to_send())

    def flush(self) -> None:
        conn = self.try_conn if self.try_conn is not None else self.conn
        if conn is not None:
            self.flush_to(conn)
        else:
            self.model.data_to_send()

    def _from_host(self, conn: Conn, data: bytes) -> None:
        if conn is not self.conn and conn is not self.try_conn:
            return  # a connection we no longer use
        now = self.ev.world.now
        if data == CLOSE:
            if conn is self.try_conn:
                self._try_failed(conn)
            else:
                self.link_lost("the host closed the connection")
            return
        for event in self.model.receive_data(data, now):
            if isinstance(event, m.Events | m.Snapshot):
                view = self.model.view_at(event)  # (b) checks what the view showed
                if view.seated:
                    self.shown.append((view.sid, view.pawns))
            if isinstance(event, TableNews) and event.kind is TableNewsKind.CLAIM_REFUSED:
                self.claim_refused = conn is self.try_conn and self.trying == "join"
        self.filed += [got.record for got in self.model.take_records()]
        self.flush_to(conn)
        if conn is self.try_conn:
            self._try_answer(conn)
        else:
            self._connected_decisions()
        if self.model.closed and conn is self.conn:
            if self.model.bye is ByeReason.TIMEOUT:
                self.link_lost("the host dropped the connection: it fell behind")
                return
            if self.model.dropped:
                self.link_lost("the host closed the connection")
                return
            self.conn = None  # the host said bye: nothing to reconnect to
            conn.close_by_client()
            self.model.connection_lost()
            self.gave_up = True
            self.ev.world.note("closed", self.name)
            return
        self._maybe_play()

    def _try_answer(self, conn: Conn) -> None:
        decisions = self.model.take_decisions()
        if self.model.connected:
            self.conn, self.try_conn = conn, None
            why, self.trying = self.trying, None
            self.host_at = (conn.server.addr, conn.server.port) if isinstance(
                conn.server, Laptop) else self.host_at
            self.ev.world.note("welcomed", self.name, why, conn.server.name, self.model.epoch)
            if why == "host":
                decisions = [*decisions, el.CloseStandby()]
            if why == "join":  # the table found: its journal is not resumed
                self.kept = None
                self.look_until = None
            self.recovering = False
            self._ensure_beat()
            self.carry_out(decisions)
            return
        if decisions:
            self.carry_out(decisions)
        if self.model.closed:
            self._try_failed(conn)

    def _try_failed(self, conn: Conn) -> None:
        if conn is not self.try_conn:
            return
        conn.close_by_client()
        why, self.trying, self.try_conn = self.trying, None, None
        refusal = self.model.refusal
        self.model.connection_lost()
        self.carry_out(self.model.take_decisions())
        if why == "join":
            self._join_refused(refusal)
            return
        if why == "host":
            self._host_try_failed(unreachable=False)
            return
        election, attempt = self.model.election, self.try_attempt
        if why == "candidate" and election is not None and attempt is not None:
            self.carry_out(election.failed(attempt, self.ev.world.now))
        self.step()

    def _join_refused(self, refusal: m.Refuse | None) -> None:
        """``GameClient.start``: a stored seat refused ``bad_token`` is forgotten and
        the hello sent again without it; another refusal that trying again will not
        mend ends the program, telling its player why, and so does a host this
        laptop refused (``GameClient.connect``: a claim at an epoch older than the
        one its seat file keeps, or out of turn).  The product resumes nothing by
        itself; the person of a laptop that crashed while it hosted the table then
        resumes it (README: "a laptop that had taken the table over resumes it the
        same way"), as when it is advertised nowhere (:meth:`restart`), unless the
        others play on without it (people in one room see it: a host of the table
        goes on, not paused, or showed the end, as it joined): resumed, its journal
        would be a second table behind theirs, paused for ever.  A claim refused as
        its host replayed on another port ends nothing yet: the table is looked for
        where the seat says it may be, for as long as a reconnect waits
        (``GameClient._past_replay``, :meth:`_look_on`)."""
        refused, self.claim_refused = self.claim_refused, False
        if self.look_until is not None:
            if refusal is not None and refusal.reason is RefuseReason.BAD_TOKEN:
                self.look_until = None  # the table's host forgot the seat: it ends
                self.ev.world.note("refused", self.name, refusal.reason.value)
                self.gave_up = True
                return
            self.later(TIMINGS.backoff_max, self._look_on)  # (any other refusal: on)
            return
        if refused and self.model.replay_refused and self.places:
            # its host replayed on another port: looked for where its seat says
            self.ev.world.note("refused a replay", self.name)
            self.look_until = self.ev.world.now + TIMINGS.reconnect_for
            self.refused_at = self.host_at
            self._look_on()
            return
        self.look_until = None
        if refused:
            self._refused_host()
            return
        if refusal is not None and refusal.reason is RefuseReason.BAD_TOKEN and (
                self.token is not None):  # fmt: skip
            self.ev.world.note("seat forgotten", self.name)
            self.token = None
            self._fresh_model()
        elif refusal is not None and refusal.reason not in JOIN_RETRY:
            self.ev.world.note("refused", self.name, refusal.reason.value)
            self.gave_up = True
            return
        self.later(2.0, self.find_table)

    def _refused_host(self) -> None:
        """The join ends on a claim it refused (its person is told why); see
        :meth:`_join_refused` for what the person does then."""
        self.ev.world.note("refused the host", self.name)
        if self.kept is not None and not self.others_play:
            self._resume()
            return
        self.gave_up = True

    def _look_on(self) -> None:
        """``GameClient._past_replay``: a round of the places its seat knows (never the
        replay), the first whose host listens tried; none by ``look_until``: the
        join ends as on any refused claim (:meth:`_join_refused`)."""
        if self.conn is not None or self.trying is not None or self.look_until is None:
            return
        for address, port in self.places:
            there = self.ev.at_address(address)
            if (address, port) == self.refused_at or there is None or not there.alive:
                continue
            host = there.host
            if (host is None or not host.listening or host.port != port or there.asleep
                    or not self.ev.net.reachable(self, there)):  # fmt: skip
                continue
            self.host_at = (address, port)
            self._open(there, "join", None)
            return
        if self.ev.world.now < self.look_until:
            self.later(TIMINGS.backoff_max, self._look_on)
            return
        self.look_until = None
        self._refused_host()

    def _try_timeout(self, conn: Conn, attempt: el.TryCandidate | None) -> None:
        if conn is not self.try_conn:
            return
        election = self.model.election
        why = self.trying
        conn.close_by_client()
        self.trying, self.try_conn = None, None
        self.model.connection_lost()
        if why == "candidate" and election is not None and attempt is not None:
            self.carry_out(election.silent(attempt, self.ev.world.now))
            self.step()
        elif why == "host":
            self._host_try_failed(unreachable=False)
        elif self.look_until is not None:
            self.later(TIMINGS.backoff_max, self._look_on)
        else:
            self.later(2.0, self.find_table)

    # -- the link to the host (net/client.py GameClient._pump) ----------------------------

    def _ensure_beat(self) -> None:
        if not self._beat:
            self._beat = True
            self.later(self._beat_every(), self._heartbeat)

    def _beat_every(self) -> float:
        election = self.model.election
        return self.watch.beat(None if election is None else election.order.delay)

    def _heartbeat(self) -> None:
        self._beat = False
        if self.conn is None or self.recovering:
            return
        now = self.ev.world.now
        election = self.model.election
        delay = None if election is None else election.order.delay
        silence = self.watch.silent(now, self.model.heard_at, delay=delay,
                                    here=self.model.hosted_here)
        if isinstance(silence, HostLost):
            self.link_lost("the host stopped answering")
            return
        self.model.quiet(now)  # its ping
        self.flush()
        self._ensure_beat()

    def _connected_decisions(self) -> None:
        decisions = self.model.take_decisions()
        if any(isinstance(d, el.TakeOver | el.TryCandidate) for d in decisions):
            self.link_lost("the host handed the table over", pending=decisions)
            return
        self.carry_out(decisions)

    def link_lost(self, reason: str, pending: list[el.Decision] | None = None) -> None:
        """``GameClient._run`` after its pump returned: the heir recovers."""
        conn, self.conn = self.conn, None
        if conn is not None:
            conn.close_by_client()
        self.model.connection_lost()
        self.ev.world.note("lost", self.name, reason)
        election = self.model.election
        if election is None:
            self.later(0.05, self.find_table)
            return
        self.recovering = True
        now = self.ev.world.now
        self.recovery = Recovery(election, TIMINGS, now)
        # recovery.recover: a bot or headless laptop (no ask_alone) is never asked to play
        # on alone (unless the evening has people who say yes); it can host (it has
        # a successor) unless the board of its game is missing
        election.may_ask = self.ev.ask_alone
        election.can_host = not self.model.board_missing
        election.host_port = None if self.host_at is None else self.host_at[1]
        self.carry_out([*(pending or []), *self.model.take_decisions(),
                        *election.host_lost(now, False)])
        self.later(BROWSE, self._browse, self.gen)
        self.step()

    def _browse(self, gen: int) -> None:
        """``GameClient._looking``: while the heir recovers, the table's adverts on the
        LAN (each honest host's, at its laptop's address now) are told to the election."""
        if not self.recovering or gen != self.gen:
            return
        for host in self.ev.hosts:
            there = host.lap
            if (host.rogue or not host.listening or host.dead or not there.alive
                    or not self.ev.net.reachable(self, there)):  # fmt: skip
                continue
            self.advert(host.epoch, there.addr, host.port)  # (told only while recovering)
        self.later(BROWSE, self._browse, gen)

    # -- the heir (net/recovery.py recover) -------------------------------------------------

    def step(self) -> None:
        """One turn of the heir's loop: try what the election waits on, the old host
        when due, else sleep until the election's next time."""
        recovery = self.recovery
        if not self.recovering or self.trying is not None or recovery is None:
            return
        now = self.ev.world.now
        step = recovery.next(now, hosted_here=self.model.hosted_here)
        if isinstance(step, el.TryCandidate):
            self._try_candidate(step)
            return
        if isinstance(step, el.GiveUp):
            self.recovering = False
            self.gave_up = True
            self.ev.world.note("gave up", self.name)
            return
        if isinstance(step, TryHost):
            self._try_host()
            return
        assert isinstance(step, Pause)
        when = step.until
        if self._tick_at is not None and self._tick_at <= when and self._tick_at > now:
            return
        self._tick_at = when
        self.later(when - now, self._election_tick, when)

    def _election_tick(self, when: float) -> None:
        if self._tick_at != when:
            return
        self._tick_at = None
        election = self.model.election
        if election is None or not self.recovering:
            return
        now = self.ev.world.now
        recovery = self.recovery
        assert recovery is not None
        standby = self.standby  # (recovery.recover: the votes before the time)
        votes = None if standby is None else standby.votes(now)
        behind = standby is not None and standby.behind
        self.carry_out(recovery.woke(now, votes, behind))
        self.step()

    def _votes(self) -> list[el.Decision]:
        election = self.model.election
        if self.standby is None or election is None:
            return []
        now = self.ev.world.now
        return election.standby_votes(self.standby.votes(now), now, self.standby.behind)

    def _try_host(self) -> None:
        """Try the old host once (``recovery._try_host``): refused at once where nobody
        listens, no answer in time where the link is cut or the laptop sleeps."""
        there = None if self.host_at is None else self.ev.at_address(self.host_at[0])
        self.trying = "host"
        if there is None or not there.alive:
            self.later(0.002, self._host_refused)
        elif not self.ev.net.reachable(self, there) or there.asleep:
            self.later(ATTEMPT_TIMEOUT, self._host_refused)
        elif there.host is None or not there.host.listening or self.host_at is None or (
                there.port != self.host_at[1]):  # fmt: skip
            self.later(2 * self.ev.net.delay(self.name, there.name), self._host_refused)
        else:
            self.trying = None
            self._open(there, "host", None)

    def _host_refused(self) -> None:
        if self.trying != "host" or self.try_conn is not None:
            return
        self.trying = None
        self._host_try_failed(unreachable=False)

    def _host_try_failed(self, unreachable: bool) -> None:
        election = self.model.election
        now = self.ev.world.now
        if self.recovery is not None:
            self.recovery.host_failed(now)
        if election is not None and self.recovering:
            self.carry_out([*self.model.take_decisions(), *election.host_lost(now, unreachable)])
        self.step()

    def _try_candidate(self, attempt: el.TryCandidate) -> None:
        """``GameClient.try_candidate``: hello at the candidate's standby (a vote), or
        at the host now listening there."""
        election = self.model.election
        assert election is not None
        for address in attempt.addrs:
            there = self.ev.at_address(address)
            if there is None or not there.alive or there.port != attempt.port:
                continue
            if not self.ev.net.reachable(self, there):
                self.trying = "candidate"
                self.later(ATTEMPT_TIMEOUT, self._candidate_failed, attempt)
                return
            if there.host is not None and there.host.listening:
                self._open(there, "candidate", attempt)
                return
            self.trying = "candidate"
            self.model.join(self.ev.world.now, attempt=attempt)
            self.later(2 * self.ev.net.delay(self.name, there.name), self._standby_answer,
                       there, attempt)
            return
        self.trying = "candidate"
        self.later(0.002, self._candidate_failed, attempt)  # refused: nobody listens there

    def _candidate_failed(self, attempt: el.TryCandidate) -> None:
        if self.trying != "candidate" or self.try_conn is not None:
            return
        self.trying = None
        election = self.model.election
        if election is not None:
            self.carry_out(election.failed(attempt, self.ev.world.now))
        self.step()

    def _standby_answer(self, there: Laptop, attempt: el.TryCandidate) -> None:
        """The standby listener's answer to our hello (``net/standby.py``)."""
        if self.trying != "candidate" or self.try_conn is not None:
            return
        if not there.alive or not self.ev.net.reachable(self, there):
            self.trying = None
            self._candidate_failed_now(attempt)
            return
        if there.asleep:  # the kernel took the connection; nobody answers
            self.later(ATTEMPT_TIMEOUT, self._silent, attempt)
            return
        if there.host is not None and there.host.listening:
            self.trying = None
            self._open(there, "candidate", attempt)
            return
        session = HostSession(pin_key=None)
        greeting = session.receive_data(self.model.data_to_send())[0]
        standby = there.standby
        if standby is None:
            session.refuse(RefuseReason.BUSY, IDLE_TEXT)
        else:
            now = self.ev.world.now
            if isinstance(greeting, m.Spectate):
                answer = standby.spectate(now)
            else:
                assert isinstance(greeting, m.Hello)
                answer = standby.hello(greeting.token, greeting.versions, now, greeting.seen)
            if isinstance(answer, Host):
                session.refuse(RefuseReason.BUSY, MOVING)
            else:
                session.refuse(answer.reason, answer.text)
            told = isinstance(answer, Host) or (isinstance(answer, Wait) and answer.counted)
            if told or (isinstance(answer, TurnAway) and answer.older):
                there.handle(there.voted)
        self.trying = None
        self.model.receive_data(session.data_to_send(), self.ev.world.now)
        self.model.connection_lost()
        self.carry_out(self.model.take_decisions())
        self.step()

    def _candidate_failed_now(self, attempt: el.TryCandidate) -> None:
        election = self.model.election
        if election is not None:
            self.carry_out(election.failed(attempt, self.ev.world.now))
        self.step()

    def _silent(self, attempt: el.TryCandidate) -> None:
        if self.trying != "candidate" or self.try_conn is not None:
            return
        self.trying = None
        election = self.model.election
        if election is not None:
            self.carry_out(election.silent(attempt, self.ev.world.now))
        self.step()

    def voted(self) -> None:
        """A vote reached this laptop's standby (``Heir._poke`` then ``recovery._votes``)."""
        self.carry_out(self._votes())
        self.step()

    # -- decisions ------------------------------------------------------------------------

    def carry_out(self, decisions: list[el.Decision]) -> None:
        queue = list(decisions)
        while queue:
            d = queue.pop(0)
            self.ev.world.note("decide", self.name, d)
            match d:
                case el.OpenStandby():
                    self._open_standby()
                case el.CloseStandby():
                    self.standby = None
                case el.TakeOver(epoch=epoch, alone=alone):
                    self._take_over(epoch, alone)
                case el.Follow():
                    pass
                case el.AskAlone():
                    if self.ev.ask_alone:  # the person says yes a moment later
                        self.later(1.0, self._agreed)
                case el.RefuseHost():
                    pass  # the model said bye: the try ends with its close
                case el.GiveUp():
                    self.recovering = False
                    self.gave_up = True
                case _:
                    pass
            queue += self.model.take_decisions()

    def _agreed(self) -> None:
        """``recovery._answered``: the person's yes is told to the election."""
        election = self.model.election
        if election is not None and self.recovering:
            self.carry_out(election.alone_agreed(self.ev.world.now))
            self.step()

    def _open_standby(self) -> None:
        succession, me = self.model.succession, self.model.pid
        if succession is None or me is None or self.model.board_missing:
            return
        try:
            self.standby = Standby.of(succession, me, self.model.newest_state)
        except ValueError:
            self.standby = None

    def _take_over(self, epoch: int, alone: bool) -> None:
        """``Heir.take_over`` and ``start_table``: host from what the client knows."""
        knowledge = self.model.knowledge()
        if knowledge is None:
            self.recovering = False
            self.gave_up = True
            return
        if alone:  # a game of its own under a new table id (Heir.take_over)
            own = replace(knowledge.succession, table=f"{TID}alone{self.n}")
            knowledge = replace(knowledge, succession=own)
        if self.standby is not None:
            self.standby.alone()
        now = self.ev.world.now
        parent = self.ev.host_of(self.model.succession)
        table = build_table(knowledge, epoch=epoch, now=now, seed=self.bot.getrandbits(63),
                            wall=EPOCH + now)
        succession = knowledge.succession
        options = replace(
            self.ev.host_options, name=self.name, epoch=epoch, table_id=knowledge.table,
            takeover_delay=float(succession.delay), pin_key=pin_verifier(knowledge),
            seat=knowledge.pid,
        )
        self.ev.monitor.takeover(self, knowledge, table, epoch, alone)
        host = HostShell(self.ev, self, table, options, label=f"{self.name}@{epoch}",
                         parent=parent, journal=table.history)  # (begun by the takeover)
        host.core.expect_laptops([lap for lap in succession.order if lap.pid != knowledge.pid])
        host.run([])
        self.host = host
        self.took_over += 1
        self.ev.hosts.append(host)
        self.ev.world.note("took over", self.name, epoch, alone)
        self.recovering = False
        self.conn = None
        self.host_at = (self.addr, self.port)
        self._open(self, "join_own", None)

    # -- playing --------------------------------------------------------------------------

    def _maybe_play(self) -> None:
        offer = self.model.moves
        if offer is None or not self.model.connected or self._play_for is offer:
            return
        self._play_for = offer
        self.later(self.bot.uniform(0.2, 1.5), self._play, offer)

    def _play(self, offer: object) -> None:
        model = self.model
        if model.moves is not offer or not model.connected or model.moves is None:
            return
        model.play(self.bot.choice(model.moves.moves).id)
        self.flush()

    # -- the table's adverts (net/client.py GameClient._looking) ----------------------

    def advert(self, epoch: int, addr: str, port: int) -> None:
        """mDNS shows the table at ``epoch`` at ``addr``: told to the election while
        the heir looks for a host."""
        election = self.model.election
        if not self.recovering or election is None:
            return
        self.carry_out(election.advert(epoch, (addr,), port, self.ev.world.now))
        self.step()
