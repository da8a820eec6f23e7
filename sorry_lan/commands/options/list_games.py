"""``sorry-lan list``'s options, and the data directory and discovery options other
commands share, read before the discovery stack is loaded.

:mod:`sorry_lan.commands.list_games` searches and prints.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sorry_lan.commands.argtypes import examples, seconds
from sorry_lan.i18n import _
from sorry_lan.net.datadir import DATA_DIR_ENV

DEFAULT_TIMEOUT = 2.0  # same as sorry_lan.discovery.DEFAULT_LIST_TIMEOUT (not imported: lazy)


def add_data_dir_argument(p: argparse.ArgumentParser) -> None:
    """``--data-dir``: where the user's seats (and the games played at other tables)
    are kept (shared by list, join and bot)."""
    p.add_argument(
        "--data-dir",
        type=Path,
        help=_(
            "where your seats at tables and the games you played are kept "
            "(default: ${env} or your data dir)"
        ).format(
            env=DATA_DIR_ENV
        ),
    )


def add_discovery_arguments(
    p: argparse.ArgumentParser,
    interface_help: str | None = None,
) -> None:
    """``--interface ADDR`` (repeatable) and ``--ipv6``, shared by the commands that use mDNS."""
    p.add_argument(
        "--interface",
        action="append",
        metavar="ADDR",
        help=_("{what}; default: all").format(
            what=interface_help
            or _("search only the network of this address of yours (repeatable)")
        ),
    )
    p.add_argument("--ipv6", action="store_true", help=_("use IPv6 as well as IPv4 for mDNS"))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--timeout",
        type=seconds(3600.0),
        default=DEFAULT_TIMEOUT,
        help=_("how long to search, in seconds (default {seconds})").format(
            seconds=f"{DEFAULT_TIMEOUT:g}"
        ),
    )
    p.add_argument("--json", action="store_true", help=_("print a JSON array, for scripts"))
    p.add_argument(
        "--first", action="store_true", help=_("stop searching once a joinable game is found")
    )
    p.add_argument(
        "--all", action="store_true", help=_("also list games whose host does not answer")
    )
    add_discovery_arguments(p)
    add_data_dir_argument(p)
    examples(
        p,
        ("sorry-lan list", _("the games on this network")),
        ("sorry-lan list --first --timeout 10 --json", ""),
    )


def run(args: argparse.Namespace) -> int:
    """Search and print: :func:`sorry_lan.commands.list_games.run`."""
    from sorry_lan.commands import list_games

    return list_games.run(args)
