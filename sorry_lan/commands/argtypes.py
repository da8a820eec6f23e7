"""Argument types shared by the commands: ports, counts and times checked as they are read.

Each type raises ``argparse.ArgumentTypeError`` with one sentence, so a bad value ends
in argparse's usage message and exit status 2, never in a traceback deeper down (an
out-of-range port used to reach the socket layer as an OverflowError).  They also
give ``--help`` an example section in one place.  Nothing here runs a command.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from sorry_lan.i18n import _

MAX_PORT = 65535
#: The name a player (``join``) and a bot (``bot``) take at a table where they hold
#: no seat and give no ``--name``.
PLAYER_NAME = "player"
BOT_NAME = "bot"


def port_number(text: str) -> int:
    """A TCP port, 0 (any free port) to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a port number: {text}").format(text=repr(text))
        ) from None
    if not 0 <= value <= MAX_PORT:
        raise argparse.ArgumentTypeError(
            _("a port is between 0 and {high} (0: any free port), not {value}").format(
                high=MAX_PORT, value=value
            )
        )
    return value


def whole(low: int, high: int, what: str) -> Callable[[str], int]:
    """A type for a whole number of ``what`` from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("not a whole number of {what}: {text}").format(what=what, text=repr(text))
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                _("the number of {what} is between {low} and {high}, not {value}").format(
                    what=what, low=low, high=high, value=value
                )
            )
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


def seconds(high: float = 86400.0) -> Callable[[str], float]:
    """A type for a time in seconds from 0 to ``high``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("not a number of seconds: {text}").format(text=repr(text))
            ) from None
        if not math.isfinite(value) or not 0 <= value <= high:
            raise argparse.ArgumentTypeError(
                _("a time is between 0 and {high} seconds").format(high=f"{high:g}")
            )
        return value

    parse.__name__ = "seconds"
    return parse


def examples(parser: argparse.ArgumentParser, *lines: tuple[str, str]) -> None:
    """Show ``lines`` (a command and what it does, in the player's language; "" for
    nothing) as an example section in ``--help``, the comments in one column."""
    from sorry_lan.i18n.cli_help import LocalHelpFormatter

    parser.formatter_class = LocalHelpFormatter
    wide = max((len(command) for command, what in lines if what), default=0)
    shown = [f"  {c.ljust(wide)}   # {what}" if what else f"  {c}" for c, what in lines]
    parser.epilog = _("examples:") + "\n" + "\n".join(shown)


def add_look_arguments(p: argparse.ArgumentParser, *, mouse: bool = True) -> None:
    """``--ascii`` (and, with ``mouse``, ``--no-mouse``): how a command's board is drawn
    and whether it takes clicks, worded the same for every command that draws one."""
    p.add_argument(
        "--ascii",
        action="store_true",
        help=_("draw in plain ASCII (automatic when the locale is not UTF-8, e.g. LANG=C)"),
    )
    if mouse:
        p.add_argument("--no-mouse", action="store_true", help=_("do not take mouse clicks"))
