"""The lobby: the seats, who is ready, the chat; the host adds bots, picks the rules, starts.

:data:`TABLE` is a seated player's keys (a watcher's are in :mod:`.watch`); the
host's keys act, show in the footer and in the help only for the host.
"""

from __future__ import annotations

from sorry_lan.i18n import _, pgettext, words
from sorry_lan.rules.variants import VARIANTS

from ..commands import Command, Controls, Help, Hint, Table, Words
from ..state import UiState
from .shared import (
    ASK_CTRL_C,
    LANGUAGE,
    SHARED,
    ask_to_leave,
    chat_help,
    chat_key,
    leave_help,
    leave_key,
)


def hosting(st: UiState) -> bool:
    return st.is_host


def guest(st: UiState) -> bool:
    return not st.is_host


def _colour(c: Controls, key: str) -> None:
    c.actions.choose_colour(int(key) - 1)


def _ready(c: Controls, key: str) -> None:
    c.actions.ready()


def _add_bot(c: Controls, key: str) -> None:
    c.actions.add_bot()


def _remove_bot(c: Controls, key: str) -> None:
    c.actions.remove_bot()


def _cycle_bot(c: Controls, key: str) -> None:
    c.actions.cycle_bot()


def _next_variant(c: Controls, key: str) -> None:
    st = c.state
    options = st.variants or (st.variant,)
    i = options.index(st.variant) if st.variant in options else -1
    c.actions.set_variant(options[(i + 1) % len(options)])


def _start(c: Controls, key: str) -> None:
    c.actions.start()


def _change_the_rules() -> str:
    titles = ", ".join(words.variant_title(name) for name in VARIANTS)
    return _("change the rules: {variants}").format(variants=titles)


def _host_help(keys: str, what: Words) -> Help:
    """A host's key: listed after the others, and only for the host."""
    return Help(keys, what, when=hosting, late=True)


TABLE = Table(
    "lobby",
    (
        Command(
            tuple("1234"),
            _colour,
            hint=Hint("1-4", lambda: pgettext("key", "colour"), 2),
            help=Help("1-4", lambda: _("sit at that colour")),
        ),
        Command(
            ("space",),
            _ready,
            hint=Hint("space", lambda: pgettext("key", "ready"), 2),
            help=Help("space", lambda: _("say you are ready (or not)")),
        ),
        Command(
            ("a",),
            _add_bot,
            when=hosting,
            hint=Hint("a/x/l", lambda: pgettext("key", "bot"), 6),
            help=_host_help("a / x", lambda: _("add a bot / remove one")),
        ),
        Command(("x",), _remove_bot, when=hosting),
        Command(
            ("l",),
            _cycle_bot,
            when=hosting,
            help=_host_help("l", lambda: _("the newest bot's strength (each press: the next one)")),
        ),
        Command(
            ("v",),
            _next_variant,
            when=hosting,
            hint=Hint("v", lambda: pgettext("key", "variant"), 6),
            help=_host_help("v", _change_the_rules),
        ),
        Command(
            ("s",),
            _start,
            when=hosting,
            hint=Hint("s", lambda: pgettext("key", "start"), 2),
            help=_host_help(
                "s",
                lambda: _(
                    "start the game (free seats are left empty; team play fills them with bots)"
                ),
            ),
        ),
        chat_key(chat_help(), hint_when=guest),  # the host's bar has no room for it
        LANGUAGE,
        *SHARED,
        Command(
            ("q",), ask_to_leave, when=hosting, hint=Hint("q", lambda: pgettext("key", "quit"), 1)
        ),
        leave_key(help=leave_help(), when=guest),
        ASK_CTRL_C,
    ),
    title=lambda: _("Lobby"),
)
