"""``sorry-lan replay [ID|FILE]``: a game shown again, on the board or a turn a line.

The game is a record file (``protocol/RECORD.md``, made here or elsewhere), or a game
saved on this machine by its id as ``sorry-lan games`` lists it (``--game N``: a
table's earlier game; a game still under way replays as far as it went), or with
neither the newest saved game.  On a terminal it opens the board's replay screen
(``tui/screens/replay.py``: step, jump, play on; q quits); with ``--text`` (or
``--screen-reader``) it tells each turn in whole sentences, as the line mode tells a
game; when the output is no terminal it prints the record a turn a line in the
player's language (the text form ``games --export --format text`` writes too).
``--check`` replays it through the rules, refuses it at the first turn that does not
follow, and prints it a turn a line.

Reading is bounded (``net.kept.read_kept``); a file that is no record, or a refused
one, gets one sentence and exit status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from sorry_lan.codes import Coded, RecordFailure
from sorry_lan.commands.games import journal_dir
from sorry_lan.i18n import _
from sorry_lan.i18n.coded import say
from sorry_lan.i18n.recordwords import record_lines
from sorry_lan.net.kept import listed_games, read_kept, record_of
from sorry_lan.net.saved import find
from sorry_lan.records import RecordError
from sorry_lan.records import check as check_record
from sorry_lan.tui.record_sentences import record_sentences


def read_record(path: Path) -> dict[str, Any]:
    """The record in ``path``, read in bounded memory; :class:`RecordError` if none."""
    return read_kept(path)


def _is_file(game: str) -> bool:
    """``game`` names a file (it is one, or looks like a path), not a saved game's id."""
    path = Path(game)
    return path.is_file() or path.suffix == ".json" or len(path.parts) > 1


def the_record(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """The record asked for and what to call it (a file, or a saved game)."""
    if args.game is not None and _is_file(args.game):
        return read_record(Path(args.game)), args.game
    directory = journal_dir(args)
    games, _notes = listed_games(directory)
    if args.game is None:
        if not games:
            raise RecordError(RecordFailure.NO_SAVED, directory=directory)
        game = games[0]
    else:
        game = find(games, args.game)
    return record_of(game, args.number), game.id


def wants_text(args: argparse.Namespace) -> bool:
    """A turn a line: in sentences, checking, or no terminal to draw the board on."""
    return bool(args.sentences or args.check) or not (sys.stdin.isatty() and sys.stdout.isatty())


def run(args: argparse.Namespace) -> int:
    try:
        record, name = the_record(args)
        if not wants_text(args):
            return _board(args, record, name)
        if args.check:
            check_record(record, name)
        lines = record_sentences(record) if args.sentences else record_lines(record)
    except Coded as exc:
        print(f"sorry-lan replay: {say(exc)}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, AttributeError):
        # A record that loads but was not checked may hold anything in its turns.
        print(f"sorry-lan replay: {say(RecordFailure.NOT_RECORD(path=args.game))}",
              file=sys.stderr)  # fmt: skip
        return 1
    for line in lines:
        print(line)
    if args.check:
        print(_("the record replays through the rules to the same board and result"))
    return 0


def _board(args: argparse.Namespace, record: dict[str, Any], name: str) -> int:
    """The board's replay screen (the record is replayed first: a refused one is
    refused here, before the board opens)."""
    from sorry_lan.replay import from_record
    from sorry_lan.tui.play import TuiOptions
    from sorry_lan.tui.replay_board import run_replay

    tape = from_record(record, name)
    options = TuiOptions(ascii=True if args.ascii else None, mouse=not args.no_mouse)
    return asyncio.run(run_replay(tape, options))
