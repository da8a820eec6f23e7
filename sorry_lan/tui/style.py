"""Colours and attributes for the client's style classes.

Every highlight also has an attribute (reverse, bold, underline) so it still shows
with ``NO_COLOR`` or on a monochrome terminal; the board adds marker characters on top.
This module only builds prompt_toolkit ``Style`` objects; it draws nothing.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from prompt_toolkit.styles import Style

PAWN_COLOURS = {
    "red": "#ff5f5f",
    "blue": "#5fafff",
    "yellow": "#ffd75f",
    "green": "#5fd75f",
}

_MONO_RULES: list[tuple[str, str]] = [
    ("board.title", "bold"),
    ("board.absent", ""),
    ("board.number", ""),
    ("pawn", "bold"),
    ("hl.last", "underline"),
    ("hl.path", "reverse"),
    ("hl.dest", "reverse bold"),
    ("hl.bump", "underline bold"),
    ("hl.moving", "underline"),
    ("bar", "reverse"),
    ("bar.bad", "reverse bold"),
    ("bar.warn", "reverse"),
    ("moves.selected", "reverse"),
    ("found.selected", "reverse"),
    ("heading", "bold"),
    ("notice", "bold"),
    ("error", "reverse bold"),
    ("too-small", "bold"),
    ("dialog", ""),
    ("dialog frame.label", "bold"),
]

_COLOUR_RULES: list[tuple[str, str]] = [
    ("board", ""),
    ("board.track", "#8a8a8a"),
    ("board.number", "#585858"),
    ("board.title", "bold #ff8700"),
    ("board.centre", "#d0d0d0"),
    ("board.absent", "#444444"),
    ("hl.last", "underline bg:#3a3a3a"),
    ("hl.path", "bg:#005f5f"),
    ("hl.dest", "reverse bold"),
    ("hl.bump", "underline bold bg:#5f0000"),
    ("hl.moving", "underline"),
    ("bar", "bg:#303030 #e4e4e4"),
    ("bar.ok", "bg:#303030 #5fd75f bold"),
    ("bar.warn", "bg:#303030 #ffd75f bold"),
    ("bar.bad", "bg:#5f0000 #ffffff bold"),
    ("moves.selected", "reverse"),
    ("found.selected", "reverse"),
    ("heading", "bold #ff8700"),
    ("notice", "bold #ffd75f"),
    ("error", "bold #ff5f5f"),
    ("dim", "#808080"),
    ("too-small", "bold #ffd75f"),
    # the phones' QR code: black modules on white, whatever the terminal's own colours
    ("qr", "#000000 bg:#ffffff"),
]


def unicode_terminal(env: Mapping[str, str] | None = None, platform: str = sys.platform) -> bool:
    """Whether the terminal's locale takes UTF-8 (else the board draws in ASCII).

    The first of ``LC_ALL``, ``LC_CTYPE``, ``LANG`` that is set decides; an
    ``LC_CTYPE`` of ``C.UTF-8`` that Python set itself for a C locale (PEP 538, seen as
    UTF-8 mode) does not count.  Windows terminals take Unicode; with no locale set a
    Linux terminal is taken to be plain ASCII (the C locale), a macOS one not."""
    env = os.environ if env is None else env
    if platform == "win32":
        return True
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(var, "")
        if var == "LC_CTYPE" and value.upper() in ("C.UTF-8", "C.UTF8") and sys.flags.utf8_mode:
            continue
        if value:
            return "UTF-8" in value.upper() or "UTF8" in value.upper()
    return platform == "darwin"


def colour_wanted(explicit: bool | None = None) -> bool:
    """Colour unless turned off explicitly or by a non-empty ``NO_COLOR``."""
    if explicit is not None:
        return explicit
    return not os.environ.get("NO_COLOR")


def build_style(colour: bool | None = None) -> Style:
    """The application style; without colour only attributes are used."""
    if not colour_wanted(colour):
        return Style(_MONO_RULES)
    rules = list(_COLOUR_RULES)
    for name, hexcode in PAWN_COLOURS.items():
        rules.append((f"pawn.{name}", f"bold {hexcode}"))
        rules.append((f"board.slide.{name}", hexcode))
        rules.append((f"board.safety.{name}", hexcode))
        rules.append((f"board.start.{name}", hexcode))
        rules.append((f"board.home.{name}", hexcode))
        rules.append((f"seat.{name}", f"bold {hexcode}"))
    rules.append(("pawn", "bold"))
    # highlights come after the colours so that they win
    rules += [r for r in _COLOUR_RULES if r[0].startswith("hl.")]
    return Style(rules)
