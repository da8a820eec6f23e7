"""``sorry-lan join``'s options, read and checked before the client's stack is loaded.

The address and the colour load their parsers only when given;
:mod:`sorry_lan.commands.join` finds the table and plays.
"""

from __future__ import annotations

import argparse

from sorry_lan.commands.argtypes import PLAYER_NAME as DEFAULT_NAME
from sorry_lan.commands.argtypes import add_look_arguments, examples
from sorry_lan.commands.options.list_games import add_data_dir_argument
from sorry_lan.commands.options.successor import add_standby_arguments
from sorry_lan.i18n import _
from sorry_lan.i18n.words import parse_colour


def address_arg(text: str) -> tuple[str, int]:
    """``--address`` for argparse: (host, port), or argparse's error with the reason."""
    from sorry_lan.net.address import AddressError, parse_address

    try:
        return parse_address(text)
    except AddressError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _colour(text: str) -> int:
    try:
        return parse_colour(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--address", type=address_arg, help=_("HOST:PORT of the table (skips the search)")
    )
    p.add_argument(
        "--name", help=_("your name at the table (default: your seat's, or {name})").format(
            name=repr(DEFAULT_NAME)
        )
    )
    p.add_argument("--colour", "--color", type=_colour, help=_("the colour you would like"))
    p.add_argument("--pin", help=_("the table's PIN, if it has one"))
    p.add_argument("--spectate", action="store_true", help=_("watch without a seat"))
    p.add_argument(
        "--text",
        "--screen-reader",
        "--no-tui",
        dest="text",
        action="store_true",
        help=_(
            "the line mode instead of the board: every event a sentence, for screen readers "
            "(automatic when not on a terminal)"
        ),
    )
    add_look_arguments(p)
    p.add_argument(
        "--interface",
        action="append",
        metavar="ADDR",
        help=_("search for games on this interface address only (repeatable)"),
    )
    p.add_argument("--ipv6", action="store_true", help=_("search over IPv6 as well"))
    add_standby_arguments(p)
    add_data_dir_argument(p)
    examples(
        p,
        ("sorry-lan join", _("find games on the LAN, choose one")),
        ("sorry-lan join --address 192.168.1.20:47474 --name Bob --colour blue", ""),
        ("sorry-lan join --spectate", _("watch a game without a seat")),
        ("sorry-lan join --screen-reader", _("play by ear: every event a sentence")),
    )


def run(args: argparse.Namespace) -> int:
    """Join a table: :func:`sorry_lan.commands.join.run`."""
    from sorry_lan.commands import join

    return join.run(args)
