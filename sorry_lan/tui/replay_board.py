"""The board on its own for ``sorry-lan replay``: a game shown again, no table joined.

:func:`run_replay` opens the real application on the replay screen
(:mod:`.screens.replay`) with a :class:`~sorry_lan.replay.Tape`, and returns when the
player quits it (q, Esc, Ctrl-C).  :class:`NoTable` stands in for the requests a
table would take: there is none, so each does nothing.  It reads no file and parses
no command line (``commands/replay.py`` does).
"""

from __future__ import annotations

from sorry_lan.i18n import _
from sorry_lan.replay import Replay, Tape
from sorry_lan.rules.variants import Variant

from .app import TuiApp
from .play import TuiOptions
from .state import Screen, UiState


class NoTable:
    """:class:`~.state.Actions` with no table behind them: nothing is sent."""

    def join(self, address: str, name: str, pin: str, watch: bool = False) -> None: ...
    def choose_colour(self, colour: int) -> None: ...
    def ask_swap(self, colour: int | None) -> None: ...
    def answer_swap(self, accept: bool) -> None: ...
    def ready(self) -> None: ...
    def add_bot(self) -> None: ...
    def remove_bot(self) -> None: ...
    def cycle_bot(self) -> None: ...
    def set_variant(self, variant: Variant) -> None: ...
    def start(self) -> None: ...
    def play(self, move_id: int) -> None: ...
    def chat(self, text: str) -> None: ...
    def rematch(self) -> None: ...
    def reconnect(self) -> None: ...
    def leave(self) -> None: ...
    def hint(self) -> None: ...
    def more_time(self) -> None: ...


def replay_state(tape: Tape) -> UiState:
    """A state showing ``tape`` from its start, the replay all the board shows."""
    title = tape.table or _("a saved game")
    return UiState(
        screen=Screen.REPLAY,
        replay=Replay(tape),
        variant=tape.variant,
        seated=tape.seated,
        names=dict(tape.names),
        game_title=title,
    )


async def run_replay(tape: Tape, options: TuiOptions | None = None) -> int:
    """Show ``tape`` on the board until the player quits (0)."""
    opts = options or TuiOptions()
    tui = TuiApp(
        replay_state(tape),
        NoTable(),
        ascii=opts.ascii,
        colour=opts.colour,
        mouse=opts.mouse,
        input=opts.input,
        output=opts.output,
        refresh_interval=None,
    )
    await tui.run_async()
    return 0
