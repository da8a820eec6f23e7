"""argparse's own words (``usage:``, ``options:``, ``-h``'s help) in the player's language.

argparse translates through the ``argparse`` gettext domain, which has no catalogs for
these languages; :func:`localise` puts this program's messages in its place through
argparse's public hooks (a formatter class, group titles, the help actions' texts).
It changes only parsers it is given and adds no options.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

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
    return parser
