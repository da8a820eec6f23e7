"""``sorry-lan host``'s options, read and checked before the host's stack is loaded.

A usage error costs no more than Python's start: the values are checked here with
what the command line needs (the name, the game's name and the variant load their
checks only when given); :mod:`sorry_lan.commands.host` runs the table.
"""

from __future__ import annotations

import argparse

from sorry_lan import DEFAULT_PORT
from sorry_lan.bots.strengths import DEFAULT_STRENGTH, STRENGTHS
from sorry_lan.commands.argtypes import add_look_arguments, examples, port_number, seconds, whole
from sorry_lan.commands.options.games import add_data_dir_argument
from sorry_lan.commands.options.list_games import add_discovery_arguments
from sorry_lan.i18n import _
from sorry_lan.net.seating import bot_room
from sorry_lan.rules.variants import Variant


def _name(text: str) -> str:
    from sorry_lan.wire.vocab import NAME

    text = text.strip()
    if not 1 <= len(text) <= 24 or not text.isprintable():
        raise argparse.ArgumentTypeError(_("a name has 1 to 24 printable characters"))
    NAME.check(text, "name")
    return text


def _budget_ms(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a number of milliseconds: {text}").format(text=repr(text))
        ) from None
    if not 1 <= value <= 10_000:
        raise argparse.ArgumentTypeError(_("a bot's budget is 1 to 10000 ms"))
    return value


_seconds = seconds()


def _variant(text: str) -> Variant:
    try:
        return Variant.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("a seed is a whole number, not {text}").format(text=repr(text))
        ) from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(_("a seed is between 0 and 2**63 - 1"))
    return value


def _game_name(text: str) -> str:
    from sorry_lan.discovery import AdvertError, GameAd

    text = text.strip()
    try:
        GameAd(game_name=text, host_player="x", seats_total=4)
    except AdvertError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", type=_name, help=_("your name (and the table's)"))
    p.add_argument(
        "--game-name", type=_game_name, help=_("the game's name on the LAN (default: --name)")
    )
    p.add_argument("--no-mdns", action="store_true", help=_("do not advertise the game on the LAN"))
    add_discovery_arguments(
        p, _("advertise the table only on the network of this address of yours (repeatable)")
    )
    p.add_argument(
        "--all-interfaces",
        action="store_true",
        help=_("advertise on VPNs and virtual networks too (default: home networks only)"),
    )
    p.add_argument(
        "--port",
        type=port_number,
        default=None,
        help=_(
            "TCP port, 0 to 65535 (default {port}; 0: any free port; resuming a table this "
            "laptop took over: the port it hosted on)"
        ).format(port=DEFAULT_PORT),
    )
    p.add_argument(
        "--bind", help=_("address to listen on (default: all of them, IPv4 and, if any, IPv6)")
    )
    p.add_argument(
        "--no-web", action="store_true", help=_("do not serve the game to phones' browsers")
    )
    p.add_argument(
        "--web-port",
        type=port_number,
        help=_("TCP port of the phones' page (default: the game's port + 1)"),
    )
    p.add_argument(
        "--variant",
        type=_variant,
        default=Variant.STANDARD,
        metavar=Variant.metavar(),
        help=_("the rules: standard, team (partners, 4 players) or points (default standard)"),
    )
    p.add_argument(
        "--players",
        type=int,
        default=4,
        choices=(2, 3, 4),
        help=_("seats at a --headless table (default 4; with a board, the lobby has 4)"),
    )
    p.add_argument(
        "--bots",
        type=whole(0, 4, _("bots")),
        default=0,
        help=_("bots to seat from the start (default 0)"),
    )
    p.add_argument(
        "--bot-strength",
        choices=STRENGTHS,
        default=DEFAULT_STRENGTH,
        help=_(
            "how the table's bots play, unless chosen per seat in the lobby; they also "
            "cover players who drop (default {strength})"
        ).format(strength=DEFAULT_STRENGTH),
    )
    p.add_argument(
        "--bot-budget-ms",
        type=_budget_ms,
        default=None,
        help=_("the expert bot's time per decision in milliseconds (default 50)"),
    )
    p.add_argument(
        "--hints",
        action="store_true",
        help=_("players may press h on their turn to see each move's chance to win "
               "(everyone is told)"),
    )
    p.add_argument("--pin", help=_("a PIN players must know to join (never sent in clear)"))
    p.add_argument(
        "--turn-timeout",
        type=_seconds,
        metavar="SECONDS",
        help=_("a bot moves for a player who takes longer than this (default: no limit)"),
    )
    p.add_argument(
        "--grace",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help=_("how long a dropped player's seat waits for them before a bot plays it "
        "(default 60)"),
    )
    p.add_argument(
        "--takeover-delay",
        type=whole(1, 3600, _("seconds")),
        default=15,
        metavar="SECONDS",
        help=_("how long players wait for a lost host before another player's laptop "
        "takes the table over (default 15)"),
    )
    p.add_argument(
        "--headless",
        action="store_true",
        help=_("serve only (no board here); start when the seats are taken"),
    )
    p.add_argument("--stay", action="store_true", help=_("headless: keep serving after the game"))
    p.add_argument(
        "--text",
        "--screen-reader",
        "--no-tui",
        dest="text",
        action="store_true",
        help=_(
            "your player uses the line mode: every event a sentence, for screen readers "
            "(automatic when not on a terminal)"
        ),
    )
    add_look_arguments(p, mouse=False)
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="ID",
        help=_(
            "resume a saved game (`sorry-lan games --ids` lists them; no ID: your unfinished one)"
        ),
    )
    p.add_argument(
        "--salvage",
        action="store_true",
        help=_("with --resume: resume a damaged game's intact part (the damaged file is kept)"),
    )
    add_data_dir_argument(p)
    p.add_argument(
        "--bot-delay",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help=_("bots' thinking time before each move (default 0.8; --headless 0)"),
    )
    p.add_argument(
        "--seed",
        type=_seed,
        help=_("deal reproducible games (rematches too): give the same seed in a bug report"),
    )
    p.add_argument("--hello-timeout", type=_seconds, default=5.0, help=argparse.SUPPRESS)
    examples(
        p,
        ("sorry-lan host --name Ann", _("host and play; others find the table")),
        ("sorry-lan host --bots 3 --variant team", _("you and 3 bots, team play")),
        ("sorry-lan host --headless --players 2 --bots 1 --stay", _("a serving-only table")),
        ("sorry-lan host --pin 4711 --turn-timeout 60", _("private, no dawdling")),
    )


def check(args: argparse.Namespace) -> str | None:
    """A usage error that needs more than one option to see, or None."""
    free = bot_room(args.headless, args.players)
    if args.resume is None and args.bots > free:
        where = f"--players {args.players}" if args.headless else _("your own seat")
        return _("--bots is at most {free} here ({where}), not {bots}").format(
            free=free, where=where, bots=args.bots
        )
    if args.stay and not args.headless:
        return _("--stay goes with --headless (a table you play at stays while you do)")
    return None


def run(args: argparse.Namespace) -> int:
    """Host the table: :func:`sorry_lan.commands.host.run`."""
    from sorry_lan.commands import host

    return host.run(args)
