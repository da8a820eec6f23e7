"""The one base class of every error sorry-lan raises for a caller to catch.

``except SorryLanError`` catches anything the package means to report (a refused
request, an unreadable journal, a broken protocol rule, a bad position...); each
module's own subclasses say what went wrong and carry the details.  Errors that are
also a built-in kind keep that kind too (``PositionError`` is still a
``ValueError``), so existing ``except ValueError`` code goes on working.

This module imports nothing (so every layer, the pure rules engine included, may
import it without a cycle) and raises nothing itself.  It does not cover the
standard library's own errors that escape unchanged (``OSError`` from a socket,
``asyncio.CancelledError``).
"""

from __future__ import annotations


class SorryLanError(Exception):
    """Base of every error the package raises on purpose; see the module docstring."""


class Worded(SorryLanError):
    """An error whose English text also comes as a ``reason`` code with ``values``, so
    that a command can say it in the player's language."""

    def __init__(self, text: str, reason: str = "", **values: object) -> None:
        super().__init__(text)
        self.reason = reason
        self.values = values
