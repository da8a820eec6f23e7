"""An in-memory host and clients (after h11's ConnectionPair), on a fake clock.

:class:`Pair` wires a :class:`~sorry_lan.authority.core.HostCore` to any number of
client ends: what the core sends reaches the client at once, what a client queues
reaches the core on :meth:`Pair.pump`, a ``Think`` is decided on the spot, journal
records are kept in :attr:`Pair.journal`, and time moves only when the test says
(:meth:`Pair.advance`, which runs every wake-up the core asks for on the way).

A client end is anything with ``receive_data(data, now)`` and ``data_to_send()``
(:class:`ClientEnd`); :class:`SessionClient` is one built on the wire
:class:`~sorry_lan.wire.session.ClientSession` that keeps every message it was handed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from sorry_lan.authority import effects as fx
from sorry_lan.authority.core import HostCore
from sorry_lan.authority.electorate import Laptop
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules import Phase
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import Decoder, encode
from sorry_lan.wire.limits import SOFTWARE, SUPPORTED_VERSIONS
from sorry_lan.wire.session import ClientSession

M = TypeVar("M", bound=m.Message)

EPOCH = 1_790_000_000.0  # the fake time of day at clock 0 (a game record's ``t``)


class ClientEnd(Protocol):
    """What the pair needs of a client: bytes in (with the time), bytes out.  The wire
    session wrapped below is one; the client model (``sorry_lan.client``) is another:
    whatever ``receive_data`` returns (messages, events) the pair ignores."""

    def receive_data(self, data: bytes, now: float) -> object: ...

    def data_to_send(self) -> bytes: ...


class SessionClient:
    """A client end on a :class:`ClientSession`: :attr:`inbox` holds every message
    the session handed on, :attr:`raw` every byte received."""

    def __init__(
        self, name: str, *, token: bytes | None = None, spectate: bool = False,
        pin: str | None = None, versions: tuple[int, ...] = SUPPORTED_VERSIONS,
    ) -> None:
        self.session = ClientSession(name, token=token, spectate=spectate, pin=pin,
                                     versions=versions)
        self.inbox: list[m.Message] = []
        self.raw = bytearray()

    def receive_data(self, data: bytes, now: float) -> list[m.Message]:
        self.raw += data
        got = self.session.receive_data(data)
        self.inbox += got
        return got

    def data_to_send(self) -> bytes:
        return self.session.data_to_send()

    def send(self, msg: m.Message) -> None:
        self.session.send(msg)

    def all(self, kind: type[M]) -> list[M]:
        return [x for x in self.inbox if isinstance(x, kind)]

    def last(self, kind: type[M]) -> M:
        found = self.all(kind)
        assert found, f"no {kind.__name__} received"
        return found[-1]

    def take(self) -> list[m.Message]:
        """Every message received since the last take."""
        got, self.inbox = self.inbox, []
        return got

    @property
    def pid(self) -> int | None:
        return self.session.pid

    @property
    def token(self) -> bytes | None:
        return self.session.token


class RawClient:
    """A client end that sends whatever frames a test wants (no session checks)."""

    def __init__(self) -> None:
        self.decoder = Decoder()
        self.inbox: list[m.Message] = []
        self.out = bytearray()

    def receive_data(self, data: bytes, now: float) -> list[m.Message]:
        got = self.decoder.feed(data)
        self.inbox += got
        return got

    def data_to_send(self) -> bytes:
        data = bytes(self.out)
        self.out.clear()
        return data

    def send(self, msg: m.Message) -> None:
        self.out += encode(msg)


def hello(name: str, token: bytes | None = None) -> m.Hello:
    return m.Hello(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name=name, token=token)


def spectate(name: str) -> m.Spectate:
    return m.Spectate(versions=SUPPORTED_VERSIONS, software=SOFTWARE, name=name)


C = TypeVar("C", bound=ClientEnd)


class Pair:
    """A core over ``table`` (a fresh lobby if None) and its clients."""

    def __init__(
        self, table: Table | None = None, options: HostOptions | None = None, *,
        port: int = 4242, journalled: bool = True, expect: Sequence[Laptop] = (),
    ) -> None:
        self.now = 0.0
        self.table = table if table is not None else Table(TableConfig())
        self.core = HostCore(self.table, options, wall=lambda: EPOCH + self.now,
                             journalled=journalled)
        self.clients: dict[int, ClientEnd] = {}
        self.addresses: dict[int, str] = {}
        self.open: set[int] = set()  # connections neither side closed
        self.lingers: dict[int, float | None] = {}  # closed by the host: its linger
        self.paused: dict[int, float] = {}  # cid -> until when the host reads nothing
        self.journal: list[dict[str, object]] = []
        self.summaries: list[fx.TableSummary] = []
        self.roster_changes = 0
        self.stops = 0
        self.listening = True
        self.thinks: list[fx.Think] = []  # every fx.Think asked for
        self.hold_thinking = False  # True: fx.Think waits in :attr:`held` for the test
        self.held: list[fx.Think] = []
        self.effects: list[fx.Effect] = []  # everything, in order
        self.probes: list[tuple[float, fx.Probe]] = []  # (when, probe) asked for
        self.refuted: list[fx.Refute] = []
        self._later: list[Callable[[], list[fx.Effect]]] = []
        self._next_cid = 1
        self.core.expect_laptops(expect)  # (as ``net.hosted`` does, before it serves)
        self.run(self.core.start(port, self.now))

    # -- connections -----------------------------------------------------------------

    def connect(self, client: C, address: str = "10.0.0.2") -> tuple[int, C]:
        cid = self._next_cid
        self._next_cid += 1
        self.clients[cid] = client
        self.addresses[cid] = address
        self.open.add(cid)
        self.run(self.core.opened(cid, address, self.now))
        return cid, client

    def join(self, name: str, address: str = "10.0.0.2", **kw: object) -> tuple[int, SessionClient]:
        """Connect a :class:`SessionClient` and greet (``kw``: its options)."""
        cid, client = self.connect(SessionClient(name, **kw), address)  # type: ignore[arg-type]
        client.session.join()
        self.pump()
        return cid, client

    def lose(self, cid: int) -> None:
        """The client's connection goes (its process died, the network went)."""
        self.open.discard(cid)
        self.run(self.core.closed(cid, self.now))

    def feed(self, cid: int, data: bytes) -> None:
        """Deliver ``data`` from connection ``cid`` to the core, now."""
        self.run(self.core.received(cid, data, self.now))

    def pump(self) -> None:
        """Deliver what every client queued, until nobody has anything more to say (a
        connection the host paused is not read until its pause is over)."""
        moved = True
        while moved:
            moved = False
            for cid, client in list(self.clients.items()):
                if cid not in self.open or self.paused.get(cid, -1.0) > self.now:
                    continue
                data = client.data_to_send()
                if data:
                    moved = True
                    self.feed(cid, data)

    # -- time ------------------------------------------------------------------------

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass, running each wake-up the core asks for on the way."""
        target = self.now + seconds
        for _ in range(100_000):
            wake = self.core.next_wakeup()
            if wake is None or wake > target:
                break
            self.now = max(self.now, wake)
            self.run(self.core.tick(self.now))
            self.pump()
        else:
            raise AssertionError("the core keeps asking to wake up at once")
        self.now = target
        self.pump()

    # -- the shell's part ---------------------------------------------------------------

    def run(self, effects: list[fx.Effect]) -> None:
        """Carry out ``effects`` as the shell would (durability is trivially kept: the
        records are in :attr:`journal` before any later output is delivered)."""
        self._later.append(lambda: effects)
        if len(self._later) > 1:
            return  # being run: these go after
        while self._later:
            for effect in self._later[0]():
                self._do(effect)
            self._later.pop(0)

    def _do(self, effect: fx.Effect) -> None:
        self.effects.append(effect)
        if isinstance(effect, fx.Send):
            if effect.cid in self.open:
                self.clients[effect.cid].receive_data(effect.data, self.now)
        elif isinstance(effect, fx.Close):
            if effect.cid in self.open:
                self.open.discard(effect.cid)
                self.lingers[effect.cid] = effect.linger
                cid = effect.cid
                self._later.append(lambda: self.core.closed(cid, self.now))
        elif isinstance(effect, fx.Append):
            self.journal.append(effect.record)
        elif isinstance(effect, fx.PauseInput):
            self.paused[effect.cid] = self.now + effect.seconds
        elif isinstance(effect, fx.Think):
            self.thinks.append(effect)
            if self.hold_thinking:
                self.held.append(effect)
            else:
                self._later.append(lambda: self.decide(effect))
        elif isinstance(effect, fx.SummaryChanged):
            self.summaries.append(effect.summary)
        elif isinstance(effect, fx.RosterChanged):
            self.roster_changes += 1
        elif isinstance(effect, fx.StopListening):
            self.listening = False
        elif isinstance(effect, fx.Stop):
            self.stops += 1
        elif isinstance(effect, fx.Probe):
            self.probes.append((self.now, effect))
        elif isinstance(effect, fx.Refute):
            self.refuted.append(effect)

    def decide(self, think: fx.Think) -> list[fx.Effect]:
        """Run a ``Think`` as the bot thread would and hand its answer to the core."""
        try:
            move = think.turn.decide()
        except Exception as exc:
            return self.core.bot_failed(think.ticket, exc, self.now)
        return self.core.bot_decided(think.ticket, move, self.now)

    def release(self) -> None:
        """Decide every held ``Think`` now."""
        held, self.held = self.held, []
        for think in held:
            self.run(self.decide(think))
        self.pump()

    def phase_now(self) -> Phase:
        """The table's phase now (a call: what a test asserted before does not narrow it)."""
        return self.table.phase

    # -- playing -----------------------------------------------------------------------

    def play_first_moves(self, clients: list[SessionClient], rounds: int | None = None) -> None:
        """Each client whose session holds an offer answers it with its first move,
        until no offer is left (the game over, or waiting for someone else), or for
        ``rounds`` rounds."""
        for _ in range(100_000 if rounds is None else rounds):
            movers = [c for c in clients if c.session.moves is not None and not c.session.closed]
            if not movers:
                return
            for client in movers:
                offer = client.session.moves
                if offer is not None and offer.sid == client.session.sid:
                    client.session.choose(offer.moves[0].id)
                else:
                    client.session.moves = None
            self.pump()
        if rounds is None:
            raise AssertionError("the game did not end")

    def play_models(self, models: list[Any], turns: int | None = None, pick: int = 0) -> None:
        """Each client model (``sorry_lan.client.ClientModel``) holding an offer plays
        its option ``pick`` (0: the first, -1: the last), ``turns`` times or until no
        offer is left."""
        for _ in range(100_000 if turns is None else turns):
            movers = [x for x in models if x.moves is not None and x.connected]
            if not movers:
                return
            for x in movers:
                x.play(x.moves.moves[pick].id)
            self.pump()
