"""Interface classification by the names and addresses Linux, macOS and Windows report,
and reading them through ifaddr (fake adapters: nothing is sent)."""

from __future__ import annotations

import ifaddr
import pytest

from sorry_lan.discovery.interfaces import (
    Kind,
    NetInterface,
    classify,
    lan_addresses,
    read_interfaces,
)

LAN4 = ["192.168.1.20", "fe80::1c2d:3eff:fe4f:5a6b"]

LINUX = [
    ("eth0", Kind.LAN),
    ("enp3s0", Kind.LAN),
    ("wlp2s0", Kind.LAN),
    ("wlan0", Kind.LAN),
    ("br0", Kind.LAN),  # a bridge the LAN itself runs through (not docker's)
    ("lo", Kind.LOOPBACK),
    ("tun0", Kind.VPN),
    ("tap1", Kind.VPN),
    ("wg0", Kind.VPN),
    ("ppp0", Kind.VPN),
    ("tailscale0", Kind.VPN),
    ("zt5u4y6abc", Kind.VPN),
    ("nordlynx", Kind.VPN),
    ("docker0", Kind.VIRTUAL),
    ("br-3f2a9c1d7e4b", Kind.VIRTUAL),
    ("virbr0", Kind.VIRTUAL),
    ("veth9a8b7c6", Kind.VIRTUAL),
    ("vboxnet0", Kind.VIRTUAL),
    ("vmnet8", Kind.VIRTUAL),
    ("lxcbr0", Kind.VIRTUAL),
    ("podman0", Kind.VIRTUAL),
    ("cni0", Kind.VIRTUAL),
]

MACOS = [
    ("en0", Kind.LAN),
    ("en7", Kind.LAN),
    ("lo0", Kind.LOOPBACK),
    ("utun0", Kind.VPN),
    ("utun4", Kind.VPN),
    ("ipsec0", Kind.VPN),
    ("gif0", Kind.VPN),
    ("bridge100", Kind.VIRTUAL),  # Internet Sharing, a virtual machine's network
    ("vmnet1", Kind.VIRTUAL),
    ("anpi0", Kind.VIRTUAL),
]

# (system name: a GUID, description, the connection's own name)
WINDOWS = [
    ("Intel(R) Wi-Fi 6 AX201 160MHz", "Wi-Fi", Kind.LAN),
    ("Realtek PCIe GbE Family Controller", "Ethernet", Kind.LAN),
    ("Software Loopback Interface 1", "Loopback Pseudo-Interface 1", Kind.LOOPBACK),
    ("TAP-Windows Adapter V9", "OpenVPN TAP", Kind.VPN),
    ("WireGuard Tunnel", "home-vpn", Kind.VPN),
    ("Tailscale Tunnel", "Tailscale", Kind.VPN),
    ("ZeroTier Virtual Port", "ZeroTier One [8056c2e21c000001]", Kind.VPN),
    ("Cisco AnyConnect Secure Mobility Client Virtual Miniport Adapter", "Ethernet 3", Kind.VPN),
    ("Hyper-V Virtual Ethernet Adapter", "vEthernet (WSL)", Kind.VIRTUAL),
    ("Hyper-V Virtual Ethernet Adapter #2", "vEthernet (Default Switch)", Kind.VIRTUAL),
    ("VirtualBox Host-Only Ethernet Adapter", "Ethernet 2", Kind.VIRTUAL),
    ("VMware Virtual Ethernet Adapter for VMnet8", "VMware Network Adapter VMnet8", Kind.VIRTUAL),
    ("Teredo Tunneling Pseudo-Interface", "Teredo", Kind.VPN),
]
GUID = "{846EE342-7039-11DE-9D20-806E6F6E6963}"


@pytest.mark.parametrize(("name", "kind"), LINUX)
def test_linux_names(name: str, kind: Kind) -> None:
    addresses = ["127.0.0.1"] if kind is Kind.LOOPBACK else LAN4
    assert classify(name, name, addresses) is kind


@pytest.mark.parametrize(("name", "kind"), MACOS)
def test_macos_names(name: str, kind: Kind) -> None:
    addresses = ["127.0.0.1", "::1"] if kind is Kind.LOOPBACK else LAN4
    assert classify(name, name, addresses) is kind


@pytest.mark.parametrize(("description", "friendly", "kind"), WINDOWS)
def test_windows_descriptions(description: str, friendly: str, kind: Kind) -> None:
    addresses = ["127.0.0.1", "::1"] if kind is Kind.LOOPBACK else LAN4
    assert classify(GUID, f"{description} {friendly}", addresses) is kind


