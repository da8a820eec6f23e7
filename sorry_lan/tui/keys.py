"""Key bindings: choosing and confirming moves, lobby commands, chat, help, rejoining, leaving.

Single-letter keys act only while no text field has the focus, so typing a name or
a chat line never triggers a command.  Handlers change :class:`UiState` and call the
:class:`Actions` object; they never block and never talk to the network themselves.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from sorry_lan.i18n import _

from .footer import LANGUAGE_KEY
from .state import Link, Screen

if TYPE_CHECKING:
    from .app import TuiApp


def build_keys(tui: TuiApp) -> KeyBindings:
    st = tui.state
    kb = KeyBindings()

    typing = Condition(lambda: tui.app.layout.buffer_has_focus)
    overlay = Condition(lambda: st.help_visible or st.confirm_quit)
    free = ~typing & ~overlay

    def on(screen: Screen) -> Condition:
        return Condition(lambda: st.screen is screen)

    # -- overlays ----------------------------------------------------------------------
    @kb.add("?", filter=~typing & ~Condition(lambda: st.confirm_quit))
    def _help(event: KeyPressEvent) -> None:
        st.help_visible = not st.help_visible
        st.help_scroll = 0

    helping = Condition(lambda: st.help_visible)

    @kb.add("down", filter=helping)
    @kb.add("j", filter=helping)
    @kb.add("pagedown", filter=helping)
    def _help_on(event: KeyPressEvent) -> None:
        st.help_scroll += 10 if event.key_sequence[0].key == "pagedown" else 1

    @kb.add("up", filter=helping)
    @kb.add("k", filter=helping)
    @kb.add("pageup", filter=helping)
    def _help_back(event: KeyPressEvent) -> None:
        step = 10 if event.key_sequence[0].key == "pageup" else 1
        st.help_scroll = max(0, st.help_scroll - step)

    @kb.add("escape", filter=Condition(lambda: st.help_visible))
    def _close_help(event: KeyPressEvent) -> None:
        st.help_visible = False

    @kb.add("q", filter=free)
    @kb.add("c-c")
    def _ask_quit(event: KeyPressEvent) -> None:
        # Nothing to lose on the find screen, and a second Ctrl-C means it: leave now.
        if st.screen is Screen.FIND or (st.confirm_quit and event.key_sequence[0].key == "c-c"):
            st.confirm_quit = False
            tui.leave()
            return
        st.help_visible = False
        st.confirm_quit = True

    @kb.add("y", filter=Condition(lambda: st.confirm_quit))
    def _quit(event: KeyPressEvent) -> None:
        st.confirm_quit = False
        tui.leave()

    @kb.add("n", filter=Condition(lambda: st.confirm_quit))
    @kb.add("escape", filter=Condition(lambda: st.confirm_quit))
    def _stay(event: KeyPressEvent) -> None:
        st.confirm_quit = False

    # -- the language: on the find screen and in the lobby, the next one ----------------
    @kb.add(LANGUAGE_KEY, filter=(on(Screen.FIND) | on(Screen.LOBBY)) & free)
    def _language(event: KeyPressEvent) -> None:
        tui.next_language()

    # -- find ----------------------------------------------------------------------------
    in_list = Condition(lambda: tui.app.layout.has_focus(tui.screens.found_window))

    @kb.add("up", filter=on(Screen.FIND) & in_list & ~overlay)
    def _found_up(event: KeyPressEvent) -> None:
        if st.found:
            st.found_selected = (st.found_selected - 1) % len(st.found)

    @kb.add("down", filter=on(Screen.FIND) & in_list & ~overlay)
    def _found_down(event: KeyPressEvent) -> None:
        if st.found:
            st.found_selected = (st.found_selected + 1) % len(st.found)

    @kb.add("enter", filter=on(Screen.FIND) & ~overlay)
    def _join(event: KeyPressEvent) -> None:
        tui.join_from_find()

    @kb.add("tab", filter=on(Screen.FIND) & ~overlay)
    def _next_field(event: KeyPressEvent) -> None:
        event.app.layout.focus_next()

    @kb.add("s-tab", filter=on(Screen.FIND) & ~overlay)
    def _prev_field(event: KeyPressEvent) -> None:
        event.app.layout.focus_previous()

    # A spectator watches: no colour, ready, move, rematch or lobby commands.
    seated = ~Condition(lambda: st.spectating)

    # -- lobby ----------------------------------------------------------------------------
    lobby = on(Screen.LOBBY) & free & seated
    for digit in "1234":

        @kb.add(digit, filter=lobby)
        def _colour(event: KeyPressEvent) -> None:
            tui.actions.choose_colour(int(event.data) - 1)

    @kb.add("space", filter=lobby)
    def _ready(event: KeyPressEvent) -> None:
        tui.actions.ready()

    host = lobby & Condition(lambda: st.is_host)

    @kb.add("a", filter=host)
    def _add_bot(event: KeyPressEvent) -> None:
        tui.actions.add_bot()

    @kb.add("x", filter=host)
    def _remove_bot(event: KeyPressEvent) -> None:
        tui.actions.remove_bot()

    @kb.add("l", filter=host)
    def _cycle_bot(event: KeyPressEvent) -> None:
        tui.actions.cycle_bot()

    @kb.add("v", filter=host)
    def _variant(event: KeyPressEvent) -> None:
        options = st.variants or (st.variant,)
        i = options.index(st.variant) if st.variant in options else -1
        tui.actions.set_variant(options[(i + 1) % len(options)])

    @kb.add("s", filter=host)
    def _start(event: KeyPressEvent) -> None:
        tui.actions.start()

    # -- game --------------------------------------------------------------------------------
    game = on(Screen.GAME) & free & seated

    @kb.add("b", filter=on(Screen.GAME) & free)
    def _bell(event: KeyPressEvent) -> None:
        st.bell = not st.bell
        st.notice = _("bell on: it rings when your turn comes") if st.bell else _("bell off")

    @kb.add("up", filter=game)
    @kb.add("k", filter=game)
    def _up(event: KeyPressEvent) -> None:
        st.move_selection(-1)

    @kb.add("down", filter=game)
    @kb.add("j", filter=game)
    def _down(event: KeyPressEvent) -> None:
        st.move_selection(1)

    for digit in "1234567890":

        @kb.add(digit, filter=game)
        def _pick(event: KeyPressEvent) -> None:
            if not st.type_digit(event.data, time.monotonic()):
                st.notice = _("no move {n}").format(n=event.data)

    @kb.add("enter", filter=game)
    def _play(event: KeyPressEvent) -> None:
        tui.play_selected()

    # A split 7: -> lists the second parts of the highlighted first part; back with
    # Esc, <- or Backspace.
    @kb.add("right", filter=game)
    @kb.add("l", filter=game)
    def _open_split(event: KeyPressEvent) -> None:
        st.open_split()

    in_split = game & Condition(lambda: st.split is not None)

    @kb.add("escape", filter=in_split)
    @kb.add("left", filter=in_split)
    @kb.add("h", filter=in_split)
    @kb.add("backspace", filter=in_split)
    def _back(event: KeyPressEvent) -> None:
        st.close_split()

    # -- the log: scroll back through the whole game --------------------------------------
    with_log = (on(Screen.GAME) | on(Screen.OVER)) & ~overlay

    @kb.add("pageup", filter=with_log)
    def _log_back(event: KeyPressEvent) -> None:
        st.log_scroll += tui.screens.log_page()

    @kb.add("pagedown", filter=with_log)
    def _log_on(event: KeyPressEvent) -> None:
        st.log_scroll = max(0, st.log_scroll - tui.screens.log_page())

    @kb.add("end", filter=with_log)
    def _log_end(event: KeyPressEvent) -> None:
        st.log_scroll = 0

    @kb.add("L", filter=with_log & ~typing)
    def _log_view(event: KeyPressEvent) -> None:
        st.log_view = not st.log_view

    # -- game over -------------------------------------------------------------------------
    lost = Condition(lambda: st.link is Link.LOST)

    @kb.add("r", filter=on(Screen.OVER) & free & ~lost & seated)
    def _rematch(event: KeyPressEvent) -> None:
        tui.actions.rematch()

    # -- host lost: try again with the same seat (any screen but the find screen) ------------
    @kb.add("r", filter=free & lost & ~on(Screen.FIND))
    def _rejoin(event: KeyPressEvent) -> None:
        tui.actions.reconnect()

    # -- chat ----------------------------------------------------------------------------
    @kb.add("t", filter=free & ~on(Screen.FIND))
    def _open_chat(event: KeyPressEvent) -> None:
        st.chat_open = True
        tui.focus_chat()

    chatting = Condition(lambda: st.chat_open) & typing

    @kb.add("escape", filter=chatting, eager=True)
    def _close_chat(event: KeyPressEvent) -> None:
        tui.close_chat()

    return kb
