"""Advertising a running table: the glue between the host server and `GameAdvertiser`.

`TableAdvertiser` turns the host's table summary (anything shaped like
`sorry_lan.net.host.TableSummary`) into a `GameAd`, registers it in the
background (name probing takes about a second; the table serves players
meanwhile), republishes the TXT record when seats or state change (a burst
of changes becomes one update) and unregisters with goodbye packets when
closed.  `advert_plan` decides where to advertise from the host's options.

Failures are reported through the `warn` callback and never raised: a host
whose mDNS does not work still serves players who give `--address`.  It
does not own the TCP server and does not decide when the host exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from zeroconf.asyncio import AsyncZeroconf

from sorry_lan.discovery.advert import AdvertError, GameAd
from sorry_lan.discovery.advertiser import (
    DiscoveryError,
    GameAdvertiser,
    local_addresses,
    make_zeroconf,
)
from sorry_lan.discovery.interfaces import Kind, NetInterface, lan_addresses, read_interfaces
from sorry_lan.rules import Phase, Variant

COALESCE_SECONDS = 0.05
"""How long an update waits for more changes before republishing the TXT record."""


class Summary(Protocol):
    """What the advertiser reads from the host's table summary."""

    @property
    def variant(self) -> Variant: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def seats_taken(self) -> int: ...
    @property
    def seats(self) -> int: ...
    @property
    def pin(self) -> bool: ...


def ad_from_summary(
    summary: Summary, game_name: str, host_player: str, table_id: str | None = None,
    epoch: int = 1,
) -> GameAd:
    """The advert for a table (``epoch``: its host's, protocol version 4); raises
    `AdvertError` for a value that cannot be published."""
    return GameAd(
        table_id=table_id,
        epoch=epoch,
        game_name=game_name,
        host_player=host_player,
        seats_total=summary.seats,
        seats_taken=min(summary.seats_taken, summary.seats),
        variant=str(summary.variant),
        state=summary.phase,
        pin_required=summary.pin,
    )


@dataclass(frozen=True)
class AdvertPlan:
    """Where to advertise: `interfaces` for the mDNS sockets (None: all), `addresses`
    to publish; `skip` says why not to advertise at all (then the rest is unused);
    `skipped` names the VPN and virtual interfaces left out (the host says so)."""

    interfaces: list[str] | None
    addresses: list[str]
    ipv6: bool
    skip: str | None = None
    skipped: tuple[str, ...] = ()


def _wildcard(bind: str) -> bool:
    return bind in ("", "0.0.0.0", "::", "*")


def advert_plan(
    bind: str,
    interfaces: Sequence[str] | None,
    ipv6: bool,
    *,
    all_interfaces: bool = False,
    read: Callable[[], list[NetInterface]] | None = None,
) -> AdvertPlan:
    """Decide the mDNS interfaces and published addresses from `--bind`/`--interface`/`--ipv6`.

    * `--interface` given: advertise on those addresses only.
    * a specific `--bind` address: advertise on that address only (IPv6 if it is one);
      a loopback bind is not advertised at all, since nobody else could join it.
    * otherwise the LAN interfaces (`interfaces.classify`): not VPNs, tunnels or the
      virtual bridges of containers and virtual machines, whose players are not at
      the table and whose multicast often goes nowhere; with none, loopback (this
      machine's own players).  `all_interfaces` (`--all-interfaces`): every
      interface, publishing every non-loopback address.

    Raises `DiscoveryError` for a malformed `--interface` address.  It does not
    check that the addresses belong to this machine (the sockets do).
    """
    if interfaces:
        chosen = local_addresses(list(interfaces), ipv6)
        return AdvertPlan(chosen, chosen, ipv6)
    if not _wildcard(bind):
        try:
            ip = ipaddress.ip_address(bind.strip("[]"))
        except ValueError:
            raise DiscoveryError(f"cannot advertise a table bound to {bind!r}") from None
        if ip.is_loopback:
            return AdvertPlan(None, [], ipv6, skip=f"bound to {ip} (only this machine can join it)")
        v6 = ipv6 or ip.version == 6
        return AdvertPlan([str(ip)], [str(ip)], v6)
    v6 = ipv6 or bind == "::"
    if all_interfaces:
        return AdvertPlan(None, local_addresses(None, v6), v6)
    found = (read or read_interfaces)()
    chosen = lan_addresses(found, v6)
    left_out = tuple(i.label for i in found if i.kind in (Kind.VPN, Kind.VIRTUAL))
    return AdvertPlan(chosen, chosen, v6, skipped=left_out)


def join_addresses(
    interfaces: Sequence[str] | None,
    ipv6: bool,
    *,
    all_interfaces: bool = False,
    read: Callable[[], list[NetInterface]] | None = None,
) -> list[tuple[str, str]]:
    """(network, address) pairs a host's lobby shows, one network after another: the
    `--interface` addresses this machine has, else those of every LAN interface (every
    interface but loopback with `all_interfaces`), else loopback.  IPv6 ones with
    `ipv6`.  Raises `DiscoveryError` for a malformed `--interface` address."""
    found = (read or read_interfaces)()
    if interfaces:
        wanted = local_addresses(list(interfaces), ipv6)
        owner = {a: i.label for i in found for a in i.addresses}
        return [(owner[a], a) for a in wanted if a in owner]
    kinds = {Kind.LAN} | ({Kind.VPN, Kind.VIRTUAL} if all_interfaces else set())
    pairs = [(i.label, a) for i in found if i.kind in kinds for a in i.usable(ipv6)]
    if not pairs:
        pairs = [(i.label, a) for i in found if i.kind is Kind.LOOPBACK for a in i.usable(ipv6)]
    return pairs


