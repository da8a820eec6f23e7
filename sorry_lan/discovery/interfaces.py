"""This machine's network interfaces as the game sees them: which it uses, which it skips.

`classify(name, description, addresses)` is a pure function over what the
operating system reports for one interface (its name, on Windows its description
too, and its addresses): a home network (`Kind.LAN`), this machine only
(`LOOPBACK`), a VPN (`VPN`: Linux `tun`/`tap`/`wg`/`ppp`, macOS `utun`/`ipsec`,
Windows' TAP, WireGuard, Tailscale, ZeroTier and company adapters), a virtual
bridge of containers or virtual machines (`VIRTUAL`: `docker0`, `br-<id>`,
`virbr0`, `veth*`, `vboxnet*`, `vmnet*`, macOS `bridge100`, Windows Hyper-V,
VirtualBox and VMware adapters) or an interface with link-local addresses only
(`LINK_LOCAL`: the network gave it no address).  `read_interfaces()` reads the
machine's interfaces through ifaddr (Linux, macOS and Windows alike) and
classifies each; `lan_addresses` picks the addresses a table is advertised and
searched on.

It sends nothing and opens no socket.  A name it does not know is a LAN: an
unknown adapter is far more often a real network card than a tunnel.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import ifaddr


class Kind(StrEnum):
    """What one interface is, to the game."""

    LAN = "lan"
    LOOPBACK = "loopback"
    VPN = "vpn"
    VIRTUAL = "virtual"
    LINK_LOCAL = "link-local"


# System names (Linux, macOS, BSD): the prefix up to the unit number.
_VPN_NAMES = re.compile(
    r"^(tun|tap|utun|wg|ppp|ipsec|gif|stf|gpd|tailscale|zt|nordlynx|proton|mullvad|cscotun|vpn|wt)"
    r"[0-9a-z_.-]*$",
    re.IGNORECASE,
)
_VIRTUAL_NAMES = re.compile(
    r"^(docker\d*|br-[0-9a-f]{6,}|virbr\d+(-nic)?|veth[0-9a-z@.-]*|vboxnet\d+|vmnet\d+"
    r"|lxcbr\d+|lxdbr\d+|incusbr\d+|podman\d+|cni\d+|cni-podman\d+|flannel[.\d]*|cali[0-9a-f]+"
    r"|vxlan[.\d]*|vnet\d+|bridge\d{3,}|anpi\d+|ap\d+|kube-bridge)$",
    re.IGNORECASE,
)
_LOOPBACK_NAMES = re.compile(r"^lo\d*$", re.IGNORECASE)
# Windows descriptions ("TAP-Windows Adapter V9", "Hyper-V Virtual Ethernet Adapter").
_VPN_WORDS = re.compile(
    r"\b(vpn|tap-windows|tap adapter|wintun|wireguard|tailscale|zerotier|openvpn|anyconnect"
    r"|fortinet|fortissl|globalprotect|pangp|nordlynx|juniper|pulse secure|sonicwall|hamachi"
    r"|tunnel|teredo|isatap|6to4)\b",
    re.IGNORECASE,
)
_VIRTUAL_WORDS = re.compile(
    r"\b(hyper-v|vethernet|virtualbox|vmware|virtual ethernet|host-only|docker|wsl)\b",
    re.IGNORECASE,
)
_LOOPBACK_WORDS = re.compile(r"\bloopback\b", re.IGNORECASE)


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return None


def classify(name: str, description: str, addresses: Sequence[str]) -> Kind:
    """What the interface called `name` (described as `description`, Windows' adapter
    name; the same as `name` elsewhere) with `addresses` is: see the module docstring.

    Loopback, VPN and virtual are told by name first, then by description; an
    interface with nothing but loopback addresses is loopback; one whose other
    addresses are all link-local (169.254.x.x, fe80::) is `LINK_LOCAL`.
    """
    parsed = [ip for ip in (_ip(a) for a in addresses) if ip is not None]
    if _LOOPBACK_NAMES.match(name) or _LOOPBACK_WORDS.search(description):
        return Kind.LOOPBACK
    if parsed and all(ip.is_loopback for ip in parsed):
        return Kind.LOOPBACK
    if _VPN_NAMES.match(name) or _VPN_WORDS.search(description):
        return Kind.VPN
    if _VIRTUAL_NAMES.match(name) or _VIRTUAL_WORDS.search(description):
        return Kind.VIRTUAL
    if all(ip.is_link_local or ip.is_loopback for ip in parsed):
        return Kind.LINK_LOCAL
    return Kind.LAN


@dataclass(frozen=True)
class NetInterface:
    """One interface: its system `name`, the `label` a player recognises (Windows'
    adapter description; the name elsewhere), its addresses (IPv6 without a scope)
    and what it is."""

    name: str
    label: str
    addresses: tuple[str, ...]
    kind: Kind
    index: int | None = None

    @property
    def ipv4(self) -> tuple[str, ...]:
        """Its IPv4 addresses that are not link-local."""
        return tuple(a for a in self.addresses if _usable(a, 4))

    @property
    def ipv6(self) -> tuple[str, ...]:
        """Its IPv6 addresses that are not link-local."""
        return tuple(a for a in self.addresses if _usable(a, 6))

    def usable(self, ipv6: bool) -> tuple[str, ...]:
        """The addresses the game would use here: IPv4, and IPv6 too with `ipv6`."""
        return self.ipv4 + (self.ipv6 if ipv6 else ())


def _usable(address: str, version: int) -> bool:
    ip = _ip(address)
    return ip is not None and ip.version == version and not ip.is_link_local


def _raw(ip: ifaddr.IP) -> str:
    return ip.ip if isinstance(ip.ip, str) else ip.ip[0]


def read_interfaces(adapters: Iterable[ifaddr.Adapter] | None = None) -> list[NetInterface]:
    """This machine's interfaces with an address, classified (`adapters`: ifaddr's, for
    tests; default: read them now).  Sorted: LAN first, then by name."""
    out: list[NetInterface] = []
    for adapter in ifaddr.get_adapters() if adapters is None else adapters:
        addresses: list[str] = []
        for ip in adapter.ips:
            parsed = _ip(_raw(ip))
            if parsed is not None and str(parsed) not in addresses:
                addresses.append(str(parsed))
        if not addresses:
            continue
        name = str(adapter.name)
        # Windows: the adapter's description, and each address carries the name the
        # player gave the connection ("Wi-Fi", "vEthernet (WSL)"); elsewhere all = name.
        friendly = next((str(ip.nice_name) for ip in adapter.ips if ip.nice_name), name)
        description = str(adapter.nice_name or name)
        label = friendly if friendly != name else description
        kind = classify(name, f"{description} {friendly}", addresses)
        out.append(NetInterface(name, label, tuple(addresses), kind, adapter.index))
    order = list(Kind)
    return sorted(out, key=lambda i: (order.index(i.kind), i.name))


def lan_addresses(interfaces: Sequence[NetInterface], ipv6: bool) -> list[str]:
    """The addresses of the LAN interfaces (IPv6 ones with `ipv6`), IPv4 first; the
    loopback addresses when there is no LAN (then only this machine can take part)."""
    found = [a for i in interfaces if i.kind is Kind.LAN for a in i.usable(ipv6)]
    if not found:
        found = [a for i in interfaces if i.kind is Kind.LOOPBACK for a in i.usable(ipv6)]
        if not found:
            found = ["127.0.0.1", *(["::1"] if ipv6 else [])]
    unique = list(dict.fromkeys(found))
    return sorted(unique, key=lambda a: (":" in a, a))
