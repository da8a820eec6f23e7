"""Whole games of real ``sorry-lan`` processes in tmux, captured screen by screen.

:func:`play_captured` runs ``sorry-lan host --lang X --bots 3 --seed S`` at 80x24 in a
private tmux server and plays the host's seat by keys to the end, keeping the
screens a player reads: the lobby, the ``?`` help, the board mid-game, a split 7's
second step and game over.  Nothing it waits for is English: our turn is the move
list's marker (``>1``), a split's first part is the menu entry ending in its length
``(n)``, and the end is a board with all four of a colour's pawns HOME (the label
read from the catalog of the language shown).  :func:`join_session` starts a
``sorry-lan join --lang X`` at 80x24 for a table of several languages.

Test code only: the host listens on 127.0.0.1 with ``--no-mdns``.
"""

from __future__ import annotations

import asyncio
import re
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from tmux_harness import Tmux

from sorry_lan.i18n import use_language, words
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.wire.transitions import State

ROOT = Path(__file__).resolve().parents[2]
COLS, ROWS = 80, 24
HOST = "Ann"
BOTS = ("greedy bot 1", "greedy bot 2", "greedy bot 3")  # as the table names them


def bots_shown(lang: str) -> tuple[str, ...]:
    """The three bots' names as a player reading ``lang`` sees them."""
    with use_language(lang):
        return tuple(words.bot_title("greedy", n) for n in (1, 2, 3))

