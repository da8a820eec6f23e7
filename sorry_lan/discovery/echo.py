"""Whether an mDNS query this machine sends on one of its addresses comes back to it.

`async_echo(address)` opens zeroconf on that address alone, registers a throwaway
record of a service type of its own (`_sorry-lan-echo._udp`, which no game browser
looks at, so no table appears anywhere) without probing, and then asks for it over
multicast.  The question and the answer travel the same way every game's do: out
through this machine's mDNS socket and back in through multicast loopback, past
whatever firewall (Windows Firewall, nftables, ufw) or permission (macOS Local
Network) sits on that path.  When either is blocked the question goes unanswered.

It proves nothing about other machines (a router that drops multicast between them
is invisible here); it only tells this machine's own part.  The record is removed
(goodbye packets) and the sockets closed before it returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import secrets
from dataclasses import dataclass

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

ECHO_TYPE = "_sorry-lan-echo._udp.local."
DEFAULT_ECHO_TIMEOUT = 1.5


@dataclass(frozen=True)
class Echo:
    """The result on one address: `came_back`, or `error` when mDNS could not even start."""

    address: str
    came_back: bool
    error: str | None = None


async def async_echo(address: str, timeout: float = DEFAULT_ECHO_TIMEOUT) -> Echo:
    """Send a query on `address`'s interface and wait up to `timeout` s for its answer."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return Echo(address, False, f"not an IP address: {address!r}")
    version = IPVersion.V6Only if ip.version == 6 else IPVersion.V4Only
    try:
        zc = AsyncZeroconf(interfaces=[str(ip)], ip_version=version)
    except (OSError, RuntimeError, ValueError) as exc:
        return Echo(address, False, str(exc) or type(exc).__name__)
    token = secrets.token_hex(5)
    name = f"doctor-{token}.{ECHO_TYPE}"
    info = AsyncServiceInfo(
        ECHO_TYPE,
        name,
        port=9,
        properties={},
        server=f"sorry-lan-doctor-{token}.local.",
        parsed_addresses=[str(ip)],
    )
    try:
        try:
            await zc.async_register_service(info, cooperating_responders=True)
        except Exception as exc:  # zeroconf's registry errors, a dead socket
            return Echo(address, False, str(exc) or type(exc).__name__)
        asked = AsyncServiceInfo(ECHO_TYPE, name)
        came_back = await asked.async_request(zc.zeroconf, int(timeout * 1000))
        return Echo(address, bool(came_back))
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(zc.async_close(), 3)