class TableAdvertiser:
    """Keeps one table advertised over mDNS while the host runs.

    `start(summary)` (inside the running loop) opens the zeroconf sockets at
    once and registers in a background task; `update(summary)` is a plain
    synchronous callback (give it to `HostServer.on_change`) that only
    records the wish and wakes the task, which republishes after
    `COALESCE_SECONDS` if the advert really changed (moves alone change
    nothing advertised); `close()` sends goodbyes and closes the sockets.
    Problems go to `warn(text)`; `announce(text)` hears of a successful
    registration.  `cooperating_responders=True` skips name probing (tests).
    `table_id`, when given, is advertised so that players' seats follow the table
    rather than its address; `epoch` is its host's (a successor's is above 1: lists
    then show the table at its new host only).
    """

    def __init__(
        self,
        game_name: str,
        host_player: str,
        port: int,
        plan: AdvertPlan,
        *,
        warn: Callable[[str], None],
        announce: Callable[[str], None] | None = None,
        cooperating_responders: bool = False,
        coalesce: float = COALESCE_SECONDS,
        table_id: str | None = None,
        epoch: int = 1,
    ) -> None:
        self._game_name = game_name
        self._table_id = table_id
        self._epoch = epoch
        self._host_player = host_player
        self._port = port
        self._plan = plan
        self._warn = warn
        self._announce = announce
        self._cooperating = cooperating_responders
        self._coalesce = coalesce
        self._zc: AsyncZeroconf | None = None
        self._adv: GameAdvertiser | None = None
        self._task: asyncio.Task[None] | None = None
        self._wanted: GameAd | None = None
        self._wake = asyncio.Event()
        self._registered = asyncio.Event()
        self._bad_summary_reported = False
        self.published: list[GameAd] = []
        """Every advert published, in order (the registration first)."""

    @property
    def instance(self) -> str | None:
        """The registered instance name (renamed on a clash), or None before registration."""
        return self._adv.instance if self._adv is not None and self._registered.is_set() else None

    def _ad(self, summary: Summary) -> GameAd:
        return ad_from_summary(
            summary, self._game_name, self._host_player, self._table_id, self._epoch
        )

    def start(self, summary: Summary) -> bool:
        """Open mDNS and begin registering; False (after a warning) if that cannot happen."""
        if self._task is not None:
            raise RuntimeError("TableAdvertiser already started")
        try:
            self._wanted = self._ad(summary)
            self._zc = make_zeroconf(self._plan.interfaces, self._plan.ipv6)
            self._adv = GameAdvertiser(
                self._zc,
                self._wanted,
                self._port,
                self._plan.addresses,
                cooperating_responders=self._cooperating,
            )
        except (DiscoveryError, AdvertError, OSError) as exc:
            self._warn(f"not advertised on the LAN: {exc}")
            self._adv = None
            return False
        self._task = asyncio.create_task(self._run(self._adv))
        return True

    def update(self, summary: Summary) -> None:
        """Note the table's new summary; the advert follows shortly.  Never raises."""
        try:
            self._wanted = self._ad(summary)
        except AdvertError as exc:
            if not self._bad_summary_reported:
                self._bad_summary_reported = True
                self._warn(f"cannot update the LAN advert: {exc}")
            return
        self._wake.set()

    async def wait_registered(self, timeout: float | None = None) -> bool:
        """Wait until registered; False if it did not happen (failed, closed, or timed out)."""
        if self._task is None:
            return False
        waiter = asyncio.ensure_future(self._registered.wait())
        try:
            await asyncio.wait(
                {waiter, self._task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            waiter.cancel()
        return self._registered.is_set()

    async def _run(self, adv: GameAdvertiser) -> None:
        try:
            await adv.async_start()
        except (DiscoveryError, OSError) as exc:
            self._warn(f"not advertised on the LAN: {exc}")
            return
        self.published.append(adv.ad)
        self._registered.set()
        if self._announce is not None:
            addresses = ", ".join(self._plan.addresses)
            self._announce(f"advertised on the LAN as {adv.instance!r} ({addresses})")
        try:
            while True:
                await self._wake.wait()
                await asyncio.sleep(self._coalesce)
                self._wake.clear()
                wanted = self._wanted
                if wanted is not None and wanted != adv.ad:
                    await adv.async_update(wanted)
                    self.published.append(wanted)
        except (DiscoveryError, AdvertError, OSError) as exc:
            self._warn(f"stopped updating the LAN advert: {exc}")

    async def close(self) -> None:
        """Unregister (goodbye packets) and close the mDNS sockets; idempotent, never raises."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        adv, self._adv = self._adv, None
        zc, self._zc = self._zc, None
        try:
            if adv is not None:
                await adv.async_close()
        finally:
            if zc is not None:
                with contextlib.suppress(Exception):
                    await zc.async_close()