# A move list entry: "│>1 R1 start->4", "│ 12 ..." (the marker, then its number).
_ENTRY = re.compile(r"│([> ])\s?(\d{1,2}) (.*)$")
# A split 7's first part ends in its length: "R1 4->6 (2), then 5 more".
_SPLIT_FIRST = re.compile(r"[RBYG][1-4] \S+ \((\d)\)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env() -> tuple[str, ...]:
    return ("-e", f"PYTHONPATH={ROOT}", "-e", "TERM=xterm-256color", "-e", "LANG=C.UTF-8",
            "-c", str(ROOT))  # fmt: skip


def host_session(
    tmux: Tmux, session: str, lang: str, port: int, data: Path, *, bots: int = 3,
    seed: int = 5, first: bool = True,
) -> None:
    """``sorry-lan host --lang {lang}`` in a new 80x24 tmux session."""
    command = (
        f"{sys.executable} -m sorry_lan host --lang {lang} --name {HOST} --bots {bots} "
        f"--port {port} --bind 127.0.0.1 --no-mdns --bot-delay 0 --seed {seed} "
        f"--data-dir {data}"
    )
    start = ("-f", "/dev/null") if first else ()
    tmux.run(*start, "new-session", "-d", "-s", session, "-x", str(COLS), "-y", str(ROWS),
             *_env(), f"{command}; sleep 30")  # fmt: skip


def join_session(tmux: Tmux, session: str, lang: str, port: int, name: str, data: Path) -> None:
    """``sorry-lan join --lang {lang}`` by address in a new 80x24 tmux session."""
    command = (
        f"{sys.executable} -m sorry_lan join --lang {lang} --name {name} "
        f"--address 127.0.0.1:{port} --data-dir {data}"
    )
    tmux.run("new-session", "-d", "-s", session, "-x", str(COLS), "-y", str(ROWS), *_env(),
             f"{command}; sleep 30")  # fmt: skip


def capture(tmux: Tmux, session: str) -> str:
    return tmux.run("capture-pane", "-p", "-t", session)


def wait(tmux: Tmux, session: str, test: Callable[[str], bool], what: str,
         timeout: float = 20.0) -> str:
    end = time.monotonic() + timeout
    text = ""
    while time.monotonic() < end:
        text = capture(tmux, session)
        if test(text):
            return text
        time.sleep(0.03)
    raise AssertionError(f"{session}: timed out waiting for {what}; screen:\n{text}")


def settled(tmux: Tmux, session: str, pause: float = 0.25, timeout: float = 10.0) -> str:
    """The screen once it has not changed for ``pause`` seconds."""
    end = time.monotonic() + timeout
    last = capture(tmux, session)
    while time.monotonic() < end:
        time.sleep(pause)
        now = capture(tmux, session)
        if now == last:
            return now
        last = now
    return last


def entries(screen: str) -> list[tuple[bool, int, str]]:
    """The move list's entries on ``screen``: (selected, number, text)."""
    out = []
    for line in screen.splitlines():
        found = _ENTRY.search(line)
        if found is not None:
            out.append((found.group(1) == ">", int(found.group(2)), found.group(3)))
    return out


def our_turn(screen: str) -> bool:
    return any(selected for selected, _, _ in entries(screen))


def split_entry(screen: str) -> int | None:
    """The number of the first split-7 first part listed, if any."""
    for _, number, text in entries(screen):
        if _SPLIT_FIRST.search(text):
            return number
    return None


class Watcher:
    """A spectator on the table, in a thread of its own: who is to move, and the end.

    The screens are what is tested, so what drives the game must not depend on
    reading them: a screen that a wrong width corrupted still gets played to the end
    (and judged)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sid = -1  # the last turn's state id
        self.colour = -1  # who is to move at ``sid``
        self.card: int | None = None
        self.pawns: tuple[int, ...] = ()
        self.over = False
        self.lobby = False  # the table is in a lobby (before a game, or a rematch's)
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Watcher:
        self._thread.start()
        if not self._ready.wait(10):
            raise AssertionError("the watcher did not connect")
        if self.error is not None:
            raise AssertionError(f"the watcher could not connect: {self.error}")
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.run(self._watch())

    async def _watch(self) -> None:
        client = GameClient("127.0.0.1", self.port, "watcher", ClientOptions(spectate=True))
        try:
            await client.connect()
        except BaseException as exc:  # told to the test thread
            self.error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            while not self._stop.is_set():
                turn = client.model.turn
                if turn is not None:
                    self.pawns = client.model.pawns
                    self.card = None if turn.card is None else int(turn.card)
                    self.colour, self.sid = int(turn.colour), turn.sid
                self.over = client.model.over is not None
                self.lobby = client.model.state is State.LOBBY
                await asyncio.sleep(0.02)
        finally:
            await client.close()

    def wait(self, test: Callable[[Watcher], bool], what: str, timeout: float = 20.0) -> None:
        end = time.monotonic() + timeout
        while not test(self):
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.02)


def home_word(lang: str) -> str:
    with use_language(lang):
        return words.home_word()


def game_over(screen: str, lang: str) -> bool:
    """A colour has all four pawns HOME (the board's label reads "HOME 4")."""
    return re.search(rf"{re.escape(home_word(lang))} 4\b", screen) is not None


@dataclass
class Played:
    """The screens of one game, by name."""

    lang: str
    screens: dict[str, str] = field(default_factory=dict)
    turns: int = 0


def _moved_on(sid: int, game: Watcher) -> bool:
    return game.sid != sid or game.over


def _in_lobby(game: Watcher) -> bool:
    return game.lobby


def _playing(game: Watcher) -> bool:
    return not game.lobby and not game.over


def _changed(before: str) -> Callable[[str], bool]:
    return lambda now: now != before


def play_captured(tmux: Tmux, lang: str, data: Path, *, mid: int = 6,
                  limit: float = 200.0, games: int = 3) -> Played:
    """Host a game in ``lang`` with three bots and play it to the end by keys.

    Our seat (red) plays the move listed first; the first time a split 7's first
    part is listed it is opened instead (its second parts are captured), then the
    first second part is played.  A game that ends before any split was offered is
    followed by a rematch (another deal of the same seed: ``r`` opens its lobby, ``s``
    starts it), up to ``games`` games."""
    played = Played(lang)
    session = "host"
    port = free_port()
    host_session(tmux, session, lang, port, data)
    bots = bots_shown(lang)
    wait(tmux, session, lambda s: all(b in s for b in bots), "three bots in the lobby")
    played.screens["lobby"] = settled(tmux, session)
    end = time.monotonic() + limit
    with Watcher(port) as game:
        tmux.keys("s")
        for _ in range(games):
            _play_to_the_end(tmux, session, game, played, mid, end)
            played.screens.setdefault("over", settled(tmux, session))
            if "split" in played.screens:
                break
            # A rematch: the host's "r" opens the next game's lobby (the same seats,
            # the bots ready) and its "s" starts that game, as at the first.
            tmux.keys("r")
            game.wait(_in_lobby, "the rematch's lobby")
            tmux.keys("s")
            game.wait(_playing, "the rematch to start")
    return played


def _play_to_the_end(
    tmux: Tmux, session: str, game: Watcher, played: Played, mid: int, end: float
) -> None:
    acted = -1
    while not game.over:
        if time.monotonic() > end:
            raise AssertionError(
                f"{played.lang}: the game did not end in time ({played.turns} turns of "
                f"ours); screen:\n{capture(tmux, session)}"
            )
        if game.colour != 0 or game.sid == acted:
            time.sleep(0.02)
            continue
        acted = game.sid
        played.turns += 1
        capturing = "game" not in played.screens and played.turns >= mid
        splitting = game.card == 7 and "split" not in played.screens
        # The list drawn (a screen a wrong width garbled may never show it, so most
        # turns wait briefly: Enter is tried again below).  A turn whose screen is kept
        # or read for a split 7 waits for the list itself: a board drawn late (a loaded
        # machine) would otherwise be read before its list, the split missed and
        # another move played, and the game would go another way.
        patience = 15.0 if capturing or splitting else 1.0
        try:
            screen = wait(tmux, session, our_turn, "the move list", patience)
        except AssertionError:
            screen = capture(tmux, session)
        if capturing or splitting:
            screen = settled(tmux, session, pause=0.1)
        if capturing:
            played.screens["game"] = screen
            tmux.keys("?")
            wait(tmux, session, _changed(screen), "the help")
            played.screens["help"] = settled(tmux, session, pause=0.1)
            tmux.keys("Escape")  # (alone: a key right after it would read as Alt+key)
            try:
                screen = wait(tmux, session, lambda s: s == played.screens["game"],
                              "the help to close", 5.0)  # fmt: skip
            except AssertionError:
                screen = settled(tmux, session)
        number = split_entry(screen) if "split" not in played.screens else None
        if game.card == 7 and number is not None:
            for digit in str(number):
                tmux.keys(digit)
            tmux.keys("Enter")  # opens the second parts of that first part
            wait(tmux, session, _changed(screen), "the split's second parts")
            played.screens["split"] = settled(tmux, session, pause=0.1)
        # Enter plays the entry chosen (on a split's first part: opens it, and a
        # second Enter plays its first second part).
        # Tried until the move is made (up to the game's deadline): an Enter typed
        # before the list is drawn is not taken, and the turn must not be given up.
        # Once the list was seen, Enter goes again only while it is still shown: a
        # list gone means the key was taken (the spectator is late), and another
        # Enter would play our next turn unasked.
        seen = our_turn(screen)
        while time.monotonic() < end:
            if not seen or our_turn(capture(tmux, session)):
                tmux.keys("Enter")
            try:
                game.wait(partial(_moved_on, acted), "our move", 2.0)
                break
            except AssertionError:
                continue
