"""A finished game (or the game so far) shown again, turn by turn: sans-I/O.

:mod:`.tape` turns a game record into a :class:`~.tape.Tape`: who sat where and, for
every turn of the record, the turn itself and the board after it, the board computed
by the rules engine replaying the record (a record that does not replay is refused,
as ``sorry-lan replay --check`` refuses it).  :mod:`.seen` makes one from what a
client was told of a game (a record it was not sent).  :class:`~.cursor.Replay` is a
viewer's place in a tape: a step forward or back, a jump to a turn, to the next or
previous Sorry! or bump, to the start or the end, and playing on at a speed, with the
clock passed in.

Nothing here draws, reads keys, keeps time or opens files: the board's replay screen
(``tui/screens/replay.py``) and ``sorry-lan replay`` do.
"""

from .cursor import SPEEDS, Replay
from .tape import Step, Tape, from_record

__all__ = ["SPEEDS", "Replay", "Step", "Tape", "from_record"]
