"""One simulated evening: 2-4 laptops at a table, a bot playing on each, the faults its
seed draws, every invariant watched (``invariants``), and what happened in numbers.

``Evening(seed).run()`` returns an :class:`Outcome`; the same seed gives the same
trace (``world.trace``), so a failing seed replays exactly.  Seat tokens are drawn from
the evening's generator while it runs (the table's own come from ``secrets``).
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import sorry_lan.authority.table as table_module
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.authority.takeover import build_table
from sorry_lan.succession.knowledge import Knowledge
from sorry_lan.wire import messages as m

from . import faults as fault_classes
from . import kept
from .invariants import Monitor, Violation
from .kept import Agreement
from .laptop import TID, HostShell, Laptop
from .shortcuts import shortcuts
from .world import Conn, Net, World

D = 3.0  # the takeover delay
SETTLE = 900.0  # seconds after the faults heal that every game must have ended by
MAX_STEPS = 400_000


@dataclass
class Outcome:
    seed: int
    laptops: int
    faults: list[str]
    takeovers: int
    violations: list[Violation]
    steps: int
    ended_at: float
    over: bool
    trace_digest: str
    trace: list[tuple[object, ...]] = field(repr=False, default_factory=list)
    # what the laptops kept of the evening, set side by side (``sim.kept``), if asked
    agreement: Agreement | None = None


class _Secrets:
    """``secrets`` for the table module, drawn from the evening's generator."""

    def __init__(self, world: World) -> None:
        self.world = world

    def token_bytes(self, n: int) -> bytes:
        return self.world.rng.randbytes(n)

    def randbits(self, k: int) -> int:
        return self.world.rng.getrandbits(k)


@contextlib.contextmanager
def seeded_tokens(world: World) -> Iterator[None]:
    names = vars(table_module)
    kept = names["secrets"]
    names["secrets"] = _Secrets(world)
    try:
        yield
    finally:
        names["secrets"] = kept


