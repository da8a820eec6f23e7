"""The key bindings, derived from the command tables (:mod:`.commands`).

:func:`layers` stacks the tables up now, the top first: the chat line (Esc closes it),
the question about playing on alone, the leave confirmation or the help (modal), the
rules view (modal), the phones' code shown large (modal: any key closes it), "host
lost", the screen's table.
:func:`build_keys` binds each key any table names once, to whichever command
:func:`~.commands.bound` gives it at the moment it is pressed; a key no table up lists
is not bound, so it goes on to the focused field (typing a name or a chat line never
runs a command).  Handlers change :class:`UiState` and call the :class:`Controls`;
they never block and never talk to the network themselves.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from .commands import Command, Controls, Layer, bound, every_key
from .screens import alone, leave, phones
from .screens import help as help_overlay
from .screens import rules as rules_view
from .screens.chat import CHATTING
from .screens.shared import LOST
from .screens.tables import every_table, lost, table_for
from .state import Screen, UiState


def layers(st: UiState, typing: bool) -> list[Layer]:
    """The tables up for ``st``, the top first."""
    out = []
    if st.chat_open and typing:
        out.append(Layer(CHATTING))
    if st.alone_ask is not None:
        out.append(Layer(alone.TABLE, modal=True))
    if st.confirm_quit:
        out.append(Layer(leave.TABLE, modal=True))
    if st.help_visible:
        out.append(Layer(help_overlay.TABLE, modal=True))
    if st.rules_visible:
        out.append(Layer(rules_view.TABLE, modal=True))
    if st.phones_visible and st.screen is Screen.LOBBY:
        out.append(Layer(phones.TABLE, modal=True))
    if lost(st):
        out.append(Layer(LOST))
    out.append(Layer(table_for(st)))
    return out


def commands_now(st: UiState, typing: bool) -> dict[str, Command]:
    """Each bound key to the command it runs in ``st``."""
    return bound(layers(st, typing), st, typing)


def build_keys(controls: Controls, typing: Callable[[], bool]) -> KeyBindings:
    """Key bindings for every key of every table; ``typing``: a text field has the focus."""
    kb = KeyBindings()
    tables = [*every_table(), help_overlay.TABLE, rules_view.TABLE, phones.TABLE, leave.TABLE,
              alone.TABLE, CHATTING]
    for key, eager in sorted(every_key(tables)):

        def acts(key: str = key, eager: bool = eager) -> bool:
            command = commands_now(controls.state, typing()).get(key)
            return command is not None and command.eager is eager

        def run(event: KeyPressEvent, key: str = key) -> None:
            command = commands_now(controls.state, typing()).get(key)
            if command is not None and command.action is not None:
                command.action(controls, key)

        kb.add(key, filter=Condition(acts), eager=eager)(run)
    return kb
