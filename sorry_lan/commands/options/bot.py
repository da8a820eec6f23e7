"""``sorry-lan bot``'s options, read and checked before the bot's client is loaded.

:mod:`sorry_lan.commands.bot` finds the table and plays.
"""

from __future__ import annotations

import argparse

from sorry_lan.bots.strengths import DEFAULT_STRENGTH, STRENGTHS
from sorry_lan.commands.argtypes import BOT_NAME as DEFAULT_NAME
from sorry_lan.commands.argtypes import examples, seconds, whole
from sorry_lan.commands.options.join import address_arg
from sorry_lan.commands.options.list_games import add_data_dir_argument, add_discovery_arguments
from sorry_lan.commands.options.successor import add_standby_arguments
from sorry_lan.i18n import _

DEFAULT_FIND_TIMEOUT = 10.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--address",
        type=address_arg,
        help=_("HOST:PORT of the table (default: find one on the LAN)"),
    )
    p.add_argument("--game", metavar="NAME", help=_("without --address: join only this game"))
    p.add_argument(
        "--timeout",
        type=seconds(),
        default=DEFAULT_FIND_TIMEOUT,
        help=_("without --address: how long to look for a game (default {seconds} s)").format(
            seconds=f"{DEFAULT_FIND_TIMEOUT:g}"
        ),
    )
    add_discovery_arguments(p)
    p.add_argument(
        "--strength", choices=STRENGTHS, default=DEFAULT_STRENGTH,
        help=_(
            "how the bot plays (default {strength}); the host's own bots of a "
            "strength play the same moves"
        ).format(strength=DEFAULT_STRENGTH),
    )
    p.add_argument(
        "--name", help=_("the bot's name at the table (default: its seat's, or {name})").format(
            name=repr(DEFAULT_NAME)
        )
    )
    p.add_argument("--pin", help=_("the table's PIN, if it has one"))
    p.add_argument(
        "--think",
        type=seconds(60),
        default=0.0,
        metavar="SECONDS",
        help=_("seconds to wait before each move (default 0)"),
    )
    p.add_argument(
        "--games",
        type=whole(1, 100000, _("games")),
        default=1,
        help=_("games to play before leaving (default 1)"),
    )
    p.add_argument(
        "--moves",
        action="store_true",
        help=_("also say each move as it is played (its state id, colour and notation)"),
    )
    add_standby_arguments(p)
    add_data_dir_argument(p)
    examples(
        p,
        ("sorry-lan bot", _("join the game found on the LAN")),
        ("sorry-lan bot --address 192.168.1.20:47474 --strength random --games 3", ""),
    )


def run(args: argparse.Namespace) -> int:
    """Play as a bot: :func:`sorry_lan.commands.bot.run`."""
    from sorry_lan.commands import bot

    return bot.run(args)
