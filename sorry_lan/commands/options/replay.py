"""``sorry-lan replay``'s options, read before the record and the board are loaded.

:mod:`sorry_lan.commands.replay` reads the game and shows it.
"""

from __future__ import annotations

import argparse

from sorry_lan.commands.argtypes import add_look_arguments
from sorry_lan.commands.options.games import add_data_dir_argument
from sorry_lan.i18n import _


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "game",
        metavar="ID|FILE",
        nargs="?",
        help=_("a game record (JSON), or the id of a saved game (default: the newest)"),
    )
    p.add_argument(
        "--game",
        dest="number",
        type=int,
        metavar="N",
        help=_("the table's game N (1 is its first; default: its last)"),
    )
    p.add_argument(
        "--check",
        action="store_true",
        help=_("replay it through the rules; refuse it at the first turn that does not follow"),
    )
    p.add_argument(
        "--text",
        "--screen-reader",
        dest="sentences",
        action="store_true",
        help=_("tell each turn in whole sentences, as the line mode does (for screen readers)"),
    )
    add_look_arguments(p)
    add_data_dir_argument(p)


def run(args: argparse.Namespace) -> int:
    """Replay a game: :func:`sorry_lan.commands.replay.run`."""
    from sorry_lan.commands import replay

    return replay.run(args)