def test_addresses_decide_when_the_name_does_not() -> None:
    # Only link-local addresses: the network gave it none (DHCP failed, awdl0, llw0).
    assert classify("en1", "en1", ["169.254.12.7"]) is Kind.LINK_LOCAL
    assert classify("awdl0", "awdl0", ["fe80::a4b1:c2ff:fed3:e4f5%awdl0"]) is Kind.LINK_LOCAL
    assert classify(GUID, "Intel(R) Wi-Fi 6", ["169.254.3.4", "fe80::1"]) is Kind.LINK_LOCAL
    # Loopback addresses under another name, and an IPv6-only LAN.
    assert classify("lo1", "lo1", ["127.0.0.2"]) is Kind.LOOPBACK
    assert classify("dummy0", "dummy0", ["127.0.0.9"]) is Kind.LOOPBACK
    assert classify("eth0", "eth0", ["fd77:1::11", "fe80::1"]) is Kind.LAN
    # A VPN with a link-local address only is still a VPN (its name says so).
    assert classify("utun3", "utun3", ["fe80::2"]) is Kind.VPN
    # An unknown name with a private address is a LAN; so is one we cannot parse.
    assert classify("xyz9", "xyz9", ["10.1.2.3", "not-an-address"]) is Kind.LAN


def _adapter(
    name: str, ips: list[tuple[str | tuple[str, int, int], str]], nice: str = ""
) -> ifaddr.Adapter:
    return ifaddr.Adapter(
        name, nice or name, [ifaddr.IP(ip, 24, friendly) for ip, friendly in ips], index=3
    )


def test_read_interfaces_classifies_each_and_puts_the_lan_first() -> None:
    adapters = [
        _adapter("tun0", [("10.8.0.2", "tun0")]),
        _adapter("lo", [("127.0.0.1", "lo"), (("::1", 0, 0), "lo")]),
        _adapter("eth0", [("192.168.1.20", "eth0"), (("fe80::1", 0, 2), "eth0")]),
        _adapter("docker0", [("172.17.0.1", "docker0")]),
        _adapter("down0", []),  # no address: not listed
        _adapter(GUID, [("192.168.7.5", "Wi-Fi")], nice="Intel(R) Wi-Fi 6 AX201"),
    ]
    got = read_interfaces(adapters)
    assert [(i.name, i.label, i.kind) for i in got] == [
        ("eth0", "eth0", Kind.LAN),
        (GUID, "Wi-Fi", Kind.LAN),  # Windows: the connection's own name is what players know
        ("lo", "lo", Kind.LOOPBACK),
        ("tun0", "tun0", Kind.VPN),
        ("docker0", "docker0", Kind.VIRTUAL),
    ]
    assert got[0].addresses == ("192.168.1.20", "fe80::1")
    assert got[0].ipv4 == ("192.168.1.20",) and got[0].ipv6 == ()


def test_read_interfaces_reads_this_machine_without_sending() -> None:
    got = read_interfaces()
    assert got, "every machine has at least a loopback interface"
    assert all(isinstance(i, NetInterface) and i.addresses for i in got)


def _iface(name: str, kind: Kind, *addresses: str) -> NetInterface:
    return NetInterface(name, name, addresses, kind)


def test_lan_addresses_skip_vpns_and_virtual_networks() -> None:
    interfaces = [
        _iface("eth0", Kind.LAN, "192.168.1.20", "fd00::20", "fe80::1"),
        _iface("wlan0", Kind.LAN, "10.0.0.7"),
        _iface("tun0", Kind.VPN, "10.8.0.2"),
        _iface("docker0", Kind.VIRTUAL, "172.17.0.1"),
        _iface("lo", Kind.LOOPBACK, "127.0.0.1", "::1"),
    ]
    assert lan_addresses(interfaces, False) == ["10.0.0.7", "192.168.1.20"]
    assert lan_addresses(interfaces, True) == ["10.0.0.7", "192.168.1.20", "fd00::20"]
    # No LAN: loopback only (this machine's own players), never the VPN.
    assert lan_addresses(interfaces[2:], False) == ["127.0.0.1"]
    assert lan_addresses(interfaces[2:], True) == ["127.0.0.1", "::1"]
    assert lan_addresses([], False) == ["127.0.0.1"]
