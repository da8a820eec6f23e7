"""Running the text board as the client: ``run_tui`` for ``join`` and for the host's player.

``run_tui`` builds the :class:`TuiApp` around a :class:`ClientController`, starts the
find screen's LAN search when asked, joins an address at once when given one, or
follows a client that is already connected (the host's own player), and returns when
the player leaves or ``stop`` completes (the host shutting down).  On the way out it
says goodbye to the host and closes discovery.

It parses no command line (``commands/join.py`` and ``commands/host.py`` do) and holds
no game logic.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from sorry_lan.i18n.logwords import log_line
from sorry_lan.net.client import GameClient
from sorry_lan.net.saved import saved_games
from sorry_lan.net.scoreboard import recent_form
from sorry_lan.replay import Tape

from .alone import AloneQuestion
from .app import TuiApp
from .controller import ClientController
from .finder import GameFinder
from .qr import qr_lines
from .state import HandOver, Link, PlayAlone, UiState


@dataclass
class TuiOptions:
    """How the board looks and where it reads and writes (tests pass pipes)."""

    ascii: bool | None = None  # None: ASCII when the locale is not UTF-8
    colour: bool | None = None  # None: colour unless NO_COLOR is set
    mouse: bool = True
    input: Input | None = None
    output: Output | None = None
    refresh_interval: float | None = 1.0  # redraws the turn timer
    journals: Path | None = None  # this machine's saved games: the lobby's "won 3 of 5"


class _LogToBoard(logging.Handler):
    """Warnings from the network code go to the board's log, not over the screen, in
    the player's words (:func:`~sorry_lan.i18n.logwords.log_line`)."""

    def __init__(self, state: UiState) -> None:
        super().__init__(logging.WARNING)
        self.state = state

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.state.add_log(log_line(record)[:200])
        except Exception:
            self.handleError(record)


def _form(journals: Path) -> dict[str, tuple[int, int]]:
    """Each person's latest games in ``journals``: won, of how many."""
    return recent_form(saved_games(journals)[0])


@dataclass
class JoinRequest:
    address: str
    name: str
    pin: str = ""


async def run_tui(
    state: UiState,
    controller: ClientController,
    options: TuiOptions | None = None,
    *,
    finder: GameFinder | None = None,
    join: JoinRequest | None = None,
    client: GameClient | None = None,
    stop: Awaitable[object] | None = None,
    started: asyncio.Future[TuiApp] | None = None,
) -> int:
    """Run the board until the player leaves (0) or ``stop`` completes (0).

    Returns 1 when the player left after the connection to the host was lost for good.
    ``started`` (tests) receives the application once it runs."""
    opts = options or TuiOptions()
    tui = TuiApp(
        state,
        controller,
        ascii=opts.ascii,
        colour=opts.colour,
        mouse=opts.mouse,
        input=opts.input,
        output=opts.output,
        refresh_interval=opts.refresh_interval,
    )
    controller.attach(tui)
    if opts.journals is not None:
        controller.form = partial(_form, opts.journals)
    state.relabel.append(controller.language_changed)  # the language key: tell the host
    closing: list[asyncio.Task[None]] = []
    if finder is not None:
        finder.view = tui
        await finder.start()

        def stop_search() -> None:
            closing.append(asyncio.create_task(finder.close()))

        controller.on_joined = stop_search
    if join is not None:
        tui.screens.address.text = join.address
        tui.screens.name.text = join.name
        tui.screens.pin.text = join.pin
    root = logging.getLogger()
    to_board = _LogToBoard(state)
    root.addHandler(to_board)
    app_task = asyncio.create_task(tui.run_async())
    stop_task = asyncio.ensure_future(stop) if stop is not None else None
    try:
        if client is not None:
            controller.adopt(client)
        if join is not None:
            controller.join(join.address, join.name, join.pin)
        if started is not None and not started.done():
            started.set_result(tui)
        waiting: set[asyncio.Future[object]] = {app_task}  # type: ignore[arg-type]
        if stop_task is not None:
            waiting.add(stop_task)
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if not app_task.done():
            tui.app.exit(result="stopped")
        await app_task
    finally:
        root.removeHandler(to_board)
        if stop_task is not None:
            stop_task.cancel()
        if not app_task.done():
            with contextlib.suppress(Exception):
                tui.app.exit()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await app_task
        await controller.close()
        if finder is not None:
            await finder.close()
        for task in closing:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await task
    lost = state.link is Link.LOST if state.left_lost is None else state.left_lost
    return 1 if lost else 0


async def play_as_host(
    client: GameClient,
    stop: Awaitable[object],
    *,
    title: Callable[[], str],
    info: Callable[[], str] = lambda: "",
    options: TuiOptions | None = None,
    game_tape: Callable[[], Tape | None] | None = None,
    hand_over: HandOver | None = None,
    on_leave: Callable[[], None] | None = None,
    play_alone: PlayAlone | None = None,
    ask_alone: AloneQuestion | None = None,
    phones: str | None = None,
) -> int:
    """The host's own player on the board: ``client`` is already connected and owns the
    table (lobby keys: bots, variant, start); returns when the player leaves or ``stop``
    completes.  With ``hand_over`` the leave dialog offers to hand the table to another
    player's laptop whenever one can take it.  ``title`` and ``info`` (how others join)
    are worded again when the player changes language.  A resumed table's chat so far
    comes from the host like anyone's.  ``game_tape`` is the game just finished, for the
    game over's replay (the host's journal; by default the game as the board was told
    it).  ``on_leave`` runs when the player leaves, before the client says goodbye (the
    host ends its table first, so nobody reads the host's leaving as a dropped seat).
    ``play_alone``: while its game is paused because its laptop is cut off, ``a``
    plays on alone (a game of its own), after a question; ``ask_alone`` is its heir's
    question (the table moved, and nobody answers: start a game of your own?).
    ``phones``: the address of the phones' page, whose QR code the lobby shows."""
    state = UiState(default_name=client.name, game_title=title(), lobby_info=info())
    if phones is not None:
        state.lobby_qr = tuple(qr_lines(phones))
        state.phones_url = phones

    def relabel() -> None:
        state.game_title, state.lobby_info = title(), info()

    state.relabel.append(relabel)
    state.hand_over = hand_over
    state.play_alone = play_alone
    controller = ClientController(state)
    if ask_alone is not None:
        controller.ask_alone(ask_alone)
    controller.on_leave = on_leave
    if game_tape is not None:
        state.game_tape = game_tape
    return await run_tui(state, controller, options, client=client, stop=stop)
