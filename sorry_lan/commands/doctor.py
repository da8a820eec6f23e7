"""``sorry-lan doctor``: what this machine looks like to the game, and what to do about it.

It lists the interfaces the game would advertise and search on and the ones it skips
(and why), says whether an mDNS query it sends comes back, which tables answered a
search, whether the game port is free and answers on each address, then one sentence
per problem found with what to do on this operating system.  ``--json`` prints the
same as one object for scripts.  Exit status 0 when nothing looks wrong, 1 otherwise.

The checks are ``sorry_lan.discovery.doctor``'s and the words ``discovery.advice``'s;
this module parses the options and prints.  It sends mDNS on the networks it checks
(that is the point) and opens and closes the game port; it hosts and joins nothing.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from sorry_lan import DEFAULT_PORT
from sorry_lan.commands.argtypes import examples, port_number, seconds
from sorry_lan.i18n import _

if TYPE_CHECKING:
    from sorry_lan.discovery.doctor import Checkup

DEFAULT_BROWSE = 2.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        help=_("the game port to check (default {port})").format(port=DEFAULT_PORT),
    )
    p.add_argument(
        "--timeout",
        type=seconds(60.0),
        default=DEFAULT_BROWSE,
        help=_("how long to search, in seconds (default {seconds})").format(
            seconds=f"{DEFAULT_BROWSE:g}"
        ),
    )
    p.add_argument("--ipv6", action="store_true", help=_("check IPv6 as well as IPv4"))
    p.add_argument("--json", action="store_true", help=_("print a JSON object, for scripts"))
    examples(
        p,
        ("sorry-lan doctor", _("why a table does not show up")),
        ("sorry-lan doctor --ipv6 --json", ""),
    )


def run(args: argparse.Namespace) -> int:
    import asyncio

    from sorry_lan.discovery.doctor import async_checkup, findings

    checkup = asyncio.run(async_checkup(port=args.port, ipv6=args.ipv6, browse=args.timeout))
    if args.json:
        print(json.dumps(as_json(checkup), ensure_ascii=False))
    else:
        print(report(checkup))
    return 1 if findings(checkup) else 0


def as_json(c: Checkup) -> dict[str, Any]:
    """The checkup for scripts: stable keys; `advice` in the player's language."""
    from sorry_lan.discovery.advice import advice
    from sorry_lan.discovery.doctor import findings

    return {
        "platform": c.platform,
        "ipv6": c.ipv6,
        "port": c.port,
        "interfaces": [
            {
                "name": i.name,
                "label": i.label,
                "addresses": list(i.addresses),
                "kind": i.kind.value,
                "used": bool(i.kind.value == "lan" and i.usable(c.ipv6)),
            }
            for i in c.interfaces
        ],
        "searched": list(c.searched),
        "echoes": [
            {"address": e.address, "came_back": e.came_back, "error": e.error} for e in c.echoes
        ],
        "tables": None if c.tables is None else [g.to_json() for g in c.tables],
        "ports": [
            {"address": p.address, "free": p.free, "reachable": p.reachable, "error": p.error}
            for p in c.ports
        ],
        "problems": [
            {"problem": f.problem.value, "about": list(f.about), "advice": advice(f, c.platform)}
            for f in findings(c)
        ],
    }


def _where(address: str, port: int) -> str:
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def report(c: Checkup) -> str:
    """The checkup in the player's words, a fact a line, then the problems."""
    from sorry_lan.discovery.advice import advice, kind_words
    from sorry_lan.discovery.doctor import findings

    head = _("What this machine looks like to sorry-lan ({platform}):")
    lines = [head.format(platform=c.platform)]
    lines += ["", _("Networks:")]
    if not c.interfaces:
        lines.append("  " + _("none (no interface has an address)"))
    for i in c.interfaces:
        lines.append(f"  {i.label}: {', '.join(i.addresses)}")
        lines.append(f"      {kind_words(i, c.ipv6)}")
    lines += ["", _("mDNS (how tables are found):")]
    if not c.echoes:
        lines.append("  " + _("not tried: no network to try it on"))
    for e in c.echoes:
        if e.came_back:
            text = _("a query sent on {address} came back").format(address=e.address)
        elif e.error:
            text = _("cannot use mDNS on {address}: {error}").format(
                address=e.address, error=e.error
            )
        else:
            text = _("a query sent on {address} did not come back").format(address=e.address)
        lines.append(f"  {text}")
    lines += ["", _("Tables that answered:")]
    if c.tables is None:
        why = c.search_error or "?"
        lines.append("  " + _("could not search: {why}").format(why=why))
    elif not c.tables:
        lines.append("  " + _("none"))
    for g in c.tables or ():
        if g.address is not None:
            lines.append(f"  {g.describe()}  ({_where(g.address, g.port)})")
        else:
            where = ", ".join(_where(a, g.port) for a in g.addresses)
            text = _("{table}: its port does not answer ({where})")
            lines.append("  " + text.format(table=g.name, where=where))
    lines += ["", _("Game port {port}:").format(port=c.port)]
    for p in c.ports:
        if p.error:
            text = _("{address}: cannot listen: {error}").format(address=p.address, error=p.error)
        elif not p.free:
            text = _("{address}: in use").format(address=p.address)
        elif p.reachable:
            text = _("{address}: free, and it answers").format(address=p.address)
        else:
            text = _("{address}: free, but it does not answer").format(address=p.address)
        lines.append(f"  {text}")
    problems = findings(c)
    lines.append("")
    if problems:
        lines.append(_("What to do:"))
        lines += [f"  - {advice(f, c.platform)}" for f in problems]
    else:
        lines.append(_("Nothing looks wrong on this machine."))
    return "\n".join(lines)
