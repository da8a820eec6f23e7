"""A laptop whose firewall drops incoming connections (issue 19, the lone rule's failure
case), on a virtual LAN with the real product (``evening.Evening``).

The first laptop of the succession order drops every TCP connection coming in from
the LAN to its standby port (nftables, inside its own namespace): its own
connections go out as usual, but no voter ever reaches it.  When the headless host
is SIGKILLed, the others pass it over and the second laptop takes over with the
third's vote.  The first laptop stands with no votes for D; then, as the lone rule
wants it to before it may ever take over alone, it tests that it reaches nobody (it
walks the order once more), finds the second laptop hosting and follows it in its
own seat.  Before, it took the table
over alone when it saw no mDNS advert (two tables at epoch 2 with one table id), and
stood for good when it had refused the second laptop's advert (its seat lost).
Checked: the first laptop's news names the second laptop, never itself; one laptop
hosted; ``Evening.check`` (the game finishes, every board and move as the journals
say, nobody's seat changed hands).  It does not test a firewall on a laptop that
is not first (the walk passes it over as any unreachable laptop).
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from evening import DELAY, GRACE, MARKS, STEP, Evening
from lanlaptops import lan_fixture
from netns import Machine, VirtualLan
from topology import firewall_tool

pytestmark = [
    *MARKS,
    pytest.mark.timeout(240),
    pytest.mark.skipif(firewall_tool() != "nft", reason="nft is not installed"),
]

STANDBY = 47621  # the first laptop's standby port, the one its firewall drops
TABLE = "sorry_lan_firewall"

lan = lan_fixture(4)  # the module's LAN (lanlaptops)


def _in(machine: Machine, *argv: str, text: str | None = None, check: bool = True) -> None:
    subprocess.run(["ip", "netns", "exec", machine.namespace, *argv], input=text, text=True,
                   check=check, capture_output=True, timeout=15)


def block_inbound(machine: Machine, port: int, *, mdns: bool) -> None:
    """Drop every TCP segment coming in from the LAN to ``port`` on ``machine`` (IPv4
    and IPv6; loopback is let through, as a laptop's firewall does); and unless
    ``mdns``, every mDNS packet coming in (it sees no advert)."""
    quiet = "" if mdns else 'iifname "eth0" udp dport 5353 drop;'
    _in(machine, "nft", "-f", "-", text=(
        f"table inet {TABLE} {{\n"
        "  chain input { type filter hook input priority 0; "
        f'iifname "eth0" tcp dport {port} drop; {quiet} }}\n'
        "}\n"))


def unblock(machine: Machine) -> None:
    _in(machine, "nft", "delete", "table", "inet", TABLE, check=False)


@pytest.mark.parametrize("mdns", [True, False], ids=["adverts", "no-adverts"])
def test_a_first_laptop_nobody_can_reach_follows_the_second(
    lan: VirtualLan, tmp_path: Path, mdns: bool
) -> None:
    """With ``mdns`` the first laptop sees the second's advert at epoch 2 while it
    stands (and refuses it: before, it then stood for good); without, it sees none
    (before, it took over alone)."""
    evening = Evening(lan, tmp_path, "Firewall", players=3, think=0.1)  # D 3 s, G 20 s
    walled = evening.machines[1]  # the first laptop's
    try:
        evening.start_host()
        first = evening.start_laptop(1, standby_port=STANDBY)  # red: first in the order
        evening.joined(first)
        second, third = evening.sit_in_order((), ())
        evening.wait_moves(6)
        block_inbound(walled, STANDBY, mdns=mdns)  # (found the table by mDNS before)
        evening.kill_host()
        took = evening.next_move_after_loss([second, third])
        print(f"the next move came {took:.1f} s after the host was lost")

        def news() -> list[str]:
            return [n for n in evening.shown(first).news if n.startswith("host_changed")]

        evening.wait("the first laptop told who hosts now", news, GRACE + STEP)
        assert evening.lost_at is not None
        followed = time.monotonic() - evening.lost_at
        print(f"{first.label}: {news()[0]}, {followed:.1f} s after")
        # it looked around D after it stood with no vote, not only at the lone rule's G
        assert followed < GRACE, f"followed {followed:.1f} s after (D {DELAY} s, G {GRACE} s)"
        _kind, _pid, epoch, name = news()[0].split(maxsplit=3)
        assert (epoch, name) == ("2", second.label.split("@")[0]), news()
        assert len(evening.finish()) == 1
        evening.check(takeovers=1)
        assert evening.successors() == [second.label.split("@")[0]]
        assert len(news()) == 1, news()
    finally:
        lan.close_agents()
        unblock(walled)
