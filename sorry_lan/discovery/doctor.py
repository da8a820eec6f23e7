"""The network doctor: what this machine looks like to the game, and what is wrong.

`async_checkup` gathers the facts: the interfaces and how each is classified
(`interfaces.read_interfaces`), whether an mDNS query sent on each address the
game would use comes back (`echo.async_echo`), which other sorry-lan tables
answered a search, and whether the game port is free and answers on each address.
`findings(checkup)` is pure: the problems those facts show, the most likely cause
of "no table shows up" first.  `async_quick_checkup` is the cheap part (interfaces
and echoes) for the find screen and `sorry-lan list` after an empty search.

The words for a player are in `discovery.advice`; nothing here prints.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from sorry_lan.discovery.advert import FoundGame
from sorry_lan.discovery.advertiser import DiscoveryError, make_zeroconf
from sorry_lan.discovery.browser import async_find_games, tcp_probe
from sorry_lan.discovery.echo import DEFAULT_ECHO_TIMEOUT, Echo, async_echo
from sorry_lan.discovery.interfaces import Kind, NetInterface, lan_addresses, read_interfaces
from sorry_lan.wire.limits import DEFAULT_PORT


@dataclass(frozen=True)
class PortCheck:
    """The game port on one address: `free` to listen on, and whether a connection to it
    from this machine opened (`reachable`: ours when free, someone else's when not)."""

    address: str
    free: bool
    reachable: bool
    error: str | None = None


@dataclass(frozen=True)
class Checkup:
    """What the checks saw.  `tables` is None when no search was made; `searched` the
    addresses the game searches and advertises on (LAN ones, else loopback)."""

    platform: str
    ipv6: bool
    port: int
    interfaces: tuple[NetInterface, ...]
    searched: tuple[str, ...]
    echoes: tuple[Echo, ...] = ()
    tables: tuple[FoundGame, ...] | None = None
    ports: tuple[PortCheck, ...] = ()
    search_error: str | None = None


class Problem(StrEnum):
    """One kind of trouble `findings` can report (the order is the order of likelihood)."""

    NO_NETWORK = "no-network"  # nothing but loopback
    ONLY_SKIPPED = "only-skipped"  # only VPN or virtual interfaces have an address
    LINK_LOCAL = "link-local"  # a network interface that got no address
    IPV6_ONLY = "ipv6-only"  # the LAN has IPv6 addresses only, and --ipv6 was not given
    ECHO_LOST = "echo-lost"  # our own mDNS query did not come back: a firewall, a permission
    # ...yet tables answered (to this machine's address): only incoming multicast is lost
    MULTICAST_IN = "multicast-in-lost"
    VPN = "vpn"  # a VPN is up alongside the LAN
    SEVERAL = "several-networks"  # more than one LAN interface
    TABLE_UNREACHABLE = "table-unreachable"  # a table answered mDNS, its port did not
    NO_TABLE = "no-table"  # nobody answered
    PORT_BUSY = "port-busy"
    PORT_UNREACHABLE = "port-unreachable"


@dataclass(frozen=True)
class Finding:
    """A problem and what it concerns: interface names, addresses or table names."""

    problem: Problem
    about: tuple[str, ...] = field(default=())


def _lan(c: Checkup) -> list[NetInterface]:
    return [i for i in c.interfaces if i.kind is Kind.LAN]


def findings(c: Checkup) -> list[Finding]:
    """The problems the checkup shows, the likeliest cause of an empty game list first;
    empty when all looks well.  Port problems come last (they matter to a host)."""
    out: list[Finding] = []
    lan = _lan(c)
    skipped = [i for i in c.interfaces if i.kind in (Kind.VPN, Kind.VIRTUAL)]
    link_local = [i for i in c.interfaces if i.kind is Kind.LINK_LOCAL]
    if not lan:
        if skipped:
            out.append(Finding(Problem.ONLY_SKIPPED, tuple(i.label for i in skipped)))
        elif not link_local:
            out.append(Finding(Problem.NO_NETWORK))
    if link_local:
        out.append(Finding(Problem.LINK_LOCAL, tuple(i.label for i in link_local)))
    if lan and not c.ipv6 and not any(i.ipv4 for i in lan) and any(i.ipv6 for i in lan):
        out.append(Finding(Problem.IPV6_ONLY, tuple(i.label for i in lan if i.ipv6)))
    lost = [e.address for e in c.echoes if not e.came_back]
    answered = any(g.address is not None for g in c.tables or ())
    if lost:
        # tables answered all the same (to this machine's own address): joining works,
        # but others' searches do not reach a table hosted here
        out.append(Finding(Problem.MULTICAST_IN if answered else Problem.ECHO_LOST, tuple(lost)))
    vpn = [i.label for i in c.interfaces if i.kind is Kind.VPN]
    if lan and vpn:
        out.append(Finding(Problem.VPN, tuple(vpn)))
    used = [i for i in lan if i.usable(c.ipv6)]
    if len(used) > 1:
        out.append(Finding(Problem.SEVERAL, tuple(i.label for i in used)))
    if c.tables is not None:
        silent = [g for g in c.tables if g.address is None]
        if silent:
            out.append(Finding(Problem.TABLE_UNREACHABLE, tuple(g.name for g in silent)))
        if not c.tables:
            out.append(Finding(Problem.NO_TABLE))
    busy = [p.address for p in c.ports if not p.free]
    if busy:
        out.append(Finding(Problem.PORT_BUSY, tuple(busy)))
    closed = [p.address for p in c.ports if p.free and not p.reachable]
    if closed:
        out.append(Finding(Problem.PORT_UNREACHABLE, tuple(closed)))
    return out


def likely(c: Checkup) -> Finding:
    """The likeliest reason a search found nothing (when no check failed: nobody
    answered, which is a router or Wi-Fi that blocks multicast, or no table yet)."""
    for f in findings(c):
        if f.problem not in (Problem.PORT_BUSY, Problem.PORT_UNREACHABLE, Problem.SEVERAL):
            return f
    return Finding(Problem.NO_TABLE)


async def _echoes(addresses: Sequence[str], timeout: float) -> tuple[Echo, ...]:
    return tuple(await asyncio.gather(*(async_echo(a, timeout) for a in addresses)))


def _searched(interfaces: Sequence[NetInterface], ipv6: bool) -> tuple[str, ...]:
    return tuple(lan_addresses(interfaces, ipv6))


def _has_lan(interfaces: Sequence[NetInterface], ipv6: bool) -> bool:
    return any(i.kind is Kind.LAN and i.usable(ipv6) for i in interfaces)


async def _base(
    interfaces: list[NetInterface], ipv6: bool, echo_timeout: float, platform: str
) -> Checkup:
    searched = _searched(interfaces, ipv6)
    echoes = await _echoes(searched, echo_timeout) if _has_lan(interfaces, ipv6) else ()
    return Checkup(platform, ipv6, DEFAULT_PORT, tuple(interfaces), searched, echoes)


async def async_quick_checkup(
    ipv6: bool = False,
    *,
    echo_timeout: float = DEFAULT_ECHO_TIMEOUT,
    platform: str = sys.platform,
    read: Callable[[], list[NetInterface]] = read_interfaces,
) -> Checkup:
    """Interfaces and echoes only (a second or two): for an empty find screen or list."""
    return await _base(read(), ipv6, echo_timeout, platform)


async def _port_on(address: str, port: int, timeout: float) -> PortCheck:
    try:
        server = await asyncio.start_server(lambda r, w: w.close(), address, port)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            return PortCheck(address, False, False, exc.strerror or str(exc))
        return PortCheck(address, False, await tcp_probe(address, port, timeout))
    bound = server.sockets[0].getsockname()[1] if server.sockets else port
    try:
        return PortCheck(address, True, await tcp_probe(address, bound, timeout))
    finally:
        server.close()
        with contextlib.suppress(Exception):
            await server.wait_closed()


async def _tables(
    searched: Sequence[str], ipv6: bool, browse: float
) -> tuple[tuple[FoundGame, ...] | None, str | None]:
    try:
        zc = make_zeroconf(list(searched), ipv6 or any(":" in a for a in searched))
    except DiscoveryError as exc:
        return None, str(exc)
    try:
        games = await async_find_games(zc, browse, include_unreachable=True)
    finally:
        with contextlib.suppress(Exception):
            await zc.async_close()
    return tuple(games), None


async def async_checkup(
    *,
    port: int = DEFAULT_PORT,
    ipv6: bool = False,
    browse: float = 2.0,
    echo_timeout: float = DEFAULT_ECHO_TIMEOUT,
    platform: str = sys.platform,
    read: Callable[[], list[NetInterface]] = read_interfaces,
) -> Checkup:
    """Every check (a few seconds: the search lasts `browse` seconds)."""
    interfaces = read()
    searched = _searched(interfaces, ipv6)
    loopback = [a for i in interfaces if i.kind is Kind.LOOPBACK for a in i.usable(ipv6)]
    on = list(dict.fromkeys([*searched, *loopback]))

    async def search_then_echo() -> Checkup:
        # (one after the other: a table's answer sent to this machine's own address
        # reaches only one of the sockets bound to its mDNS port, and an echo's socket
        # would swallow the answers the search asked for)
        tables, error = await _tables(searched, ipv6, browse)
        base = await _base(interfaces, ipv6, echo_timeout, platform)
        return replace(base, tables=tables, search_error=error)

    base, ports = await asyncio.gather(
        search_then_echo(), asyncio.gather(*(_port_on(a, port, 1.0) for a in on))
    )
    return replace(base, port=port, ports=tuple(ports))
