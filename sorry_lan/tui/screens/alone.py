"""Playing on alone on the board (issue 31): the question's box, its keys, the host's key.

:data:`TABLE` is the box's keys while a question is up (``UiState.alone_ask``): y
answers yes, n or Esc no (a ``join`` laptop keeps looking for the table; a cut-off
host's game keeps waiting).  :data:`KEY` is the host's ``a`` on the game screen,
listed in its footer and help only while its game is paused because its laptop is cut
off (``UiState.play_alone``): it asks first what playing on alone means.
:func:`build` draws the box against the right edge while it asks.  It plays nothing
on alone itself: the heir (a ``join``'s answer) or ``PlayAlone.start`` (the host's) does.
"""

from __future__ import annotations

from prompt_toolkit.layout import Float

from sorry_lan.i18n import _, pgettext

from ..alone import host_question, join_question, not_paused_words
from ..commands import Action, Command, Controls, Help, Hint, Table
from ..state import AloneAsk, UiState
from ..textfit import width, wrap
from .parts import Parts


def cut_off(st: UiState) -> bool:
    """This host's game is paused because its laptop is cut off: ``a`` plays alone."""
    return st.play_alone is not None and st.play_alone.possible()


def _play_alone(st: UiState, yes: bool) -> None:
    if not yes:
        st.notice = _("Your game waits for the other laptops.")
    elif st.play_alone is not None and st.play_alone.start():
        st.notice = _("You play on alone: a game of your own.")
    else:
        st.notice = not_paused_words()
    st.add_log(st.notice)


def _ask(c: Controls, key: str) -> None:
    st = c.state
    st.help_visible = False
    st.alone_ask = AloneAsk(lambda yes: _play_alone(st, yes), cut_off=True)


def _answer(yes: bool) -> Action:
    def answer(c: Controls, key: str) -> None:
        asked, c.state.alone_ask = c.state.alone_ask, None
        if asked is not None:
            asked.answer(yes)

    return answer


#: The host's key on the game screen while it is cut off.
KEY = Command(
    ("a",),
    _ask,
    when=cut_off,
    hint=Hint("a", lambda: pgettext("key", "play alone"), 1),
    help=Help("a", lambda: _("cut off, the game paused: play on alone (a game of your own)"),
              when=cut_off),
)

TABLE = Table(
    "alone",
    (
        Command(("y",), _answer(True), typing=True),
        Command(("n", "escape"), _answer(False), typing=True),
    ),
)


def question(st: UiState) -> list[str]:
    """The question's lines, wrapped to the width of its keys' line."""
    asked = st.alone_ask
    if asked is not None and asked.cut_off:
        text, keys = host_question(), _("y: play alone   n/Esc: wait")
    else:
        text, keys = join_question(), _("y: start here   n/Esc: keep looking")
    return [*wrap(text, max(width(keys), 40), first="", rest=""), keys]


def build(parts: Parts) -> Float:
    """The question's box, shown while it asks."""

    def lines() -> list[str]:
        return parts.box(question(parts.state), _("Play alone"))

    return parts.dialog(lines, lambda: parts.state.alone_ask is not None)
