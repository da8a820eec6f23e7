"""The simulator's world: one fake clock, one event queue, one seeded ``random.Random``,
and a fake network of ordered byte pipes between laptops.

Everything that happens in an evening is an event on :class:`World`'s queue, run in
time order (ties in the order they were queued); nothing reads the real clock, opens a
socket or starts a thread, so one seed gives one trace.  :class:`Net` knows which
laptops can reach which (partitions, a laptop cut off), each link's delay, and the
faults that drop connections or delay them; :class:`Conn` is one TCP connection as
two :class:`Pipe` (one each way) that keep their bytes in order, hold them while the
link is cut or the receiver sleeps (TCP retransmits), and lose them when a side
crashed or the link reset the connection.

It knows nothing of the game or of succession (``laptop`` and ``invariants`` do).
"""

from __future__ import annotations

import heapq
import random
from collections import Counter, deque
from collections.abc import Callable
from typing import Any, Protocol

CLOSE = b""  # the end of a pipe's stream (a FIN, or a reset)


class Node(Protocol):
    """What the network needs of a laptop."""

    name: str
    alive: bool

    @property
    def asleep(self) -> bool: ...


class World:
    """The clock, the event queue and the one random generator of an evening."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.now = 0.0
        self._queue: list[tuple[float, int, Callable[..., object], tuple[Any, ...]]] = []
        self._seq = 0
        self.steps = 0
        self.trace: list[tuple[object, ...]] = []
        self.after_step: Callable[[], None] | None = None

    def at(self, when: float, fn: Callable[..., object], *args: Any) -> None:
        self._seq += 1
        heapq.heappush(self._queue, (max(when, self.now), self._seq, fn, args))

    def after(self, delay: float, fn: Callable[..., object], *args: Any) -> None:
        now = self.now
        self._seq += 1
        heapq.heappush(self._queue, (max(now + delay, now), self._seq, fn, args))

    def note(self, *what: object) -> None:
        """One line of the trace (what a replay must repeat exactly)."""
        self.trace.append((round(self.now, 6), *what))

    def run(self, until: float, done: Callable[[], bool] | None = None) -> None:
        """Run events up to ``until`` (or until ``done()``), checking after each."""
        queue, pop = self._queue, heapq.heappop
        after_step = self.after_step
        while queue and queue[0][0] <= until:
            when, _, fn, args = pop(queue)
            self.now = when
            fn(*args)
            self.steps += 1
            if after_step is not None:
                after_step()
            if done is not None and done():
                return
        self.now = max(self.now, until)


class Net:
    """Who reaches whom, and how fast.  ``cut`` counts, for each pair of laptop names
    that cannot reach each other, the faults that cut it; ``extra`` a link's added
    delay; ``lossy`` a link whose connections reset (with that chance per delivery)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.base: dict[frozenset[str], float] = {}
        # (counted: a link two faults cut, a partition over a laptop cut off, is back
        # only once both healed)
        self.cut: Counter[frozenset[str]] = Counter()
        self.extra: dict[frozenset[str], float] = {}
        self.lossy: dict[frozenset[str], float] = {}
        self.blocked: list[Pipe] = []
        self.resets = 0
        self._links: dict[tuple[str, str], frozenset[str]] = {}

    def link(self, a: str, b: str) -> frozenset[str]:
        key = self._links.get((a, b))
        if key is None:
            key = self._links[a, b] = frozenset((a, b))
        return key

    def delay(self, a: str, b: str) -> float:
        if a == b:
            return 0.0005
        key = self.link(a, b)
        uniform = self.world.rng.uniform
        # (a draw at every delivery, the link's base kept or not: the seeds' traces)
        base = self.base.setdefault(key, uniform(0.001, 0.02))
        jitter = uniform(0.0, base)
        return base + jitter + self.extra.get(key, 0.0)

    def reachable(self, a: Node, b: Node) -> bool:
        """Whether a packet from ``a`` gets to ``b`` now (b may still sleep)."""
        if not (a.alive and b.alive):
            return False
        return a.name == b.name or self.cut[self.link(a.name, b.name)] <= 0

    def kick(self) -> None:
        """The network changed (a heal, a wake): blocked pipes try again."""
        blocked, self.blocked = self.blocked, []
        for pipe in blocked:
            pipe.blocked = False
            pipe.schedule()