class Evening:
    def __init__(self, seed: int, faults: Sequence[str] | None = None, *,
                 laptops: int | None = None, count: int | None = None,
                 ask_alone: bool = False, records: bool = False) -> None:  # fmt: skip
        self.world = World(seed)
        self.records = records  # at the end, compare what each laptop kept (no draw)
        # a person at every laptop who says yes to playing on alone (``join``'s
        # ask_alone): only to show that (c) catches a lone takeover; bots never ask
        self.ask_alone = ask_alone
        rng = self.world.rng
        self.net = Net(self.world)
        self.monitor = Monitor(self)
        self.hosts: list[HostShell] = []
        self.conns: list[Conn] = []
        self.rogues: list[Laptop] = []
        self.on_host_ran: list[Callable[[HostShell], None]] = []
        self.dead_after = 20.0
        n = laptops if laptops is not None else rng.choice((2, 3, 4))
        self.grace = rng.choice((10.0, 20.0, 30.0))
        self.host_options = HostOptions(table_id=TID, takeover_delay=D, stay=True)
        names = list(fault_classes.CLASSES) if faults is None else list(faults)
        k = count if count is not None else rng.randint(1, 3)
        self.faults = [rng.choice(names) for _ in range(k)] if names else []
        self.n = n
        self.calm_at = 0.0  # when the last fault planned is over
        self.armed = False  # a fault waits for the game (winkill)
        self._seed_table = rng.getrandbits(63)

    # -- the world's questions ------------------------------------------------------------

    def at_address(self, addr: str) -> Laptop | None:
        for lap in (*self.laptops, *self.rogues):
            if lap.addr == addr:
                return lap
        return None

    def conns_of(self, lap: Laptop) -> list[Conn]:
        if len(self.conns) > 64:
            self.conns = [c for c in self.conns if c.client_open or c.server_open]
        return [c for c in self.conns if (c.client is lap or c.server is lap)
                and (c.client_open or c.server_open)]

    def advertised(self, lap: Laptop) -> HostShell | None:
        """The host a (re)started laptop finds: the newest epoch advertised that it reaches."""
        live = [h for h in self.hosts if h.listening and h.lap.alive and not h.dead
                and self.net.reachable(lap, h.lap)]
        return max(live, key=lambda h: (h.epoch, h.started), default=None)

    def goes_on_without(self, lap: Laptop) -> bool:
        """Whether the game goes on at another laptop's honest host (live and awake,
        its game under way and not paused, or over): what the people in the room see
        (a laptop asleep shows nothing going on)."""
        for h in self.hosts:
            game = h.table.game
            if (h.rogue or not h.live or h.lap is lap or not h.lap.alive or h.lap.asleep
                    or game is None):  # fmt: skip
                continue
            if game.over or not h.core.paused:
                return True
        return False

    def host_of(self, succession: m.Succession | None) -> HostShell | None:
        """The host whose succession a laptop followed (the parent of its takeover)."""
        if succession is None:
            return None
        found = [h for h in self.hosts if h.epoch == succession.epoch
                 and h.core.heralds.seat == succession.host]
        honest = [h for h in found if not h.rogue]
        pick = honest or found
        return pick[-1] if pick else None

    def calm(self, at: float) -> None:
        self.calm_at = max(self.calm_at, at)

    def host_ran(self, host: HostShell) -> None:
        for hook in list(self.on_host_ran):
            hook(host)

    def rogue(self, knowledge: Any, epoch: int) -> Laptop:
        """A rogue laptop hosting the table from ``knowledge`` at ``epoch``."""
        assert isinstance(knowledge, Knowledge)
        lap = Laptop(self, 90 + len(self.rogues), f"rogue{len(self.rogues)}")
        self.rogues.append(lap)
        built = max(epoch, knowledge.succession.epoch + 1)  # (an old epoch: claimed only)
        table = build_table(knowledge, epoch=built, now=self.world.now,
                            seed=self.world.rng.getrandbits(63))
        host = HostShell(self, lap, table, self.host_options.__class__(
            table_id=knowledge.table, epoch=epoch, takeover_delay=D, seat=knowledge.pid,
            stay=True,
        ), label=f"{lap.name}@{epoch}", rogue=True)
        lap.host = host
        self.hosts.append(host)
        return lap

    # -- the evening ------------------------------------------------------------------------

    def _setup(self) -> None:
        n = self.n
        table = Table(TableConfig(seats=n, auto_start=True, seed=self._seed_table,
                                  grace=self.grace, bot_level="random"))
        player, token = table.join(None, "lap0")
        table.owner = player.pid
        self.laptops = [Laptop(self, 0, "lap0", token=token, own_host=True)]
        self.laptops += [Laptop(self, i, f"lap{i}") for i in range(1, n)]
        first = self.laptops[0]
        host = HostShell(self, first, table, self.host_options, label="lap0@1")
        first.host = host
        self.hosts.append(host)
        for i, lap in enumerate(self.laptops):
            lap.host_at = (first.addr, first.port)
            lap.later(0.01 * (i + 1), lap._open, first, "join", None)
        for name in self.faults:
            fault_classes.CLASSES[name](self)

    def done(self) -> bool:
        if self.world.steps >= MAX_STEPS:
            return True
        if self.world.now < self.calm_at or self.on_host_ran:
            return False
        final = self.monitor.final_host()
        if final is None or final.table.game is None or not final.table.game.over:
            return False
        return all(lap.model.over is not None or lap.gave_up
                   for lap in self.laptops if lap.alive)

    def run(self) -> Outcome:
        world = self.world
        with seeded_tokens(world), shortcuts():
            self._setup()
            world.after_step = self.monitor.step
            world.run(fault_classes.HEALED_BY + SETTLE, done=self.done)
            world.note("end")
            self.monitor.finish()
        agreement = kept.tally(self) if self.records else None
        final = self.monitor.final_host()
        digest = hashlib.sha256(repr(world.trace).encode()).hexdigest()[:16]
        return Outcome(
            seed=world.seed, laptops=self.n, faults=list(self.faults),
            takeovers=sum(lap.took_over for lap in self.laptops),
            violations=list(self.monitor.violations), steps=world.steps,
            ended_at=world.now,
            over=bool(final and final.table.game and final.table.game.over),
            trace_digest=digest, trace=world.trace, agreement=agreement,
        )


def run_evening(seed: int, faults: Sequence[str] | None = None, **kw: Any) -> Outcome:
    return Evening(seed, faults, **kw).run()
