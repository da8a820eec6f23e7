"""``sorry-lan games``: the games saved on this machine, for people or (``--json``) scripts.

Lists every journal in the data directory, newest first: its id (what ``sorry-lan host
--resume ID`` takes), the table's name, variant, players, moves, when it started and
last moved, and its state (unfinished, finished or damaged, with what is wrong; a game
a running host holds is marked so).  Exits 0, also when there is none.

It resumes nothing and changes no file; reading journals is ``sorry_lan.net.saved``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from sorry_lan.i18n import _, pgettext
from sorry_lan.i18n.coded import say
from sorry_lan.i18n.words import variant_title
from sorry_lan.net.journal import DATA_DIR_ENV, default_dir
from sorry_lan.net.saved import (
    DAMAGED,
    FINISHED,
    UNFINISHED,
    SavedGame,
    saved_games,
)


def add_data_dir_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--data-dir",
        type=Path,
        help=_("where journals are kept (default: ${env} or your data dir)").format(
            env=DATA_DIR_ENV
        ),
    )


def journal_dir(args: argparse.Namespace) -> Path:
    return args.data_dir / "journals" if args.data_dir else default_dir()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help=_("print a JSON array, for scripts"))
    add_data_dir_argument(p)


def _when(t: float | None) -> str:
    return "-" if t is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def state_words(state: str) -> str:
    """A saved game's state (``unfinished``, ``finished``, ``damaged``) for people."""
    return {
        UNFINISHED: pgettext("saved game", "unfinished"),
        FINISHED: pgettext("saved game", "finished"),
        DAMAGED: pgettext("saved game", "damaged"),
    }.get(state, state)


def table_lines(games: list[SavedGame], numbered: bool = False) -> list[str]:
    """The games as aligned text lines (a header first); ``numbered`` puts 1, 2, ...
    in front, for choosing one."""
    head = [
        pgettext("column", "ID"),
        pgettext("column", "STATE"),
        pgettext("column", "TABLE"),
        pgettext("column", "VARIANT"),
        pgettext("column", "PLAYERS"),
        pgettext("column", "MOVES"),
        pgettext("column", "STARTED"),
        pgettext("column", "LAST MOVE"),
    ]
    rows = [head]
    for g in games:
        state = state_words(g.state)
        if g.running:
            state = _("{state} (running)").format(state=state)
        if g.over and g.state != DAMAGED:
            state = _("{state} (game over)").format(state=state)
        rows.append(
            [
                g.id,
                state,
                g.table or g.host or "-",
                variant_title(g.variant) if g.variant else "-",
                ", ".join(g.players) or "-",
                str(g.moves),
                _when(g.started),
                _when(g.last_move),
            ]
        )
    if numbered:
        rows = [["#", *rows[0]]] + [[str(i), *r] for i, r in enumerate(rows[1:], 1)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    out = [lines[0]]
    for g, line in zip(games, lines[1:], strict=True):
        out.append(line)
        if g.problem:
            out.append("    " + _("damaged at {problem}").format(problem=g.problem))
    return out


def run(args: argparse.Namespace) -> int:
    directory = journal_dir(args)
    games, notes = saved_games(directory)
    for note in notes:
        print(f"sorry-lan games: {say(note)}", file=sys.stderr)
    if args.json:
        print(json.dumps([g.as_json() for g in games], indent=2))
        return 0
    if not games:
        print(_("no saved games in {directory}").format(directory=directory))
        return 0
    for line in table_lines(games):
        print(line)
    return 0
