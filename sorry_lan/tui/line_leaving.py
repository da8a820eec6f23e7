"""The host leaves in the line mode (``host --text``, issue 19): hand the table over, or end it.

The line mode's answer to the board's leave dialog (:mod:`sorry_lan.tui.screens.leave`),
in sentences a screen reader reads as they come: when the player who hosts the table
(its owner, or a ``join`` player whose laptop took it over: ``HandOver.hosting``) types
``quit`` while another player's laptop can take the table (``HandOver.possible``),
:meth:`LineLeaving.quit` asks first.  The answer (:meth:`LineLeaving.answer`):

- an empty line (Enter), ``hand`` (or ``h``, ``yes``, ``y``, ``quit`` again) hands the
  table over, the default: the game goes on at that laptop, and the player can rejoin
  it as a player;
- ``end`` (``e``) ends the game (closes the table) for everyone;
- ``stay`` (``n``, ``no``) takes back the quit.

Without a laptop to take the table, ``quit`` leaves at once, as it always did (the
host's leaving ends the game for everyone).  The command words stay English, as the
line mode's other commands do; the sentences around them are the player's language.

It hands nothing over itself (``HandOver.start`` does, from the host command), reads
and prints nothing (``tui.lines`` does), and knows nothing of the table but what the
``HandOver`` and ``in_game`` tell it.
"""

from __future__ import annotations

from collections.abc import Callable

from sorry_lan.i18n import _

from .sentences import sentence
from .state import HandOver

HAND_WORDS = ("", "hand", "h", "yes", "y", "quit", "exit", "bye")
END_WORDS = ("end", "e")
STAY_WORDS = ("stay", "n", "no")


class LineLeaving:
    """The host's ``quit`` in the line mode; ``in_game`` says whether a game is under
    way (then ending it is "the game ends", else "the table closes")."""

    def __init__(self, hand_over: HandOver | None, in_game: Callable[[], bool]) -> None:
        self.hand_over = hand_over
        self.in_game = in_game
        self.asking = False  # the question was asked; the next line answers it
        self.handed = False  # the player handed the table over

    def _hosts(self) -> bool:
        return self.hand_over is not None and self.hand_over.hosting()

    def _possible(self) -> bool:
        return self.hand_over is not None and self.hand_over.possible()

    def quit(self) -> list[str] | None:
        """The player typed ``quit``: None to leave now, else the question to say (the
        next line answers it)."""
        if not (self._hosts() and self._possible()):
            return None
        self.asking = True
        return [self.question()]

    def question(self) -> str:
        """What the host is asked, as one sentence."""
        if self.in_game():
            text = _(
                "You host this table. Press Enter to hand it to another player's laptop, "
                "where the game goes on and you can rejoin as a player; or type {end} to "
                "end the game for everyone, or {stay} to stay"
            )
        else:
            text = _(
                "You host this table. Press Enter to hand it to another player's laptop, "
                "where you can rejoin as a player; or type {end} to close it for everyone, "
                "or {stay} to stay"
            )
        return sentence(text, end="end", stay="stay")

    def answer(self, line: str) -> list[str] | None:
        """The answer to the question: None to leave now (handed over, or ending the
        game), else what to say (staying, or the question again)."""
        word = line.strip().lower()
        if word in END_WORDS:
            self.asking = False
            return None
        if word in STAY_WORDS:
            self.asking = False
            return [sentence(_("You stay at the table"))]
        if word in HAND_WORDS:
            if self.hand_over is not None and self._possible():
                self.asking = False
                self.handed = True
                self.hand_over.start()
                return None
            text = _(
                "No other player's laptop can take the table now: type {end} to end it for "
                "everyone, or {stay} to stay"
            )
            return [sentence(text, end="end", stay="stay")]
        return [self.question()]
