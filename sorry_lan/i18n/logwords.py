"""Log records a player sees (warnings and errors), in the player's language.

The board's log and the terminal of a command show warnings from the network code.
:func:`log_line` words a record of this package by its format string (the ``msg``
given to ``log.warning``/``log.exception``): each known one has a one-sentence
translation whose fields take the record's arguments in order.  A record from
elsewhere (a library such as zeroconf or asyncio) keeps its English text after its
source; every line starts with its level in the player's language.  Tracebacks are not
shown.  It installs no handler (``cli`` and ``tui.play`` do) and changes no record.
"""

from __future__ import annotations

import logging
import re

from . import N_, _, pgettext

#: Format string in the code -> (the sentence for players, names of its %-arguments).
KNOWN: dict[str, tuple[str, tuple[str, ...]]] = {
    "%s %d: %s; asking for a resync": (
        N_("the board disagreed with the host's moves ({why}); asking for the whole board"),
        ("what", "sid", "why"),
    ),
    "connection %d: cannot answer: %s": (
        N_("the host could not answer connection {cid} ({why})"),
        ("cid", "why"),
    ),
    "the journal could not be cut back to its last durable record": (
        N_("the journal could not be cut back to its last safely written record"),
        (),
    ),
    "checking game %r failed": (N_("checking the game {name} on the LAN failed"), ("name",)),
    "liveness probe of %s:%s raised": (
        N_("checking whether the table at {address}:{port} answers failed"),
        ("address", "port"),
    ),
    "game list callback failed on %s": (
        N_("updating the list of games failed ({event})"),
        ("event",),
    ),
    "could not send mDNS goodbye for %r": (
        N_("could not tell the LAN that the table {name} has closed"),
        ("name",),
    ),
    "could not show %r": (N_("could not show news from the host ({event})"), ("event",)),
    "closing the game browser failed": (N_("closing the search for games failed"), ()),
    "the network checks failed": (N_("checking why no table shows up failed"), ()),
    "the game's record could not be kept in %s: %s": (
        N_("this game's record could not be kept in {folder} ({why})"),
        ("folder", "why"),
    ),
}

_SPEC = re.compile(r"%[sdr]")


def level_word(levelno: int) -> str:
    """``warning`` or ``error`` in the player's language."""
    if levelno >= logging.ERROR:
        return pgettext("log level", "error")
    return pgettext("log level", "warning")


def log_line(record: logging.LogRecord) -> str:
    """One line for a player: ``[level]`` and the known sentence for ``record``, or
    its source and English text."""
    return f"[{level_word(record.levelno)}] {_words(record)}"


def _words(record: logging.LogRecord) -> str:
    known = KNOWN.get(str(record.msg))
    args = record.args if isinstance(record.args, tuple) else ()
    if known is not None:
        template, names = known
        specs = _SPEC.findall(str(record.msg))
        if len(args) == len(names) == len(specs):
            values = {
                n: repr(a) if spec == "%r" else str(a)
                for n, a, spec in zip(names, args, specs, strict=True)
            }
            return _(template).format(**values)
    return f"{record.name}: {record.getMessage()}"
