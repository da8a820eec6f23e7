"""The faults of an evening, drawn from its seed: each class is a function that plans
one fault on the world's queue (when it starts, and when it heals).

Classes (``--faults``): ``delay``, ``drop`` (a link resets its connections),
``partition`` (a split of the laptops, 2|2 among them), ``cutoff`` (one laptop cut
off from the others for longer than G), ``crash`` (a laptop dies and restarts with
its seat), ``sleep`` (a laptop's clock and timers stop a while), ``move`` (a laptop's
address changes), ``winkill`` (the host killed at the winning move), ``forge`` (a
rogue laptop replays an old succession, or claims the next epoch and vanishes; half
the time the host dies as it rises, so the laptops are looking for a host).
Every fault heals before :data:`HEALED_BY` seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .laptop import HostShell, Laptop

if TYPE_CHECKING:
    from .evening import Evening

HEALED_BY = 400.0  # seconds into the evening: every fault is over by then


def _pair(ev: Evening) -> tuple[Laptop, Laptop]:
    a, b = ev.world.rng.sample(ev.laptops, 2)
    return a, b


def _window(ev: Evening, longest: float) -> tuple[float, float]:
    start = ev.world.rng.uniform(5.0, 100.0)
    length = min(ev.world.rng.uniform(1.0, longest), HEALED_BY - start - 1)
    ev.calm(start + length)
    return start, length


def delay(ev: Evening) -> None:
    a, b = _pair(ev)
    start, length = _window(ev, 40.0)
    extra = ev.world.rng.uniform(0.2, 4.0)
    key = ev.net.link(a.name, b.name)

    def begin() -> None:
        ev.world.note("fault delay", a.name, b.name, round(extra, 3))
        ev.net.extra[key] = extra

    ev.world.at(start, begin)
    ev.world.at(start + length, ev.net.extra.pop, key, None)


def drop(ev: Evening) -> None:
    a, b = _pair(ev)
    start, length = _window(ev, 30.0)
    chance = ev.world.rng.uniform(0.02, 0.4)
    key = ev.net.link(a.name, b.name)

    def begin() -> None:
        ev.world.note("fault drop", a.name, b.name, round(chance, 3))
        ev.net.lossy[key] = chance

    ev.world.at(start, begin)
    ev.world.at(start + length, ev.net.lossy.pop, key, None)


def _split(ev: Evening, side: list[Laptop], start: float, length: float, what: str) -> None:
    keys = {ev.net.link(a.name, b.name) for a in side for b in ev.laptops if b not in side}

    def begin() -> None:
        ev.world.note("fault " + what, *sorted(x.name for x in side), round(length, 3))
        ev.net.cut.update(keys)

    def heal() -> None:
        ev.world.note("heal", what)
        ev.net.cut.subtract(keys)
        ev.net.kick()

    ev.world.at(start, begin)
    ev.world.at(start + length, heal)


def partition(ev: Evening) -> None:
    rng = ev.world.rng
    n = len(ev.laptops)
    size = rng.randint(1, n // 2)
    side = rng.sample(ev.laptops, size)
    start, length = _window(ev, 45.0)
    _split(ev, side, start, length, "partition")


def cutoff(ev: Evening) -> None:
    rng = ev.world.rng
    side = [rng.choice(ev.laptops)]
    start = rng.uniform(5.0, 100.0)
    length = ev.grace + rng.uniform(5.0, 60.0)
    ev.calm(start + length)
    _split(ev, side, start, length, "cutoff")


def crash(ev: Evening) -> None:
    rng = ev.world.rng
    lap = rng.choice(ev.laptops)
    start, _ = _window(ev, 1.0)
    back = rng.uniform(3.0, 60.0)
    ev.calm(start + back)

    def begin() -> None:
        if lap.alive:
            lap.crash()
            ev.world.after(back, lap.restart)

    ev.world.at(start, begin)


def sleep(ev: Evening) -> None:
    rng = ev.world.rng
    lap = rng.choice(ev.laptops)
    start, length = _window(ev, 60.0)

    def begin() -> None:
        if lap.alive and not lap.asleep:
            lap.sleep(length)

    ev.world.at(start, begin)


def move(ev: Evening) -> None:
    rng = ev.world.rng
    lap = rng.choice(ev.laptops)
    start, _ = _window(ev, 1.0)

    def begin() -> None:
        if lap.alive:
            lap.move_address()

    ev.world.at(start, begin)


def winkill(ev: Evening) -> None:
    """The host is killed the moment its game ends (the winning move journalled, its
    news not sent); it restarts a while later.  A host that resumed a game with its
    end in it wins nothing: it is not killed."""
    back = ev.world.rng.uniform(5.0, 60.0)

    def armed(host: HostShell) -> None:
        game = host.table.game
        if game is None or not game.over or host.rogue or not host.live or host.over_at_start:
            return  # (a game resumed with its end in it was not won there)
        ev.on_host_ran.remove(armed)
        ev.world.note("fault winkill", host.lap.name)
        lap = host.lap
        ev.calm(ev.world.now + back)
        lap.crash()
        ev.world.after(back, lap.restart)

    ev.on_host_ran.append(armed)


def forge(ev: Evening) -> None:
    """A rogue laptop (at an address of its own) hosts the table from what a laptop
    knew: ``replay``, at that succession's epoch a while later; ``claim``, at the next
    epoch at once, vanishing a few seconds later.  Its advert reaches every laptop
    looking for a host while it lives."""
    rng = ev.world.rng
    replay = rng.random() < 0.5
    start, _ = _window(ev, 1.0)
    wait = rng.uniform(10.0, 90.0) if replay else 0.0
    lives = rng.uniform(1.0, 10.0) if not replay else rng.uniform(10.0, 60.0)
    victim = rng.choice(ev.laptops)
    kill = rng.random() < 0.5  # the host dies as the rogue rises: the laptops look for one
    back = rng.uniform(5.0, 60.0)
    ev.calm(start + wait + lives + back)

    def snapshot() -> None:
        knowledge = victim.model.knowledge() if victim.alive else None
        if knowledge is None:
            return
        epoch = knowledge.succession.epoch + (0 if replay else 1)
        ev.world.after(wait, rise, knowledge, epoch)

    def rise(knowledge: object, epoch: int) -> None:
        ev.world.note("fault forge", "replay" if replay else "claim", epoch)
        rogue = ev.rogue(knowledge, epoch)
        until = ev.world.now + lives
        host = next((h for h in reversed(ev.hosts) if h.live and not h.rogue), None)
        if kill and host is not None and host.lap.alive:
            host.lap.crash()
            ev.world.after(back, host.lap.restart)

        def advertise() -> None:
            if not rogue.alive or ev.world.now >= until:
                if rogue.alive:
                    rogue.crash()
                return
            for lap in ev.laptops:
                lap.handle(lap.advert, epoch, rogue.addr, rogue.port)
            ev.world.after(2.0, advertise)

        advertise()

    ev.world.at(start, snapshot)


CLASSES: dict[str, Callable[[Evening], None]] = {
    "delay": delay, "drop": drop, "partition": partition, "cutoff": cutoff,
    "crash": crash, "sleep": sleep, "move": move, "winkill": winkill, "forge": forge,
}  # fmt: skip
