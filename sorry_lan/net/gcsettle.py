"""Short full garbage collections for a process that serves or plays a game.

CPython's full (oldest-generation) collection walks every container object the
process holds.  A sorry-lan process holds some 20,000 of them after start-up (the
modules, the wire schema) and 55,000 more once the engine has built its move tables
in the first hundred moves; walking them all took 10-35 ms on the 2-core test
machine, and up to 100 ms when it was busy: a pause in the middle of a move that
every player waits for.

:func:`settle` builds the engine's tables at once and then moves everything alive
into the permanent generation (``gc.freeze``), which collections never walk: from
then on a full collection walks only what the running session made (a few hundred
objects, well under a millisecond).  It is done once per process; what was frozen
is kept for the process's life, which start-up objects and the tables are anyway.

It does not collect first (a collection at start-up would be the very pause it
avoids, and would finalise objects at a moment nobody chose), does not disable the
collector and does not change its thresholds.
"""

from __future__ import annotations

import gc

from sorry_lan.rules.movegen import build_tables

_settled = False


def settle() -> bool:
    """Freeze what is alive now, the first time it is called in this process; True
    if it froze (False: it had already)."""
    global _settled
    if _settled:
        return False
    _settled = True
    build_tables()  # the engine's tables, otherwise built in the first moves
    gc.freeze()
    return True
