"""``sorry-lan rules moves``: the rules oracle, legal moves for a JSON position.

Reads one position (the format is described in ``sorry_lan/rules/notation.py``) from
stdin and prints ``{"moves": [...]}`` on one line.  With ``--jsonl`` it reads one
position per line and answers each line with one line, in order.

Exit status: 0 when every position was valid; 2 when one was not.  Without
``--jsonl`` an invalid position prints one line on stderr and nothing on stdout.
With ``--jsonl`` an invalid line is answered on stdout by ``{"error": "<reason>"}``
(so answers stay aligned with input lines), the reason also goes to stderr with the
line number, the remaining lines are still answered, and the exit status is 2.

This command plays no game and keeps no state between positions.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

_EPILOG = """\
input (one JSON object):
  {"variant": "standard" | "team" | "points",
   "players": ["red", "yellow"],
   "pawns": {"red": ["start", 12, "S3", "home"], "yellow": [...]},
   "turn": "red", "card": "7", "after_two": false}
  locations: "start", "home", a track square 0..59, or "S1".."S5" (own safety zone);
  card: "1" "2" "3" "4" "5" "7" "8" "10" "11" "12" "sorry"; after_two is optional;
  any other key is an error.
output:
  {"moves": [{"move": "<notation>", "result": {"<colour>": [4 locations], ...}}, ...]}
  one entry per distinct legal move; declining the 11, when allowed, is an entry whose
  result equals the input; {"moves": []} when no move is legal.
errors:
  an invalid position exits with status 2 and one line on stderr, nothing on stdout.
  With --jsonl, an invalid line is answered by {"error": "<reason>"} on stdout and
  on stderr (with its line number); later lines are still answered; exit status 2.
"""


def add_moves_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``moves`` under ``sorry-lan rules`` (whose own words print the rules text)."""
    moves = sub.add_parser(
        "moves",
        help="print the legal moves of a JSON position read from stdin",
        description="Print the legal moves of a position read as JSON from stdin.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    moves.add_argument(
        "--jsonl",
        action="store_true",
        help="read one position per line and answer one line per input line, in order",
    )


def run_moves(args: argparse.Namespace) -> int:
    if args.jsonl:
        return answer_lines(sys.stdin, sys.stdout, sys.stderr)
    return answer_one(sys.stdin.read(), sys.stdout, sys.stderr)


def answer_one(text: str, out: TextIO, err: TextIO) -> int:
    """Answer a single position; on error write one line to ``err`` and return 2."""
    from ..rules.notation import PositionError, answer_text

    try:
        answer = answer_text(text)
    except PositionError as exc:
        print(f"sorry-lan rules moves: invalid position: {exc}", file=err)
        return 2
    print(answer, file=out)
    return 0


def answer_lines(lines: TextIO, out: TextIO, err: TextIO) -> int:
    """Answer one position per line, one output line each; 2 if any line was invalid."""
    from ..rules.notation import PositionError, answer_text

    status = 0
    for number, line in enumerate(lines, start=1):
        try:
            answer = answer_text(line)
        except PositionError as exc:
            status = 2
            print(json.dumps({"error": f"invalid position: {exc}"}), file=out)
            print(f"sorry-lan rules moves: line {number}: invalid position: {exc}", file=err)
            continue
        print(answer, file=out)
        out.flush()
    return status
