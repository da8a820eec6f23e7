"""The ``sorry-lan`` command line: a thin dispatcher over ``sorry_lan.commands``.

Each subcommand has a module (under ``sorry_lan.commands``) exposing
``add_arguments(parser)``, perhaps ``check(args)``, and ``run(args) -> int``; only the
module of the command asked for is imported.  For the commands with a stack to load
it is their options module (:mod:`sorry_lan.commands.options`), whose ``run`` loads
the stack: arguments are read and checked first, so ``--help`` or a usage error cost
little more than Python's start.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from . import __version__
from .i18n import LANGUAGES, N_, UnknownLanguage, _, choose_language, set_language
from .i18n.cli_help import localise
from .i18n.logwords import log_line

# command name -> (module, one-line help: translated when the parser is built)
COMMANDS: dict[str, tuple[str, str]] = {
    "host": ("options.host", N_("host a game on this machine (advertised on the LAN)")),
    "join": ("options.join", N_("find a game on the LAN (or give --address) and play it")),
    "list": ("options.list_games", N_("print the games found on the LAN")),
    "doctor": ("doctor", N_("check why tables do not show up: this machine's networks and mDNS")),
    "bot": ("options.bot", N_("join a game as a bot player")),
    "games": (
        "options.games",
        N_("list the games saved on this machine (to resume with host --resume)"),
    ),
    "replay": (
        "options.replay", N_("replay a game on the board, or print it a turn a line (--text)")
    ),
    "rules": ("rules", N_("print the rules of the game; rules moves: legal moves as JSON")),
    "simulate": ("options.simulate", N_("play bot games locally and print statistics")),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with ``only``, just that command's module is imported."""
    parser = argparse.ArgumentParser(
        prog="sorry-lan", description=_("The Sorry! board game over a home network.")
    )
    parser.add_argument("--version", action="version", version=f"sorry-lan {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_lang(parser)
    localise(parser)
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=_(help_text), description=_(help_text))
        _add_lang(p)
        localise(p)
        if only is None or name == only:
            mod = importlib.import_module(f"sorry_lan.commands.{module}")
            mod.add_arguments(p)
            p.set_defaults(_run=mod.run, _check=getattr(mod, "check", None), _parser=p)
    return parser


def _add_lang(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--lang",
        metavar="CODE",
        help=_("language to show ({codes}; default: from the locale)").format(
            codes=", ".join(LANGUAGES)
        ),
    )


def _lang_in(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` in ``argv`` (read before the parser: help is translated)."""
    value = None
    for i, word in enumerate(argv):
        if word == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif word.startswith("--lang="):
            value = word.partition("=")[2]
    return value


def _command_in(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv`` (the first word that is not an option)."""
    after_lang = False
    for word in argv:
        if after_lang:
            after_lang = False
        elif word == "--lang":
            after_lang = True
        elif not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


class _TerminalLog(logging.Handler):
    """Warnings on the command's stderr, in the player's words.  Like logging's last
    resort it speaks only while no other handler listens (the board shows them in its
    log instead, and tests capture them)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.command = ""

    def emit(self, record: logging.LogRecord) -> None:
        if any(h is not self for h in logging.getLogger().handlers):
            return
        try:
            print(f"sorry-lan {self.command}: {log_line(record)}", file=sys.stderr, flush=True)
        except Exception:
            self.handleError(record)


_terminal_log = _TerminalLog()


def _log_to_terminal(command: str) -> None:
    _terminal_log.command = command
    root = logging.getLogger()
    if _terminal_log not in root.handlers:
        root.addHandler(_terminal_log)


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    try:
        set_language(choose_language(_lang_in(argv), os.environ))
    except UnknownLanguage as exc:
        print(f"sorry-lan: {exc}", file=sys.stderr)
        return 2
    command = _command_in(argv)
    parser = build_parser(command if command is not None else "")
    args = parser.parse_args(argv)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help()
        return 2
    check = getattr(args, "_check", None)
    problem = check(args) if check is not None else None
    if problem is not None:
        args._parser.error(problem)  # usage and the problem on stderr, exit status 2
    _log_to_terminal(str(command))
    try:
        return int(run(args))
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``sorry-lan simulate | head``): nothing more to say to it.
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        print(f"sorry-lan {command}: {why}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
