"""The ``--help`` of the commands players use, in the player's language: every option's
help, the examples' comments and argparse's own words are translated."""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest

from sorry_lan import cli
from sorry_lan.i18n import LANGUAGES, PSEUDO, use_language
from sorry_lan.i18n.pseudo import pseudo

COMMANDS = ["host", "join", "list", "bot"]


def _parser(command: str) -> argparse.ArgumentParser:
    parser = cli.build_parser(only=command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    chosen: argparse.ArgumentParser = sub.choices[command]
    return chosen


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_and_example_is_translated(command: str) -> None:
    """In the pseudo-locale every help text is bracketed: none escaped the catalogs."""
    with use_language(PSEUDO):
        p = _parser(command)
        helps = [a.help for a in p._actions if a.help not in (None, argparse.SUPPRESS)]
        assert len(helps) >= 5
        for text in helps:
            assert str(text).startswith("["), (command, text)
        assert p.epilog is not None and p.epilog.startswith(pseudo("examples:"))
        comments = [line.split("# ", 1)[1] for line in p.epilog.splitlines() if "# " in line]
        assert comments and all(c.startswith("[") for c in comments), p.epilog


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("command", COMMANDS)
def test_help_prints_in_every_language(lang: str, command: str) -> None:
    out = io.StringIO()
    with use_language(lang), contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        _parser(command).parse_args(["--help"])
    text = out.getvalue()
    with use_language(lang):
        from sorry_lan.i18n import _

        assert text.startswith(_("usage: "))
        assert _("examples:") in text and _("options") in text
