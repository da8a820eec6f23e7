"""A viewer's place in a :class:`~.tape.Tape`, and playing on from it at a speed.

:class:`Replay` is at step ``at``: 0 is the start (no turn shown yet), ``k`` the board
after the tape's ``k``-th step.  It moves one step forward or back, jumps to a turn by
its number (as the record and ``sorry-lan replay`` number it), to the next or previous
Sorry! or bump, to the start or the end; it plays on one step every
:data:`SPEEDS` ``[speed]`` seconds, faster or slower, paused and resumed.  The clock is
passed in (``now``, seconds of any monotonic clock): :meth:`Replay.tick` takes the
step that is due, :attr:`Replay.due` says when the next one is.

Pure: no timer, no thread, no I/O; the screen arms the timer and redraws.
"""

from __future__ import annotations

from collections.abc import Mapping

from .tape import Step, Tape, marks

#: Seconds per step when playing, slowest first.
SPEEDS: tuple[float, ...] = (2.0, 1.0, 0.5, 0.25, 0.1)
DEFAULT_SPEED = 1  # a step a second


class Replay:
    """See the module docstring.  Moving by hand while playing goes on playing from
    the new place (the next step is a whole interval away); playing stops at the end."""

    def __init__(self, tape: Tape, at: int = 0, speed: int = DEFAULT_SPEED) -> None:
        self.tape = tape
        self.at = max(0, min(at, len(tape.steps)))
        self.speed = max(0, min(speed, len(SPEEDS) - 1))
        self.playing = False
        self.due: float | None = None  # when the next step is taken (playing only)
        self._marks = marks(tape.steps)

    # -- where it is -------------------------------------------------------------------

    @property
    def count(self) -> int:
        """How many steps the tape has (the end is at this many)."""
        return len(self.tape.steps)

    @property
    def step(self) -> Step | None:
        """The step just shown (None at the start)."""
        return self.tape.steps[self.at - 1] if self.at else None

    @property
    def pawns(self) -> tuple[int, ...]:
        """The board now."""
        step = self.step
        return self.tape.start if step is None else step.pawns

    @property
    def before(self) -> tuple[int, ...]:
        """The board before the step just shown (where its pawns came from)."""
        return self.tape.start if self.at <= 1 else self.tape.steps[self.at - 2].pawns

    @property
    def scores(self) -> Mapping[int, int]:
        step = self.step
        return {} if step is None else step.scores

    @property
    def at_end(self) -> bool:
        return self.at == self.count

    @property
    def interval(self) -> float:
        """Seconds between steps at the speed chosen."""
        return SPEEDS[self.speed]

    def shown(self) -> tuple[Step, ...]:
        """The steps up to here, oldest first (what the log shows)."""
        return self.tape.steps[: self.at]

    # -- moving ------------------------------------------------------------------------

    def go(self, at: int, now: float | None = None) -> bool:
        """Be at step ``at`` (kept within the tape); False if that is where it was.
        While playing, the next step is one interval after ``now``."""
        at = max(0, min(at, self.count))
        moved = at != self.at
        self.at = at
        if self.playing and now is not None:
            self.due = now + self.interval
        if self.at_end:
            self.pause()
        return moved

    def forward(self, now: float | None = None) -> bool:
        return self.go(self.at + 1, now)

    def back(self, now: float | None = None) -> bool:
        return self.go(self.at - 1, now)

    def to_start(self, now: float | None = None) -> bool:
        return self.go(0, now)

    def to_end(self, now: float | None = None) -> bool:
        return self.go(self.count, now)

    def to_turn(self, n: int, now: float | None = None) -> bool:
        """Be just after turn ``n`` (0: the start); a number between two steps (a game
        seen from part way) goes to the last step before it.  False when the tape has
        no such turn (beyond its last)."""
        if n > self.tape.last_n() or n < 0:
            return False
        at = sum(1 for step in self.tape.steps if step.n <= n)
        self.go(at, now)
        return True

    def next_mark(self, now: float | None = None) -> bool:
        """On to the next Sorry! or bump; False if there is none ahead."""
        ahead = [k for k in self._marks if k > self.at]
        return bool(ahead) and self.go(ahead[0], now)

    def previous_mark(self, now: float | None = None) -> bool:
        """Back to the previous Sorry! or bump; False if there is none behind."""
        behind = [k for k in self._marks if k < self.at]
        return bool(behind) and self.go(behind[-1], now)

    # -- playing on --------------------------------------------------------------------

    def play(self, now: float) -> None:
        """Play on from here (from the start when at the end)."""
        if self.count == 0:
            return
        if self.at_end:
            self.at = 0
        self.playing = True
        self.due = now + self.interval

    def pause(self) -> None:
        self.playing = False
        self.due = None

    def toggle(self, now: float) -> None:
        """Pause when playing, else play."""
        if self.playing:
            self.pause()
        else:
            self.play(now)

    def faster(self, now: float) -> bool:
        """One speed up; False at the fastest."""
        return self._speed(self.speed + 1, now)

    def slower(self, now: float) -> bool:
        """One speed down; False at the slowest."""
        return self._speed(self.speed - 1, now)

    def _speed(self, speed: int, now: float) -> bool:
        if not 0 <= speed < len(SPEEDS):
            return False
        self.speed = speed
        if self.playing:
            self.due = now + self.interval
        return True

    def tick(self, now: float) -> bool:
        """Take the step that is due at ``now``, if any (True: the board changed)."""
        if not self.playing or self.due is None or now < self.due:
            return False
        return self.forward(now)
