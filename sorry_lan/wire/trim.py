"""Making a ``succession`` message fit one frame: the oldest chat lines go first.

A ``succession`` holds the current game's chat so far, up to 100 lines of up to 200
characters; with many long lines in scripts of three bytes a character that passes
the 64 KiB frame.  :func:`fit_succession` drops the oldest lines until the frame
fits (SPEC section 13: a receiver must not expect the whole tail).  Nothing else of
the message is ever dropped: the rest is at most a few KiB by its limits.
"""

from __future__ import annotations

from dataclasses import replace

from sorry_lan.wire import limits as L
from sorry_lan.wire.codec import encode
from sorry_lan.wire.errors import ErrorReason, LocalProtocolError
from sorry_lan.wire.messages import Succession


def fit_succession(message: Succession) -> tuple[Succession, bytes]:
    """``message`` with as many of its newest chat lines as fit a frame, and that
    frame.  Raises ``LocalProtocolError`` ``too_large`` only if even no chat at all
    does not fit (which the limits of the other fields rule out)."""
    try:
        return message, encode(message)
    except LocalProtocolError as exc:
        if exc.reason is not ErrorReason.TOO_LARGE:
            raise
    lo, hi = 0, len(message.chat)  # keep the last ``keep`` lines: hi never fits
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _size(replace(message, chat=message.chat[len(message.chat) - mid:])) <= L.MAX_FRAME:
            lo = mid
        else:
            hi = mid
    kept = replace(message, chat=message.chat[len(message.chat) - lo:])
    return kept, encode(kept)


def _size(message: Succession) -> int:
    try:
        return len(encode(message)) - L.HEADER_SIZE
    except LocalProtocolError:
        return L.MAX_FRAME + 1
