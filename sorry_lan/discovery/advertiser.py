"""Publishing a hosted game over mDNS, and making the zeroconf instance to do it.

`make_zeroconf` builds the `AsyncZeroconf` for the CLI's `--interface` and
`--ipv6` options; `GameAdvertiser` registers one game as a
`_sorry-lan._tcp.local.` service on a zeroconf instance the caller owns,
republishes its TXT record when seats or state change, and sends goodbye
packets when closed.

It does not open or serve the game's TCP port (the host does), and it never
closes the zeroconf instance it was given.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import secrets
from collections.abc import Awaitable, Sequence
from dataclasses import replace
from types import TracebackType
from typing import Self

import ifaddr
from zeroconf import (
    BadTypeInNameException,
    InterfaceChoice,
    IPVersion,
    NonUniqueNameException,
    ServiceNameAlreadyRegistered,
)
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from sorry_lan.discovery.advert import SERVICE_TYPE, GameAd
from sorry_lan.errors import SorryLanError
from sorry_lan.rules import Phase

log = logging.getLogger(__name__)

_REGISTER_ERRORS = (BadTypeInNameException, NonUniqueNameException, ServiceNameAlreadyRegistered)


class DiscoveryError(SorryLanError):
    """mDNS could not be set up or used (bad interface address, socket error, ...)."""


def _parse_interface(addr: str, ipv6: bool) -> str:
    try:
        ip = ipaddress.ip_address(addr.strip())
    except ValueError:
        raise DiscoveryError(
            f"--interface wants an IP address of this machine, not {addr!r}"
        ) from None
    if ip.version == 6 and not ipv6:
        raise DiscoveryError(f"{addr} is an IPv6 address: add --ipv6 to use IPv6")
    return str(ip)


def make_zeroconf(interfaces: Sequence[str] | None = None, ipv6: bool = False) -> AsyncZeroconf:
    """An `AsyncZeroconf` on the given interface addresses (None: all interfaces).

    IPv4 only unless `ipv6`.  Call it from inside the running event loop
    (the instance attaches to it); close it with `await zc.async_close()`.
    Raises `DiscoveryError` for a malformed address or one the sockets cannot
    bind to.  It does not check that other machines are reachable.
    """
    ip_version = IPVersion.All if ipv6 else IPVersion.V4Only
    choice: list[str] | InterfaceChoice
    if interfaces:
        choice = [_parse_interface(a, ipv6) for a in interfaces]
        if not ipv6:
            ip_version = IPVersion.V4Only
    else:
        choice = InterfaceChoice.All
    try:
        return AsyncZeroconf(interfaces=choice, ip_version=ip_version)
    except OSError as exc:
        where = ", ".join(interfaces) if interfaces else "all interfaces"
        raise DiscoveryError(f"cannot open mDNS sockets on {where}: {exc}") from exc


def local_addresses(interfaces: Sequence[str] | None = None, ipv6: bool = False) -> list[str]:
    """The addresses a host should publish: the chosen interfaces, else all non-loopback ones.

    Falls back to the loopback addresses when the machine has nothing else
    (then only local players can join).  IPv6 link-local addresses are left
    out (they need a scope a TXT/A record cannot carry portably).
    """
    if interfaces:
        return [_parse_interface(a, ipv6) for a in interfaces]
    found: list[str] = []
    loopback: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            raw = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            try:
                parsed = ipaddress.ip_address(raw)
            except ValueError:
                continue
            if parsed.version == 6 and (not ipv6 or parsed.is_link_local):
                continue
            (loopback if parsed.is_loopback else found).append(str(parsed))
    result = found or loopback
    return sorted(set(result), key=lambda a: (ipaddress.ip_address(a).version, a))


class GameAdvertiser:
    """Advertises one game over mDNS for as long as it is open.

    Use as `async with GameAdvertiser(zc, ad, port) as adv:`; `adv.name` is the
    instance name actually registered (a clash with another game's name is
    resolved by the library appending "-2", "-3", ...).  `async_update`
    republishes the TXT record; `async_close` (also run on leaving the
    `async with`, including on Ctrl-C/cancellation) sends goodbyes and is
    safe to call more than once.  `cooperating_responders=True` skips the
    ~1.2 s uniqueness probing (tests only: it also disables clash renaming).
    """

    def __init__(
        self,
        zc: AsyncZeroconf,
        ad: GameAd,
        port: int,
        addresses: Sequence[str] | None = None,
        *,
        cooperating_responders: bool = False,
    ) -> None:
        if not 1 <= port <= 65535:
            raise DiscoveryError(f"port must be 1..65535, not {port}")
        self._zc = zc
        self._ad = ad
        self._port = port
        chosen = list(addresses) if addresses is not None else local_addresses()
        if not chosen:
            raise DiscoveryError("no address to advertise the game on")
        try:
            self._addresses = [str(ipaddress.ip_address(a)) for a in chosen]
        except ValueError as exc:
            raise DiscoveryError(f"cannot advertise on {chosen}: {exc}") from None
        self._cooperating = cooperating_responders
        # A host name of our own, so two hosts on one machine (or two machines
        # with the same game name) never fight over the A records.
        self._server = f"sorry-lan-{secrets.token_hex(6)}.local."
        self._info: AsyncServiceInfo | None = None
        self._name: str | None = None
        self._pending: Awaitable[object] | None = None
        self._closed = False
        self._lock = asyncio.Lock()

    @property
    def ad(self) -> GameAd:
        return self._ad

    @property
    def name(self) -> str:
        """The full registered service name (e.g. `Friday night-2._sorry-lan._tcp.local.`)."""
        if self._name is None:
            raise DiscoveryError("not registered yet")
        return self._name

    @property
    def instance(self) -> str:
        """The registered instance label (the name with the service type removed)."""
        return self.name[: -len(SERVICE_TYPE) - 1]

    def _make_info(self, name: str) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            name,
            port=self._port,
            properties=self._ad.to_txt(),
            server=self._server,
            parsed_addresses=self._addresses,
        )

    async def async_start(self) -> None:
        """Probe for the name (renaming on a clash) and announce; raises `DiscoveryError`."""
        async with self._lock:
            if self._info is not None or self._closed:
                raise DiscoveryError("advertiser already started or closed")
            info = self._make_info(f"{self._ad.game_name}.{SERVICE_TYPE}")
            try:
                self._pending = await self._zc.async_register_service(
                    info, allow_name_change=True, cooperating_responders=self._cooperating
                )
            except _REGISTER_ERRORS as exc:
                raise DiscoveryError(f"cannot advertise {self._ad.game_name!r}: {exc!r}") from exc
            self._info = info
            self._name = info.name

    async def async_update(
        self,
        ad: GameAd | None = None,
        *,
        seats_taken: int | None = None,
        state: Phase | str | None = None,
        pin_required: bool | None = None,
    ) -> None:
        """Republish the TXT record with a new advert or changed fields.

        The game name cannot change (the instance name is fixed at
        registration).  A no-op once closed.  Raises `AdvertError` for bad values.
        """
        new = ad if ad is not None else self._ad
        changes: dict[str, object] = {}
        if seats_taken is not None:
            changes["seats_taken"] = seats_taken
        if state is not None:
            changes["state"] = state
        if pin_required is not None:
            changes["pin_required"] = pin_required
        new = replace(new, **changes)  # type: ignore[arg-type]
        if new.game_name != self._ad.game_name:
            raise DiscoveryError("the game name cannot change while advertised")
        async with self._lock:
            if self._closed:
                return
            self._ad = new
            if self._info is None:
                return
            self._cancel_pending()
            self._info = self._make_info(self._info.name)
            self._pending = await self._zc.async_update_service(self._info)

    def _cancel_pending(self) -> None:
        if isinstance(self._pending, asyncio.Future) and not self._pending.done():
            self._pending.cancel()
        self._pending = None

    async def async_close(self) -> None:
        """Unregister and wait for the goodbye packets to go out; idempotent."""
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            info, self._info = self._info, None
            self._cancel_pending()
            if info is None or self._zc.zeroconf.done:
                return
            try:
                goodbye = await self._zc.async_unregister_service(info)
                await goodbye
            except Exception:  # a dying zeroconf must not mask the real reason for exiting
                log.warning("could not send mDNS goodbye for %r", info.name, exc_info=True)

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
