"""The network doctor's words: what each interface is to the game, and what to do about
each problem, in the player's language and for their operating system.

`kind_words(interface, ipv6)` says whether the game uses an interface or why it skips
it; `advice(finding, platform)` is one sentence per problem with what to do (Windows:
the firewall's switch for Python on private networks; macOS: the Local Network
permission of the terminal app; everywhere: join by the address the host's lobby
shows); `likely_reason(checkup)` is the sentence an empty find screen or `sorry-lan
list` shows.  Pure: it reads a `Checkup`, prints nothing and checks nothing.
"""

from __future__ import annotations

from sorry_lan.discovery.doctor import Checkup, Finding, Problem, likely
from sorry_lan.discovery.interfaces import Kind, NetInterface
from sorry_lan.i18n import _

JOIN_BY_ADDRESS = "sorry-lan join --address HOST:PORT"


def kind_words(interface: NetInterface, ipv6: bool) -> str:
    """Used, or skipped and why (IPv6-only LAN interfaces are skipped without --ipv6)."""
    match interface.kind:
        case Kind.LAN if interface.usable(ipv6):
            return _("used: tables are advertised and searched here")
        case Kind.LAN:
            return _("skipped: IPv6 only (add --ipv6 to use it)")
        case Kind.LOOPBACK:
            return _("skipped: loopback, this machine only")
        case Kind.VPN:
            return _("skipped: a VPN or tunnel")
        case Kind.VIRTUAL:
            return _("skipped: a virtual network (containers or virtual machines)")
        case Kind.LINK_LOCAL:
            return _("skipped: link-local address only (the network gave it no address)")


def _firewall(platform: str) -> str:
    if platform == "win32":
        return _(
            "Windows Firewall is probably blocking Python: in Windows Security, open "
            "Firewall & network protection, then Allow an app through firewall, and tick "
            "Private for Python (and make this network Private in Settings)."
        )
    if platform == "darwin":
        return _(
            "macOS is probably keeping your terminal off the local network: in System "
            "Settings, Privacy & Security, Local Network, switch it on for your terminal "
            "app (Terminal, iTerm), then start sorry-lan again."
        )
    return _(
        "A firewall on this machine is probably dropping mDNS (UDP port 5353): allow it, "
        "for example with `sudo ufw allow 5353/udp` or `sudo firewall-cmd --add-service=mdns`."
    )


def advice(f: Finding, platform: str) -> str:
    """What the problem is and what to do, for `platform` (`sys.platform`'s values)."""
    names = ", ".join(f.about)
    match f.problem:
        case Problem.NO_NETWORK:
            return _(
                "This machine is on no network but itself: connect it to the Wi-Fi or the "
                "cable the other players use."
            )
        case Problem.ONLY_SKIPPED:
            return _(
                "Only a VPN or a virtual network connects this machine ({names}): connect "
                "to the home Wi-Fi or cable, or host with --all-interfaces."
            ).format(names=names)
        case Problem.LINK_LOCAL:
            return _(
                "{names} got no address from the network (link-local only): reconnect to "
                "the Wi-Fi or restart the router."
            ).format(names=names)
        case Problem.IPV6_ONLY:
            return _(
                "This network has IPv6 addresses only ({names}): everyone adds --ipv6 "
                "(`sorry-lan host --ipv6`, `sorry-lan join --ipv6`)."
            ).format(names=names)
        case Problem.ECHO_LOST:
            lost = _("Our own mDNS query did not come back on {addresses}.").format(addresses=names)
            return f"{lost} {_firewall(platform)}"
        case Problem.MULTICAST_IN:
            lost = _(
                "Our own mDNS query did not come back on {addresses}, yet tables answered "
                "this machine directly: joining works, but a table hosted here would not "
                "be found by the others."
            ).format(addresses=names)
            return f"{lost} {_firewall(platform)}"
        case Problem.VPN:
            return _(
                "A VPN is on ({names}): some VPNs take the multicast route; if no table shows "
                "up, turn it off while you play."
            ).format(names=names)
        case Problem.SEVERAL:
            return _(
                "This machine is on several networks ({names}): the other players must be "
                "on one of them; a host's lobby lists the address for each."
            ).format(names=names)
        case Problem.TABLE_UNREACHABLE:
            return _(
                "{names} answered, but its game port does not: the host's firewall blocks "
                "it; the host should let Python through."
            ).format(names=names)
        case Problem.NO_TABLE:
            # Windows Firewall lets this machine's own multicast through: a "no" to
            # Python hides the others' tables even when the echo came back.
            text = _(
                "No table answered: if someone is hosting, the network may block multicast "
                "between machines (guest Wi-Fi, some routers); join by the address the "
                "host's lobby shows: `{command}`."
            ).format(command=JOIN_BY_ADDRESS)
            return f"{text} {_firewall(platform)}" if platform == "win32" else text
        case Problem.PORT_BUSY:
            return _(
                "The game port is in use on {names} (a table already running?): host "
                "with another one, for example --port 47475."
            ).format(names=names)
        case Problem.PORT_UNREACHABLE:
            return _(
                "The game port does not answer on {names} even from this machine: a "
                "firewall blocks it; let Python through."
            ).format(names=names)


def likely_reason(c: Checkup) -> str:
    """The sentence for an empty search: the likeliest reason and what to do."""
    return _("Most likely: {advice}").format(advice=advice(likely(c), c.platform))