class Pipe:
    """One direction of a connection: bytes from ``src`` to ``dst``, in order."""

    def __init__(self, net: Net, src: Node, dst: Node, deliver: Callable[[bytes], None]) -> None:
        self.net = net
        self.src = src
        self.dst = dst
        self.deliver = deliver
        self.items: deque[bytes] = deque()
        self.busy = False
        self.blocked = False
        self.dead = False

    def push(self, data: bytes) -> None:
        if self.dead:
            return
        self.items.append(data)
        self.schedule()

    def schedule(self) -> None:
        if self.busy or self.blocked or not self.items or self.dead:
            return
        self.busy = True
        self.net.world.after(self.net.delay(self.src.name, self.dst.name), self._arrive)

    def _arrive(self) -> None:
        self.busy = False
        if self.dead or not self.items:
            return
        if not self.dst.alive:
            self.dead = True
            self.items.clear()
            return
        if not self.net.reachable(self.src, self.dst) or self.dst.asleep:
            self.blocked = True
            self.net.blocked.append(self)
            return
        data = self.items.popleft()
        if data == CLOSE:
            self.dead = True
            self.items.clear()
        self.deliver(data)
        self.schedule()


class Conn:
    """A connection from a client laptop to a server (a host shell on some laptop).
    ``on_client`` and ``on_server`` take the bytes (``CLOSE``: the other side closed)."""

    def __init__(
        self, net: Net, client: Node, server: Node,
        on_client: Callable[[bytes], None], on_server: Callable[[bytes], None],
    ) -> None:
        self.net = net
        self.client = client
        self.server = server
        self.up = Pipe(net, client, server, self._up)
        self.down = Pipe(net, server, client, self._down)
        self.on_client = on_client
        self.on_server = on_server
        self.client_open = True  # the client side has not closed it
        self.server_open = True

    def _up(self, data: bytes) -> None:
        if self._lost(self.up):
            return
        if data == CLOSE:
            self.server_open = False
        self.on_server(data)

    def _down(self, data: bytes) -> None:
        if self._lost(self.down):
            return
        if data == CLOSE:
            self.client_open = False
        self.on_client(data)

    def _lost(self, pipe: Pipe) -> bool:
        """A lossy link resets the connection instead of this delivery."""
        lossy = self.net.lossy
        if not lossy:
            return False
        chance = lossy.get(self.net.link(self.client.name, self.server.name), 0.0)
        if chance and self.client.name != self.server.name and self.net.world.rng.random() < chance:
            self.net.resets += 1
            self.reset()
            return True
        return False

    def to_server(self, data: bytes) -> None:
        if data and self.client_open:
            self.up.push(data)

    def to_client(self, data: bytes) -> None:
        if data and self.server_open:
            self.down.push(data)

    def close_by_client(self) -> None:
        if self.client_open:
            self.client_open = False
            self.up.push(CLOSE)

    def close_by_server(self) -> None:
        if self.server_open:
            self.server_open = False
            self.down.push(CLOSE)

    def reset(self) -> None:
        """Both ends learn the connection is gone (each when its side next runs)."""
        for pipe, side_open, tell in (
            (self.down, self.client_open, self.on_client),
            (self.up, self.server_open, self.on_server),
        ):
            pipe.items.clear()
            pipe.dead = True
            if side_open:
                self.net.world.after(0.001, _tell_reset, pipe, tell)
        self.client_open = self.server_open = False


def _tell_reset(pipe: Pipe, tell: Callable[[bytes], None]) -> None:
    if pipe.dst.alive:
        tell(CLOSE)
