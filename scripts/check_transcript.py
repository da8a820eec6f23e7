"""Read a whole game's line-mode transcript and check that a listener can follow it.

    python scripts/check_transcript.py FILE --names "Ann,greedy bot 1" [--lang el]

``FILE`` is what ``sorry-lan join --text`` (or ``host --text``) printed, one line
each, ``-`` for standard input.  Every line must be whole sentences (it ends like a
sentence in its language), show no move notation (no arrow, no ``xB1`` bump, no pawn
token ``R1``, no safety-square token ``S3``), no raw list (no brackets or braces),
and name a person: one of ``--names`` or a word the language uses for "you" (the
help list, which names commands, is the one block exempt).  It must also be
playable from what it says: each of the player's turns lists its moves numbered from
1 with no gap before the line asking for a number, and the game's end is told.

Prints the figures (lines, turns offered, moves listed, problems) and each problem
with its line number; exits 1 if there is any problem.  It does not play or run
the game (``tests/tui/test_line_mode_game.py`` drives a real ``join --text``
through whole games and runs this on each transcript).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sorry_lan.i18n import LANGUAGES, _, ngettext, use_language
from sorry_lan.tui.line_help import PHASES, help_lines, number_prompt, you_markers
from sorry_lan.tui.sentences import SENTENCE_ENDS

NOTATION = re.compile(
    r"->|<-|→|=>"  # arrows
    r"|\bx[RBYG][1-4]\b"  # bump notation
    r"|(?<![\w'])[RBYG][1-4](?![\w'])"  # pawn tokens
    r"|(?<!\w)(?:S|\u0391|सु|ປ|ป|D)[1-5](?!\w)"  # safety squares as the boards label them
)
RAW_LIST = re.compile(r"[\[\]{}]|\(\s*\)")


@dataclass
class Report:
    lines: int = 0
    offers: int = 0
    moves: int = 0
    over: bool = False
    problems: list[str] = field(default_factory=list)


def _prefix(template: str, field_name: str) -> str:
    """The text of a translated template before one of its fields."""
    return template.split("{" + field_name + "}")[0]


def _common_start(texts: Sequence[str]) -> str:
    """The longest text every one of ``texts`` starts with."""
    first = texts[0]
    n = 0
    while n < len(first) and all(len(t) > n and t[n] == first[n] for t in texts):
        n += 1
    return first[:n]


def check(lines: Sequence[str], names: Iterable[str], lang: str) -> Report:
    """The figures and problems of one transcript in ``lang``."""
    with use_language(lang):
        helps = {*help_lines(), *(line for phase in PHASES for line in help_lines(phase))}
        people = [n.casefold() for n in names if n] + [w.casefold() for w in you_markers()]
        numbered = [
            _prefix(_("Move {i}: {move}"), "i"),
            _prefix(_("Move {i}, with {card}: {move}"), "i"),
        ]
        asks = {number_prompt(), number_prompt(more=True)}
        won = [
            _prefix(
                ngettext("The game is over: {names} won.", "The game is over: {names} won.", n),
                "names",
            )
            for n in (1, 2)  # one winner, or a team
        ]
        over = _common_start(won)
    report = Report()
    listed: list[int] = []
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        report.lines += 1
        where = f"line {n}: {line[:90]}"
        if not line.rstrip().endswith(SENTENCE_ENDS):
            report.problems.append(f"not a sentence (no end): {where}")
        if NOTATION.search(line):
            report.problems.append(f"move notation: {where}")
        if RAW_LIST.search(line):
            report.problems.append(f"raw list: {where}")
        if line not in helps and not any(p in line.casefold() for p in people):
            report.problems.append(f"names nobody: {where}")
        if line.startswith(over):
            report.over = True
        for prefix in numbered:
            if prefix and line.startswith(prefix):
                digits = re.match(r"\d+", line[len(prefix) :])
                if digits:
                    listed.append(int(digits.group()))
                break
        if line in asks:
            report.offers += 1
            report.moves += len(listed)
            if not listed or listed != list(range(1, len(listed) + 1)):
                report.problems.append(f"moves not numbered 1..n ({listed}) before {where}")
            listed = []
    if report.offers == 0:
        report.problems.append("no turn was offered to the player")
    if not report.over:
        report.problems.append("the end of the game is not told")
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="the transcript, or - for standard input")
    parser.add_argument("--names", default="", help="the players' names, comma-separated")
    parser.add_argument("--lang", default="en", choices=sorted(LANGUAGES))
    args = parser.parse_args(argv)
    text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    report = check(text.splitlines(), args.names.split(","), args.lang)
    print(
        f"{report.lines} lines, {report.offers} turns offered, {report.moves} moves listed, "
        f"game over told: {'yes' if report.over else 'no'}, {len(report.problems)} problems"
    )
    for problem in report.problems:
        print(f"  {problem}")
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
