"""What a laptop's standby says while it does not stand (SPEC 13, step 2), and the one
place a protocol meaning is read from a sentence.

A standby that does not count votes (its laptop hears a host, has not missed it yet,
or cannot host) refuses every greeting ``busy`` with :data:`NOT_HOSTING`; one that
counts votes refuses ``busy`` with how many it has, and a vote from a laptop that
holds a newer state than its own (protocol version 5, ``hello.seen``) ``full`` with
:data:`BOARD_OLDER` (trying it again will not help).  The ``refuse`` message carries
exactly its three fields (SPEC section 2: none may be added, or a version 1-4 peer
rejects the frame), and a new ``reason`` value would be ``bad_value`` to every such
peer: so the wire tells the two apart by the text alone, and :func:`standby_answer`
is the only code that compares it.  Everything above the wire reads the
:class:`StandbyAnswer` it returns.

It does not decide what a voter does with the answer (``succession.election``).
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from sorry_lan.wire import messages as m
from sorry_lan.wire.vocab import RefuseReason

__all__ = ["BOARD_OLDER", "NOT_HOSTING", "StandbyAnswer", "standby_answer"]

#: The text of a standby's ``busy`` while its laptop does not stand for the table.
NOT_HOSTING: Final = "this laptop does not host the table"
#: The text of a standby's ``full`` to a vote from a laptop that saw more of the game.
BOARD_OLDER: Final = "this laptop's board is older than yours: vote for a newer one"


class StandbyAnswer(Enum):
    """What a standby's ``refuse`` means to a voter."""

    STANDING = "standing"  # busy: it counts votes (or is about to host): try again
    NOT_STANDING = "not_standing"  # busy, NOT_HOSTING: it does not stand
    OLDER = "older"  # full, BOARD_OLDER: it stands, with an older board than the voter's
    REFUSED = "refused"  # any other reason: trying again will not help


def standby_answer(refuse: m.Refuse) -> StandbyAnswer:
    """What ``refuse``, a standby's answer to a vote, means (see the module docstring:
    the one comparison of a protocol sentence, as the wire has nothing else to say it)."""
    if refuse.reason is RefuseReason.FULL and refuse.text == BOARD_OLDER:
        return StandbyAnswer.OLDER
    if refuse.reason is not RefuseReason.BUSY:
        return StandbyAnswer.REFUSED
    if refuse.text == NOT_HOSTING:
        return StandbyAnswer.NOT_STANDING
    return StandbyAnswer.STANDING
