"""``sorry-lan games``'s options, and the journals' ``--data-dir`` other commands share,
read before the journals are.

:mod:`sorry_lan.commands.games` lists, exports and counts the saved games.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sorry_lan.i18n import _
from sorry_lan.net.datadir import DATA_DIR_ENV


def add_data_dir_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--data-dir",
        type=Path,
        help=_("where journals are kept (default: ${env} or your data dir)").format(
            env=DATA_DIR_ENV
        ),
    )


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help=_("print a JSON array, for scripts"))
    p.add_argument(
        "--ids", action="store_true",
        help=_("under each game, its id (for replay, --export and host --resume)"),
    )  # fmt: skip
    p.add_argument(
        "--stats", action="store_true",
        help=_("per player: games played and won, by variant and player count, and streaks"),
    )  # fmt: skip
    p.add_argument(
        "--export",
        metavar="ID",
        help=_("write the record of saved game ID (see protocol/RECORD.md)"),
    )
    p.add_argument(
        "--game", type=int, metavar="N",
        help=_("with --export: the table's game N (1 is its first; default: the last)"),
    )  # fmt: skip
    p.add_argument(
        "--format", choices=("json", "text"), default="json",
        help=_("with --export: JSON, or text with one turn a line"),
    )  # fmt: skip
    p.add_argument("--chat", action="store_true", help=_("with --export: include the chat"))
    p.add_argument(
        "-o", "--output", type=Path, metavar="FILE",
        help=_("with --export: write to FILE, not to the terminal"),
    )  # fmt: skip
    add_data_dir_argument(p)


def run(args: argparse.Namespace) -> int:
    """List the saved games: :func:`sorry_lan.commands.games.run`."""
    from sorry_lan.commands import games

    return games.run(args)
