"""Command tables: what each key does on a screen, what the footer and the help say of it.

A :class:`Command` is one row of a screen's table: the keys that run it, when it acts
(a condition on :class:`UiState`), its footer hint, its line in the ``?`` help, and the
action (a function of the :class:`Controls` and the key pressed).  The key bindings, the
footer and the help are all derived from these tables (``keys.py``, ``footer.py``,
``helptext.py``); nothing else names a key.

The tables that are up form a stack of :class:`Layer` s, the top first (an overlay, the
"host lost" keys, then the screen): :func:`bound` gives each key to the first command
on it that can act now, so a key is bound only where a table lists it.  A modal layer
(an overlay) stops the ones under it, except for the commands that act at any time.

Plain data and pure functions: nothing here imports prompt_toolkit or draws.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from .state import Actions, UiState

#: A condition on the state (a command acts, a hint or a help line shows, only then).
Predicate = Callable[[UiState], bool]
#: Words in the player's language, looked up when shown (the language may change).
Words = Callable[[], str]


def always(st: UiState) -> bool:
    return True


class Controls(Protocol):
    """What a command's action may use: the state, the player's requests, and the few
    things of the application a key does (implemented by :class:`~.app.TuiApp`)."""

    @property
    def state(self) -> UiState: ...
    @property
    def actions(self) -> Actions: ...

    def leave(self) -> None: ...
    def hand_over(self) -> None: ...
    def next_language(self) -> None: ...
    def join_from_find(self) -> None: ...
    def focus_next(self) -> None: ...
    def focus_previous(self) -> None: ...
    def focus_chat(self) -> None: ...
    def close_chat(self) -> None: ...
    def play_selected(self) -> None: ...
    def log_page(self) -> int: ...


#: What a key does: the controls and the key pressed (as the table names it).
Action = Callable[[Controls, str], None]


@dataclass(frozen=True)
class Hint:
    """A command's words in the footer: ``keys word`` (``keys`` may be empty)."""

    keys: str | Words  # as the bar shows them ("↑↓", "Enter"); --ascii spells the arrows;
    # Words for a key cap a language names its own way (the space bar)
    word: Words  # pgettext("key", ...)
    rank: int  # the lower, the longer it stays when the bar is short of room
    when: Predicate = always  # shown only then (and only while its command acts)


@dataclass(frozen=True)
class Help:
    """A command's line in the ``?`` help: the keys, then what they do."""

    keys: str | Words  # a str is shown as it is; Words are translated ("Up/Down")
    what: Words
    when: Predicate = always  # listed only then (by default always, even when idle)
    late: bool = False  # listed after the table's other lines (the host's keys)


@dataclass(frozen=True)
class Command:
    """One row of a table.  Without keys it is a footer note ("watching")."""

    keys: tuple[str, ...]
    action: Action | None = None
    when: Predicate = always
    hint: Hint | None = None
    help: Help | None = None
    typing: bool = False  # acts while a text field has the focus too
    anytime: bool = False  # acts in every moment: typing, and under an overlay (Ctrl-C)
    eager: bool = False  # acts at once, not waiting for a longer key sequence (Esc)

    def acts(self, st: UiState, typing: bool) -> bool:
        return (
            self.action is not None
            and (self.typing or self.anytime or not typing)
            and (self.when(st))
        )


@dataclass(frozen=True)
class Table:
    """The commands of one screen (or overlay), in the order the footer shows them."""

    name: str
    commands: tuple[Command, ...]
    title: Words | None = None  # the help's heading for these keys
    about: Words | None = None  # the help says this instead of listing keys (watching)
    rules: bool = True  # the help adds the rules of the variant in play


class Layer(NamedTuple):
    table: Table
    modal: bool = False  # the layers under it act only through their anytime commands


def bound(layers: Sequence[Layer], st: UiState, typing: bool) -> dict[str, Command]:
    """Each key to the command it runs now: the first that can act, the top layer first."""
    out: dict[str, Command] = {}
    blocked = False
    for layer in layers:
        for command in layer.table.commands:
            if (command.anytime or not blocked) and command.acts(st, typing):
                for key in command.keys:
                    out.setdefault(key, command)
        blocked = blocked or layer.modal
    return out


def every_key(tables: Iterable[Table]) -> set[tuple[str, bool]]:
    """(key, eager) of every command of ``tables``: what the key bindings must cover."""
    return {(key, c.eager) for table in tables for c in table.commands for key in c.keys}


def hints(table: Table, st: UiState) -> list[tuple[Command, Hint]]:
    """The footer's hints of ``table`` for ``st``, in table order (typing or an overlay
    does not change the footer)."""
    return [
        (c, c.hint) for c in table.commands if c.hint is not None and c.when(st) and c.hint.when(st)
    ]


def help_lines(table: Table, st: UiState) -> list[tuple[Command, Help]]:
    """The help's key lines of ``table`` for ``st``: table order, the late ones last."""
    lines = [(c, c.help) for c in table.commands if c.help is not None and c.help.when(st)]
    return sorted(lines, key=lambda line: line[1].late)


def say(words: str | Words) -> str:
    return words if isinstance(words, str) else words()
