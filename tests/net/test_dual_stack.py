"""Listening on IPv6 beside IPv4 (one port), and ``sorry-lan host`` doing it by default."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from netkit import LOCAL
from netns import has_ipv6_loopback

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.net.client import GameClient
from sorry_lan.net.host import HostOptions, HostServer


@pytest.mark.asyncio
@pytest.mark.skipif(not has_ipv6_loopback(), reason="no IPv6 loopback here")
async def test_one_port_on_ipv4_and_ipv6() -> None:
    server = HostServer(Table(TableConfig(seats=2, auto_start=True, seed=1)), HostOptions())
    # 192.0.2.1 (TEST-NET) is no address of this machine: left out, not an error
    await server.start(LOCAL, 0, None, ("::1", "192.0.2.1"))
    port = server.address[1]
    assert server.also == [("::1", port)]
    a = GameClient("::1", port, "ann")
    b = GameClient(LOCAL, port, "bob")
    try:
        await a.connect()
        await b.connect()
        assert a.model.colour is not None and b.model.colour is not None
    finally:
        await a.close()
        await b.close()
        await server.close()


def _netns_works() -> bool:
    if sys.platform != "linux" or not shutil.which("unshare") or not shutil.which("ip"):
        return False
    done = subprocess.run(["unshare", "-rn", "ip", "link", "set", "lo", "up"], capture_output=True)
    return done.returncode == 0


# In a network namespace of its own (only lo): a host with the default --bind, its
# phones' page asked for the table on IPv4 and IPv6, and a bot that joins it over
# IPv6; the game runs to its end.
PAGES = r"""
import sys, urllib.request
for address in ("127.0.0.1", "[::1]"):
    with urllib.request.urlopen(f"http://{address}:{sys.argv[1]}/table", timeout=10) as r:
        print("page", address, r.read().decode())
"""
SCRIPT = r"""
ip link set lo up
"$PY" -m sorry_lan host --headless --no-mdns --port 0 --players 2 --bots 1 \
    --data-dir "$DATA" > "$DATA/host.out" 2>&1 &
host=$!
for _ in $(seq 100); do grep -q "Phones join" "$DATA/host.out" && break; sleep 0.1; done
port=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$DATA/host.out")
web=$(sed -n 's/^Phones join in a browser at .*:\([0-9]*\)$/\1/p' "$DATA/host.out")
"$PY" -c "$PAGES" "$web"
"$PY" -m sorry_lan bot --address "[::1]:$port" > "$DATA/bot.out" 2>&1
echo "bot exited $?"
wait $host
echo "host exited $?"
cat "$DATA/host.out"
"""


@pytest.mark.skipif(not _netns_works(), reason="needs a network namespace (unshare -rn)")
def test_the_host_listens_on_ipv6_by_default(tmp_path: Path) -> None:
    done = subprocess.run(
        ["unshare", "-rn", "sh", "-c", SCRIPT],
        env={"PY": sys.executable, "DATA": str(tmp_path), "PATH": "/usr/sbin:/usr/bin:/bin",
             "PAGES": PAGES},
        capture_output=True,
        text=True,
        timeout=50,
    )
    out = done.stdout
    assert "bot exited 0" in out and "host exited 0" in out, out + done.stderr
    assert "also listening on [::]:" in out and "(IPv6)" in out
    assert "game over" in out
    assert 'page 127.0.0.1 {"table": "' in out and 'page [::1] {"table": "' in out, out


def test_the_lobby_names_ipv6_addresses_when_the_table_listens_on_ipv6(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from argparse import Namespace

    import sorry_lan.discovery.hosting
    from sorry_lan.commands.host import _join_hint
    from sorry_lan.discovery.interfaces import Kind, NetInterface

    # This machine has the two addresses (the hint names only addresses it has).
    eth0 = NetInterface("eth0", "eth0", ("192.168.1.5", "fd00::5"), Kind.LAN)
    monkeypatch.setattr(sorry_lan.discovery.hosting, "read_interfaces", lambda: [eth0])

    args = Namespace(bind=None, interface=["192.168.1.5", "fd00::5"], ipv6=False)
    hint = _join_hint(args, 47474, advertised=False, ipv6=True)
    lines = hint.splitlines()  # the commands one a line, as typed, after their network
    assert "  eth0: sorry-lan join --address 192.168.1.5:47474" in lines
    assert "  eth0: sorry-lan join --address [fd00::5]:47474" in lines
    v4_only = Namespace(bind=None, interface=["192.168.1.5"], ipv6=False)
    assert "[" not in _join_hint(v4_only, 47474, advertised=True, ipv6=False)
