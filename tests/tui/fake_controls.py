"""A stand-in for the application behind the command tables, and a state of each table.

``press(c, key)`` runs the command the key is bound to now (as the key bindings would),
with no prompt_toolkit application: the tables' tests drive their actions with it.
``view_state(view, moment)`` is a state showing each table (:data:`VIEWS`) in each
moment that changes the keys (:data:`MOMENTS`: host lost, an overlay, the chat open).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from tui_harness import FakeActions

from sorry_lan.replay import Replay, Tape, from_record
from sorry_lan.tui.keys import commands_now
from sorry_lan.tui.menu import MoveMenu
from sorry_lan.tui.state import Link, Screen, UiState

LOG_PAGE = 10


@dataclass
class FakeControls:
    state: UiState
    actions: FakeActions = field(default_factory=FakeActions)
    done: list[str] = field(default_factory=list)  # what was asked of the application

    def leave(self) -> None:
        self.done.append("leave")

    def hand_over(self) -> None:
        self.done.append("hand_over")

    def next_language(self) -> None:
        self.done.append("next_language")

    def join_from_find(self) -> None:
        self.done.append("join")

    def focus_next(self) -> None:
        self.done.append("focus_next")

    def focus_previous(self) -> None:
        self.done.append("focus_previous")

    def focus_chat(self) -> None:
        self.done.append("focus_chat")

    def close_chat(self) -> None:
        self.done.append("close_chat")

    def play_selected(self) -> None:
        self.done.append("play")

    def log_page(self) -> int:
        return LOG_PAGE

    def called(self) -> list[str]:
        """The requests sent (by name), then what was asked of the application."""
        return [name for name, _args in self.actions.calls] + self.done


def press(c: FakeControls, key: str, typing: bool = False) -> bool:
    """Run what ``key`` is bound to now; False when it is bound to nothing."""
    command = commands_now(c.state, typing).get(key)
    if command is None or command.action is None:
        return False
    command.action(c, key)
    return True


def _game(**kw: object) -> UiState:
    st = UiState(screen=Screen.GAME, **kw)  # type: ignore[arg-type]
    st.menu = MoveMenu(())
    return st


GOLDEN = Path(__file__).resolve().parents[2] / "protocol" / "records"


@cache
def golden_tape(name: str = "standard-2") -> Tape:
    """A golden record's tape (``protocol/records/NAME.json``)."""
    return from_record(json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8")))


def replay_state(at: int = 0, back: Screen | None = None, **kw: object) -> UiState:
    """The replay screen on the golden two-player game, at step ``at`` (``back``: the
    screen q goes back to, as when opened from a game over)."""
    st = UiState(screen=Screen.REPLAY, replay=Replay(golden_tape(), at), replay_back=back,
                 **kw)  # type: ignore[arg-type]  # fmt: skip
    return st


#: A state of each table, the host's lobby and a split 7 too.
VIEWS: dict[str, Callable[[], UiState]] = {
    "find": UiState,
    "lobby": lambda: UiState(screen=Screen.LOBBY),
    "host's lobby": lambda: UiState(screen=Screen.LOBBY, is_host=True),
    "watched lobby": lambda: UiState(screen=Screen.LOBBY, spectating=True),
    "game": _game,
    "watched game": lambda: _game(spectating=True),
    "over": lambda: UiState(screen=Screen.OVER),
    "watched over": lambda: UiState(screen=Screen.OVER, spectating=True),
    "replay": replay_state,
    "replay of the game over": lambda: replay_state(5, Screen.OVER, link=Link.CONNECTED),
}
MOMENTS: dict[str, Callable[[UiState], None]] = {
    "plain": lambda st: None,
    "host lost": lambda st: setattr(st, "link", Link.LOST),
    "help up": lambda st: setattr(st, "help_visible", True),
    "rules up": lambda st: setattr(st, "rules_visible", True),
    "help over the rules": lambda st: vars(st).update(rules_visible=True, help_visible=True),
    "asking to leave": lambda st: setattr(st, "confirm_quit", True),
    "chat open": lambda st: setattr(st, "chat_open", True),
}


def view_state(view: str, moment: str = "plain") -> UiState:
    st = VIEWS[view]()
    MOMENTS[moment](st)
    return st
