"""The full-screen client: one prompt_toolkit Application for every screen.

Usage by the network layer::

    state = UiState(default_name="alice")
    tui = TuiApp(state, actions)          # actions implements state.Actions
    ...                                   # on a network event: mutate state, then
    tui.invalidate()                      # redraw
    await tui.run_async()                 # returns when the player leaves

``TuiApp`` owns no sockets and runs no game logic: moves come in as
:class:`~sorry_lan.tui.options.MoveOption` lists and go out as ``actions.play(id)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.input import Input
from prompt_toolkit.layout import Layout
from prompt_toolkit.output import ColorDepth, Output

from sorry_lan.i18n import LANGUAGES, _, language, set_language

from . import renderer as _renderer  # noqa: F401  (aligns the renderer with cells)
from .keys import build_keys
from .layout import Screens
from .screens.parts import Clicks
from .state import NO_GAME_YET, Actions, Link, Screen, UiState
from .style import build_style, colour_wanted, unicode_terminal

ESC_WAIT = 0.02  # seconds to wait for the rest of an escape sequence after Esc


class TuiApp:
    """The application plus the small amount of glue its keys and clicks need."""

    def __init__(
        self,
        state: UiState,
        actions: Actions,
        *,
        ascii: bool | None = None,
        colour: bool | None = None,
        mouse: bool = True,
        input: Input | None = None,
        output: Output | None = None,
        refresh_interval: float | None = 1.0,
    ) -> None:
        self.state = state
        self.actions = actions
        self.ascii = not unicode_terminal() if ascii is None else ascii  # None: the locale says
        self.letters = not colour_wanted(colour)  # no colour: slides marked by letter
        clicks = Clicks(found=self.click_found, move=self.click_move, back=self.click_back)
        self.screens = Screens(
            state, clicks, self._send_chat, ascii=self.ascii, letters=self.letters
        )
        self._shown: Screen | None = None
        self._replay_timer: asyncio.TimerHandle | None = None
        self._replay_due: float | None = None
        depth = None if colour_wanted(colour) else ColorDepth.DEPTH_1_BIT
        self.app: Application[str | None] = Application(
            layout=Layout(self.screens.root()),
            key_bindings=build_keys(self, typing=lambda: self.app.layout.buffer_has_focus),
            style=build_style(colour),
            full_screen=True,
            mouse_support=mouse,
            color_depth=depth,
            refresh_interval=refresh_interval,
            input=input,
            output=output,
        )
        # Esc is a key here (back, close): act on it at once rather than after
        # prompt_toolkit's half second wait for the rest of an escape sequence.
        self.app.ttimeoutlen = ESC_WAIT
        self.app.before_render += self._before_render

    # -- running ---------------------------------------------------------------------

    def invalidate(self) -> None:
        """Redraw soon; call after changing :attr:`state` (safe from the event loop)."""
        self.app.invalidate()

    async def run_async(self) -> str | None:
        return await self.app.run_async()

    def run(self) -> str | None:
        return self.app.run()

    def _before_render(self, _app: Application[str | None]) -> None:
        """Ring the bell when asked; keep the focus on something the current screen
        shows; time the replay's next step when it plays."""
        st = self.state
        self._time_replay()
        if st.bell_due:
            st.bell_due = False
            if st.bell:
                self.app.output.bell()
        layout = self.app.layout
        if st.focus_field and st.screen is Screen.FIND:
            field = self.screens.pin if st.focus_field == "pin" else self.screens.name
            st.focus_field = ""
            layout.focus(field)
            return
        if st.screen is not self._shown:
            self._shown = st.screen
            st.chat_open = False
            self._focus_main()
            return
        if st.chat_open:
            return
        visible = layout.current_window in layout.find_all_windows()
        if not visible or layout.has_focus(self.screens.chat_input):
            self._focus_main()

    def _time_replay(self) -> None:
        """A timer for the step a playing replay takes next (:attr:`Replay.due`, on the
        monotonic clock); none while it is paused or not on show."""
        st = self.state
        rp = st.replay if st.screen is Screen.REPLAY else None
        due = rp.due if rp is not None and rp.playing else None
        if due == self._replay_due:
            return
        if self._replay_timer is not None:
            self._replay_timer.cancel()
            self._replay_timer = None
        self._replay_due = due
        if due is not None:
            delay = max(0.0, due - time.monotonic())
            self._replay_timer = asyncio.get_running_loop().call_later(delay, self._replay_step)

    def _replay_step(self) -> None:
        self._replay_timer = self._replay_due = None
        rp = self.state.replay
        if rp is not None:
            rp.tick(time.monotonic())
        self.invalidate()  # the next render times the step after

    def _focus_main(self) -> None:
        # While the too-small message is up there is nothing to focus.
        with contextlib.suppress(ValueError):
            self.app.layout.focus(self.screens.current_main())

    # -- things keys and clicks do ----------------------------------------------------

    def play_selected(self) -> None:
        """Enter: play the highlighted move, or list the completions of a split's first part."""
        st = self.state
        if st.open_split():
            st.notice = ""
            return
        move = st.selected_move()
        if move is None:
            st.notice = _("no move to play")
            return
        st.notice = ""
        st.sent_move = True
        self.actions.play(move.id)

    def click_move(self, index: int) -> None:
        """A click selects an entry; a click on the highlighted first part opens it."""
        st = self.state
        opened = index == st.selected and st.open_split()
        if opened or st.select(index):
            self.invalidate()

    def click_back(self) -> None:
        if self.state.close_split():
            self.invalidate()

    def click_found(self, index: int) -> None:
        if 0 <= index < len(self.state.found):
            self.state.found_selected = index
            self.invalidate()

    def join_from_find(self) -> None:
        st = self.state
        s = self.screens
        address = s.address.text.strip()
        title = ""
        watch = False
        if not address and st.found:
            game = st.found[max(0, min(st.found_selected, len(st.found) - 1))]
            watch = game.watch and not game.joinable
            if not game.joinable and not watch:
                st.notice = _("{game} cannot be joined").format(game=game.title)
                if game.why:
                    st.notice = _("{game} cannot be joined ({why})").format(
                        game=game.title, why=game.why
                    )
                return
            address, title = game.address, game.title
        if not address:
            st.notice = _(NO_GAME_YET) if not st.found else _("choose a game or type an address")
            return
        watch = watch or (bool(st.watch_offer) and address == st.watch_offer)
        name = s.name.text.strip()
        if not name:
            st.notice = _("type your name first")
            self.app.layout.focus(s.name)
            return
        st.notice = ""
        if not st.joining:
            st.game_title = title  # the top bar names the game joined from the list
        if watch:
            self.actions.join(address, name, s.pin.text.strip(), watch=True)
        else:
            self.actions.join(address, name, s.pin.text.strip())

    def next_language(self) -> None:
        """The language key: show everything in the next language of :data:`LANGUAGES`
        from now on (the pseudo-locale goes on to the first)."""
        codes = list(LANGUAGES)
        now = language()
        following = codes[(codes.index(now) + 1) % len(codes)] if now in codes else codes[0]
        self.choose_language(following)

    def choose_language(self, code: str) -> None:
        """Show every screen in ``code`` from now on; the text the state keeps is worded
        again (:attr:`UiState.relabel`) and the screen redraws at once."""
        set_language(code)
        st = self.state
        for relabel in st.relabel:
            relabel()
        st.notice = _("language: {name}").format(name=LANGUAGES.get(code, code))
        self.invalidate()

    def focus_next(self) -> None:
        self.app.layout.focus_next()

    def focus_previous(self) -> None:
        self.app.layout.focus_previous()

    def log_page(self) -> int:
        return self.screens.log_page()

    def focus_chat(self) -> None:
        try:
            self.app.layout.focus(self.screens.chat_input)
        except ValueError:
            self.state.chat_open = False

    def close_chat(self) -> None:
        self.state.chat_open = False
        self.screens.chat_input.text = ""
        self._focus_main()

    def _send_chat(self, buffer: Buffer) -> bool:
        text = buffer.text.strip()
        if text:
            self.actions.chat(text)
        self.state.chat_open = False
        self._focus_main()
        return False  # clears the field

    def leave(self) -> None:
        self._note_leaving()
        self.actions.leave()
        if self.app.is_running:
            self.app.exit(result="left")

    def _note_leaving(self) -> None:
        """Whether the host was lost as the player chose to leave (leaving ends or moves
        the table, so the goodbye that follows is not a lost host)."""
        if self.state.left_lost is None:
            self.state.left_lost = self.state.link is Link.LOST

    def hand_over(self) -> None:
        """The host leaves handing its table to another player's laptop."""
        hand_over = self.state.hand_over
        if hand_over is None:
            self.leave()
            return
        self._note_leaving()
        self.state.handed_over = True
        hand_over.start()
        self.actions.leave()
        if self.app.is_running:
            self.app.exit(result="handed_over")
