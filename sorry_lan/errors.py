"""The one base class of every error sorry-lan raises for a caller to catch.

``except SorryLanError`` catches anything the package means to report (a refused
request, an unreadable journal, a broken protocol rule, a bad position...); each
module's own subclasses say what went wrong and carry the details.  Errors that are
also a built-in kind keep that kind too (``PositionError`` is still a
``ValueError``), so existing ``except ValueError`` code goes on working.

This module imports nothing (so every layer, the pure rules engine included, may
import it without a cycle) and raises nothing itself.  It does not cover the
standard library's own errors that escape unchanged (``OSError`` from a socket,
``asyncio.CancelledError``).  An error a player reads is a
:class:`sorry_lan.codes.Coded`: it carries a code and fields, worded in any language.
"""

from __future__ import annotations


class SorryLanError(Exception):
    """Base of every error the package raises on purpose; see the module docstring."""

