"""The root container: the screen on show between the two bars, and the overlays.

:class:`Screens` builds every screen once (each from its module in :mod:`.screens`,
given the state, the clicks and the look) and frames each between the top and bottom
bars; the rules view (``?`` then ``r``) takes the screen's place between them, the
phones' code shown large (the lobby's ``p``) the whole screen's, the help
and the leave question float over them, and a terminal under 80x24 gets a message
instead.  Content comes from callables, so a state change plus
``invalidate()`` redraws.  No game logic, no keys (``keys.py``), nothing sent.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.layout import Container, DynamicContainer, FloatContainer, HSplit

from .screens import (
    alone,
    bars,
    find,
    game,
    leave,
    lobby,
    over,
    phones,
    replay,
    rules,
    too_small,
)
from .screens import help as help_overlay
from .screens.chat import ChatLine
from .screens.log import log_page
from .screens.parts import Clicks, Parts, View, size
from .screens.parts import too_small as is_too_small
from .state import Screen, UiState


class Screens:
    """Every screen's container, built once for one state."""

    def __init__(
        self,
        state: UiState,
        clicks: Clicks,
        send_chat: Callable[[Buffer], bool],
        *,
        ascii: bool,
        letters: bool,
    ) -> None:
        self.state = state
        parts = Parts(state, clicks, ascii=ascii, letters=letters)
        self.chat = ChatLine(parts, send_chat)
        self.find = find.build(parts)
        views: dict[Screen, View] = {
            Screen.FIND: self.find,
            Screen.LOBBY: lobby.build(parts, self.chat),
            Screen.GAME: game.build(parts, self.chat),
            Screen.OVER: over.build(parts, self.chat),
            Screen.REPLAY: replay.build(parts),
        }
        self._focus = {screen: view.focus for screen, view in views.items()}
        top, bottom = bars.build(parts)
        self._framed = {
            screen: HSplit([top, view.container, bottom]) for screen, view in views.items()
        }
        self._rules = HSplit([top, rules.build(parts), bottom])
        self._phones = phones.build(parts)
        self._too_small = too_small.build(parts)
        self._floats = [help_overlay.build(parts), leave.build(parts), alone.build(parts)]
        # what the application and its tests reach: the find screen's fields, the chat's
        self.address, self.name, self.pin = self.find.address, self.find.name, self.find.pin
        self.found_window = self.find.found_window
        self.chat_input = self.chat.input

    def root(self) -> FloatContainer:
        return FloatContainer(DynamicContainer(self._body), floats=self._floats)

    def current_main(self) -> Container:
        """The focus target of the screen on show."""
        return self._focus[self.state.screen]

    def log_page(self) -> int:
        """How far PgUp/PgDn scroll the log."""
        return log_page(self.state)

    def _body(self) -> Container:
        if is_too_small(*size()):
            return self._too_small
        if self.state.rules_visible:
            return self._rules
        if self.state.phones_visible and self.state.screen is Screen.LOBBY:
            return self._phones
        return self._framed[self.state.screen]
