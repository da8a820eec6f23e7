"""argparse's own words (``usage:``, ``options:``, ``-h``'s help) in the player's language.

argparse translates through the ``argparse`` gettext domain, which has no catalogs for
these languages; :func:`localise` puts this program's messages in its place through
argparse's public hooks (a formatter class, group titles, the help actions' texts) and
the parser's ``error`` (its ``error:`` and ``argument --x:`` prefixes; argparse's other
complaints, such as an unknown option, stay in English).
It changes only parsers it is given and adds no options.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from typing import NoReturn

from . import _


class LocalHelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help with a translated ``usage:`` prefix; descriptions keep their line breaks."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


def localise(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Translate ``parser``'s built-in words in place (and return it)."""
    parser.formatter_class = LocalHelpFormatter
    parser._positionals.title = _("positional arguments")
    parser._optionals.title = _("options")
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            action.help = _("show this help message and exit")
        elif isinstance(action, argparse._VersionAction):
            action.help = _("show the program's version and exit")

    def error(message: str) -> NoReturn:
        found = _ARGUMENT.fullmatch(message)
        if found is not None:
            message = _("argument {option}: {problem}").format(
                option=found.group(1), problem=found.group(2)
            )
        parser.print_usage(sys.stderr)
        text = _("{prog}: error: {message}").format(prog=parser.prog, message=message)
        parser.exit(2, text + "\n")

    parser.error = error  # type: ignore[method-assign]
    return parser


_ARGUMENT = re.compile(r"argument (\S+): (.*)", re.DOTALL)
