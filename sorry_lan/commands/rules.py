"""``sorry-lan rules``: print the whole rules of a variant in the player's language.

``sorry-lan rules [--variant V] [--lang L]`` prints the rules text of
:mod:`sorry_lan.handbook` for the variant (standard by default), word-wrapped to the
terminal's width (at most :data:`MOST_COLUMNS`, which reads better), as plain lines on
stdout: no pager, so it pipes and greps.  ``sorry-lan rules moves`` is the rules
oracle (:mod:`.rules_oracle`).  The command plays no game and reads nothing else; the
text and the engine are loaded once the arguments are read.
"""

from __future__ import annotations

import argparse
import shutil
import sys

from sorry_lan.i18n import _, language
from sorry_lan.rules.variants import VARIANTS, Variant

from . import rules_oracle

#: The widest the text is wrapped, however wide the terminal: long lines read badly.
MOST_COLUMNS = 100


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        type=Variant.parse,
        default=Variant.STANDARD,
        metavar=Variant.metavar(),
        help=_("the variant whose rules to print (default: standard)"),
    )
    sub = parser.add_subparsers(dest="rules_command", metavar="QUERY", required=False)
    rules_oracle.add_moves_parser(sub)


def columns() -> int:
    """The width to wrap to: the terminal's (``COLUMNS`` or 80 when not a terminal)."""
    return min(MOST_COLUMNS, shutil.get_terminal_size((80, 24)).columns - 1)


def run(args: argparse.Namespace) -> int:
    if args.rules_command == "moves":
        return rules_oracle.run_moves(args)
    from sorry_lan.handbook import handbook
    from sorry_lan.tui.handbook_lines import rules_lines

    variant = Variant(args.variant).value
    ascii = (sys.stdout.encoding or "").lower().replace("-", "") not in ("utf8", "utf16")
    for line in rules_lines(handbook(language()), variant, columns(), ascii=ascii):
        print(line.rstrip())
    return 0


assert set(VARIANTS) == {v.value for v in Variant}
