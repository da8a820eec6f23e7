"""Finding games on the network: a live, liveness-checked list of adverts.

`GameBrowser` watches `_sorry-lan._tcp.local.` on a zeroconf instance the
caller owns, resolves each service (SRV, TXT, addresses), and only then
checks that the host is really there: mDNS caches keep the records of a
killed host for many minutes, so a game is listed once a liveness probe
(by default a TCP connect, injectable so a protocol `hello` can replace
it) succeeded on one of its addresses.  Games that stop answering are
dropped from the list (and re-checked, in case they come back).

`async_find_games` is the one-shot form for `sorry-lan list`.  Nothing here
joins a game or keeps a connection open; the probe connects and closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import TracebackType
from typing import Self

from zeroconf import BadTypeInNameException, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from sorry_lan.discovery.advert import (
    SERVICE_TYPE,
    AdvertError,
    FoundGame,
    GameAd,
    Unjoinable,
    current_tables,
    display_text,
    judge_advert,
    parse_protocol_version,
    parse_txt,
)
from sorry_lan.i18n import _
from sorry_lan.wire.limits import SUPPORTED_VERSIONS

log = logging.getLogger(__name__)

Prober = Callable[[str, int, float], Awaitable[bool]]
"""`await prober(address, port, timeout)` -> whether a live host answers there."""

RESOLVE_TIMEOUT_MS = 3000
DEFAULT_PROBE_TIMEOUT = 1.0
DEFAULT_REVERIFY_INTERVAL = 5.0
DEFAULT_LIST_TIMEOUT = 2.0


async def tcp_probe(address: str, port: int, timeout: float) -> bool:
    """True if a TCP connection to address:port opens within `timeout` seconds.

    The floor of liveness checks: it proves something listens, not that it
    is a sorry-lan host.  The connection is closed at once without a byte sent.
    """
    try:
        async with asyncio.timeout(timeout):
            _, writer = await asyncio.open_connection(address, port)
    except (OSError, TimeoutError, ValueError):
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True


class ChangeKind(StrEnum):
    ADDED = "added"
    UPDATED = "updated"
    REMOVED = "removed"


@dataclass(frozen=True)
class GameEvent:
    """A change in the visible game list; for REMOVED, `game` is the last state seen."""

    kind: ChangeKind
    game: FoundGame


@dataclass
class _Entry:
    base: FoundGame | None = None  # advert-level view (address unset)
    alive: bool | None = None  # None: not probed yet
    address: str | None = None
    dirty: bool = False  # records changed while the worker ran
    force_probe: bool = False
    task: asyncio.Task[None] | None = None


def _instance_of(service_name: str) -> str:
    suffix = "." + SERVICE_TYPE
    if service_name.lower().endswith(suffix.lower()):
        return service_name[: -len(suffix)]
    return service_name


def game_from_info(
    info: AsyncServiceInfo, supported: Sequence[int] = SUPPORTED_VERSIONS
) -> FoundGame | None:
    """The advert-level `FoundGame` for a resolved service (not yet liveness-checked).

    None when the service has no port or no usable address.  A garbled TXT
    gives a game with reason INVALID (or NEWER_PROTOCOL when its `pv` is
    above ours), never an exception.
    """
    port = info.port
    if port is None or not 1 <= port <= 65535:
        return None
    addresses: list[str] = []
    for version in (IPVersion.V4Only, IPVersion.V6Only):
        for addr in info.parsed_scoped_addresses(version):
            if addr not in addresses:
                addresses.append(addr)
    if not addresses:
        return None
    instance = _instance_of(info.name)
    try:
        props = info.properties
    except Exception:  # a broken TXT payload
        props = {}
    ad: GameAd | None
    try:
        ad = parse_txt(props)
        reason = judge_advert(ad, supported)
    except AdvertError:
        ad = None
        pv = parse_protocol_version(props)
        newer = pv is not None and pv > max(supported)
        reason = Unjoinable.NEWER_PROTOCOL if newer else Unjoinable.INVALID
    name = ad.game_name if ad is not None else display_text(instance)
    return FoundGame(
        service_name=info.name,
        instance=instance,
        name=name,
        ad=ad,
        addresses=tuple(addresses),
        port=port,
        reason=reason,
    )


class GameBrowser:
    """A live list of the games advertised on the network, checked for liveness.

    Use as `async with GameBrowser(zc, on_change=...) as browser:`.  `games`
    is the current list (service name -> `FoundGame`); changes are also
    delivered to `on_change` (called in the event loop; it must not block)
    and to every `events()` iterator.  A game shows up only after its host
    answered the probe; one that stops answering is reported REMOVED (or
    UPDATED with reason UNREACHABLE when `show_unreachable`) and re-checked
    every `reverify_interval` seconds (None: only on `async_reverify`).

    It does not close the zeroconf instance, and does not join anything.
    """

    def __init__(
        self,
        zc: AsyncZeroconf,
        *,
        on_change: Callable[[GameEvent], None] | None = None,
        prober: Prober = tcp_probe,
        probe_timeout: float = DEFAULT_PROBE_TIMEOUT,
        reverify_interval: float | None = DEFAULT_REVERIFY_INTERVAL,
        supported_versions: Sequence[int] = SUPPORTED_VERSIONS,
        show_unreachable: bool = False,
    ) -> None:
        self._zc = zc
        self._on_change = on_change
        self._prober = prober
        self._probe_timeout = probe_timeout
        self._reverify_interval = reverify_interval
        if not supported_versions:
            raise ValueError("supported_versions must not be empty")
        self._supported = tuple(supported_versions)
        self._show_unreachable = show_unreachable
        self._entries: dict[str, _Entry] = {}
        self._published: dict[str, FoundGame] = {}
        self._queues: list[asyncio.Queue[GameEvent | None]] = []
        self._browser: AsyncServiceBrowser | None = None
        self._reverifier: asyncio.Task[None] | None = None
        self._closed = False

    # -- lifecycle -------------------------------------------------------

    async def async_start(self) -> None:
        """Start browsing (queries go out within ~120 ms)."""
        if self._browser is not None or self._closed:
            raise RuntimeError("browser already started or closed")
        self._browser = AsyncServiceBrowser(
            self._zc.zeroconf, SERVICE_TYPE, handlers=[self._on_service_state_change]
        )
        if self._reverify_interval is not None:
            self._reverifier = asyncio.create_task(self._reverify_loop(self._reverify_interval))

    async def async_close(self) -> None:
        """Stop browsing, cancel pending checks and end the `events()` iterators; idempotent."""
        if self._closed:
            return
        self._closed = True
        tasks = [e.task for e in self._entries.values() if e.task is not None]
        if self._reverifier is not None:
            tasks.append(self._reverifier)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if self._browser is not None and not self._zc.zeroconf.done:
            await self._browser.async_cancel()
        for q in self._queues:
            q.put_nowait(None)

    async def __aenter__(self) -> Self:
        await self.async_start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.async_close()

    # -- what consumers read ---------------------------------------------

    @property
    def games(self) -> dict[str, FoundGame]:
        """A snapshot of the visible games, keyed by full service name."""
        return dict(self._published)

    @property
    def tables(self) -> list[FoundGame]:
        """The visible games with each table once, at its newest host
        (:func:`~sorry_lan.discovery.advert.current_tables`): what a list shows."""
        return current_tables(self._published.values())

    def events(self) -> AsyncGenerator[GameEvent, None]:
        """An iterator of changes from now on, starting with ADDED for every game already listed.

        It ends when the browser is closed.
        """
        q: asyncio.Queue[GameEvent | None] = asyncio.Queue()
        for game in self._published.values():
            q.put_nowait(GameEvent(ChangeKind.ADDED, game))
        if self._closed:
            q.put_nowait(None)
        self._queues.append(q)
        return self._drain(q)

    async def _drain(self, q: asyncio.Queue[GameEvent | None]) -> AsyncGenerator[GameEvent, None]:
        try:
            while (event := await q.get()) is not None:
                yield event
        finally:
            with contextlib.suppress(ValueError):
                self._queues.remove(q)

    async def async_reverify(self) -> None:
        """Probe every known game again now and wait for the results."""
        for name, entry in self._entries.items():
            entry.force_probe = True
            self._kick(name, entry)
        await self.async_wait_settled()

    async def async_wait_settled(self, timeout: float | None = None) -> None:
        """Wait until no resolution or probe is in flight (or `timeout` seconds pass)."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            tasks = {e.task for e in self._entries.values() if e.task is not None}
            if not tasks:
                return
            remaining = None if deadline is None else deadline - loop.time()
            if remaining is not None and remaining <= 0:
                return
            await asyncio.wait(tasks, timeout=remaining)

    # -- internals -------------------------------------------------------

    def _on_service_state_change(
        self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if self._closed:
            return
        if state_change is ServiceStateChange.Removed:
            entry = self._entries.pop(name, None)
            if entry is not None and entry.task is not None:
                entry.task.cancel()
            self._publish(name, None)
            return
        entry = self._entries.setdefault(name, _Entry())
        entry.dirty = True
        self._kick(name, entry)

    def _kick(self, name: str, entry: _Entry) -> None:
        if self._closed or (entry.task is not None and not entry.task.done()):
            return
        entry.task = asyncio.create_task(self._work(name, entry))

    async def _work(self, name: str, entry: _Entry) -> None:
        try:
            while entry.dirty or entry.force_probe:
                if entry.dirty:
                    entry.dirty = False
                    base = await self._resolve(name)
                    if base is None:
                        continue
                    old = entry.base
                    if old is None or (old.addresses, old.port) != (base.addresses, base.port):
                        entry.force_probe = True
                    entry.base = base
                if entry.base is None:
                    entry.force_probe = False
                    break
                if entry.force_probe:
                    entry.force_probe = False
                    entry.alive, entry.address = await self._probe(entry.base)
                if self._entries.get(name) is entry:
                    self._publish(name, self._visible(entry))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("checking game %r failed", name)
        finally:
            entry.task = None

    async def _resolve(self, name: str) -> FoundGame | None:
        try:
            info = AsyncServiceInfo(SERVICE_TYPE, name)
        except BadTypeInNameException:
            return None
        if not await info.async_request(self._zc.zeroconf, RESOLVE_TIMEOUT_MS):
            return None
        return game_from_info(info, self._supported)

    async def _probe(self, game: FoundGame) -> tuple[bool, str | None]:
        async def one(address: str) -> bool:
            try:
                return await self._prober(address, game.port, self._probe_timeout)
            except Exception:
                log.exception("liveness probe of %s:%s raised", address, game.port)
                return False

        results = await asyncio.gather(*(one(a) for a in game.addresses))
        for address, ok in zip(game.addresses, results, strict=True):
            if ok:
                return True, address
        return False, None

    def _visible(self, entry: _Entry) -> FoundGame | None:
        base = entry.base
        if base is None or entry.alive is None:
            return None
        if not entry.alive:
            if not self._show_unreachable:
                return None
            return replace(base, reason=Unjoinable.UNREACHABLE, address=None)
        return replace(base, address=entry.address)

    def _publish(self, name: str, game: FoundGame | None) -> None:
        old = self._published.get(name)
        if game is None:
            if old is None:
                return
            del self._published[name]
            self._emit(GameEvent(ChangeKind.REMOVED, old))
        elif old is None:
            self._published[name] = game
            self._emit(GameEvent(ChangeKind.ADDED, game))
        elif old != game:
            self._published[name] = game
            self._emit(GameEvent(ChangeKind.UPDATED, game))

    def _emit(self, event: GameEvent) -> None:
        for q in self._queues:
            q.put_nowait(event)
        if self._on_change is not None:
            try:
                self._on_change(event)
            except Exception:
                log.exception("game list callback failed on %s", event.kind)

    async def _reverify_loop(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            for name, entry in list(self._entries.items()):
                entry.force_probe = True
                self._kick(name, entry)


def _sort_key(game: FoundGame) -> tuple[str, str]:
    return (game.name.casefold(), game.service_name)


async def async_find_games(
    zc: AsyncZeroconf,
    timeout: float = DEFAULT_LIST_TIMEOUT,
    *,
    prober: Prober = tcp_probe,
    probe_timeout: float = DEFAULT_PROBE_TIMEOUT,
    supported_versions: Sequence[int] = SUPPORTED_VERSIONS,
    include_unreachable: bool = False,
    until_joinable: bool = False,
) -> list[FoundGame]:
    """Browse for `timeout` seconds and return the live games found, sorted by name,
    each table once (the advert of its newest host: `current_tables`).

    Waits a little past `timeout` for probes already started (at most the
    probe timeout plus resolution time).  Unjoinable games are included with
    their reason; games whose host does not answer only with
    `include_unreachable`.  With `until_joinable` it returns as soon as a
    joinable game is listed (with whatever else is listed by then).
    Returns [] when nothing answered: see `nothing_found_message`.
    """
    if timeout < 0:
        raise ValueError(f"timeout must be >= 0, not {timeout}")
    async with GameBrowser(
        zc,
        prober=prober,
        probe_timeout=probe_timeout,
        reverify_interval=None,
        supported_versions=supported_versions,
        show_unreachable=include_unreachable,
    ) as browser:
        if until_joinable:
            await _wait_joinable(browser, timeout)
        else:
            await asyncio.sleep(timeout)
        await browser.async_wait_settled(probe_timeout + RESOLVE_TIMEOUT_MS / 1000)
        return sorted(browser.tables, key=_sort_key)


async def _wait_joinable(browser: GameBrowser, timeout: float) -> None:
    events = browser.events()
    try:
        async with asyncio.timeout(timeout):
            async for event in events:
                if event.kind is not ChangeKind.REMOVED and event.game.joinable:
                    return
    except TimeoutError:
        return
    finally:
        await events.aclose()


def nothing_found_message(
    timeout: float,
    interfaces: Sequence[str] | None = None,
    command: str = "join",
    reason: str | None = None,
) -> str:
    """What to tell a player when browsing found no game (mentions `--address`);
    `reason`, the likeliest cause (`advice.likely_reason`), follows the first line."""
    if interfaces:
        first = _("No sorry-lan games found on {where} in {secs} s.").format(
            where=", ".join(interfaces), secs=f"{timeout:g}"
        )
    else:
        first = _("No sorry-lan games found in {secs} s.").format(secs=f"{timeout:g}")
    rest = _(
        "Is the host running and on the same network? Some routers, Wi-Fi guest networks,\n"
        "VPNs and firewalls block multicast (mDNS), which game discovery relies on.\n"
        "Ask the host for their address and port and join directly:\n"
        "    {command}\n"
        "or pick the network to search with --interface ADDR."
    ).format(command=f"sorry-lan {command} --address HOST:PORT")
    if reason:
        return f"{first}\n{reason}\n{rest}"
    return f"{first}\n{rest}"
