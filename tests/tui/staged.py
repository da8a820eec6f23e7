"""One board screen in a chosen moment, for a real terminal: ``staged.py STAGE LANG``.

The terminal tests (``test_terminal_fit.py``) run it in tmux at 80x24 to read a
screen that a whole game reaches only by chance: the summary after two other players
bumped you, a game over with everyone's statistics, the find screen's rows, the
lobby of four languages.  Each stage is built the way the client builds it: the
host's wire messages go through :func:`sorry_lan.tui.feed.apply_event`, found games
through the finder's :func:`~sorry_lan.tui.finder.row_for`; only the statistics (a
whole game's counts) are set directly.  The app is the real :class:`TuiApp`; its
requests go nowhere.  Test code: not shipped.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from told import ToldModel, shown
from tui_harness import FakeActions

from sorry_lan.client.model import ClientModel
from sorry_lan.discovery import FoundGame as Advert
from sorry_lan.discovery import GameAd, Unjoinable
from sorry_lan.discovery.browser import nothing_found_message
from sorry_lan.i18n import set_language
from sorry_lan.rules.board import HOME, START, Colour, start_exit
from sorry_lan.rules.cards import Card
from sorry_lan.rules.variants import Variant
from sorry_lan.tui.app import TuiApp
from sorry_lan.tui.feed import apply_event
from sorry_lan.tui.finder import row_for
from sorry_lan.tui.state import Link, Screen, UiState
from sorry_lan.wire import messages as m
from sorry_lan.wire import records as r

#: The table of most stages: (name, colour, bot, language); pid is the index.
PEOPLE = (
    ("Bea", Colour.RED, False, "cy"),
    ("Cai", Colour.BLUE, False, "th"),
    ("Ann", Colour.YELLOW, False, "el"),
    ("Dee", Colour.GREEN, False, "en"),
)
BOTS = (
    ("Bea", Colour.RED, False, "cy"),
    ("greedy bot 1", Colour.BLUE, True, None),
    ("Ann", Colour.YELLOW, False, "el"),
    ("expert bot 2", Colour.GREEN, True, None),
)
#: The game over's table: the longest names a row of the panel holds on one line.
OVER = (
    ("Annabelle Fitzgerald", Colour.RED, False, "cy"),
    ("greedy bot 1", Colour.BLUE, True, None),
    ("Ann", Colour.YELLOW, False, "el"),
    ("Konstantina Papadopoulou", Colour.GREEN, False, "th"),
)
YOU = 2  # Ann, yellow (pid 2)


def _client() -> ClientModel:
    # (the host's messages go through it: the board reads its views)
    return ToldModel("Ann", YOU, owner=True, version=2)


def _lobby(people: tuple[tuple[str, Colour, bool, str | None], ...]) -> m.Lobby:
    players = tuple(
        r.PlayerInfo(pid, name, colour, bot, bot or pid % 2 == 1, True, lang)
        for pid, (name, colour, bot, lang) in enumerate(people)
    )
    return m.Lobby(variant=Variant.STANDARD, seats=4, host=YOU, players=players, spectators=0)


def _seated(people: tuple[tuple[str, Colour, bool, str | None], ...],
            client: ClientModel | None = None) -> UiState:  # fmt: skip
    st = UiState(screen=Screen.FIND, link=Link.CONNECTED, title_is_address=True)
    shown(st, client or _client(), _lobby(people))
    return st


def _snapshot(st: UiState, pawns: list[int], sid: int = 1,
              client: ClientModel | None = None) -> None:  # fmt: skip
    snap = m.Snapshot(
        sid=sid, variant=Variant.STANDARD, you=Colour.YELLOW, colours=tuple(Colour),
        pawns=tuple(pawns), turn=Colour.RED, card=Card(5), hand=None, pile=30, discards=14,
        top=Card(5), discarded=None, scores=None,
    )  # fmt: skip
    shown(st, client or _client(), snap)


def lobby_stage(people: tuple[tuple[str, Colour, bool, str | None], ...]) -> UiState:
    return _seated(people)


def since_stage() -> UiState:
    """Yellow's turn after blue bumped Y1 and green played a Sorry! on Y2."""
    client = _client()
    st = _seated(PEOPLE, client)
    pawns = [START] * 16
    pawns[4], pawns[8], pawns[9] = 10, 15, 30  # B1, Y1, Y2
    _snapshot(st, pawns, client=client)
    bump = (r.ev_play(Colour.BLUE, 5), r.ev_move(4, 10, 15), r.ev_bump(8, 15))
    shown(st, client, m.Events(sid=2, colour=Colour.BLUE, notation="B1 10->15 xY1",
                                     events=bump))  # fmt: skip
    sorry = (r.ev_play(Colour.GREEN, 13), r.ev_move(12, START, 30), r.ev_bump(9, 30))
    shown(st, client, m.Events(sid=3, colour=Colour.GREEN, notation="G1 start->30 xY2",
                                     events=sorry))  # fmt: skip
    shown(st, client, m.Turn(sid=4, colour=Colour.YELLOW, card=Card(1), hand=None, pile=28))
    leave = r.MoveOption(0, "Y1 start->" + str(start_exit(Colour.YELLOW)),
                         (0, 1, 8, start_exit(Colour.YELLOW)))  # fmt: skip
    shown(st, client, m.LegalMoves(sid=4, moves=(leave,), timeout=None))
    return st


def over_stage() -> UiState:
    """Game over: yellow won; every player's home count and play in numbers (long
    names, and some players asking for a rematch)."""
    st = _seated(OVER)
    pawns = [START] * 16
    pawns[8:12] = [HOME] * 4
    pawns[0:3] = [HOME, HOME, HOME]
    pawns[4:6] = [HOME, 22]
    pawns[12] = HOME
    _snapshot(st, pawns)
    for colour, counts in enumerate(((4, 3, 5, 41), (2, 1, 7, 40), (6, 2, 4, 41), (1, 0, 2, 40))):
        stats = st.stats[colour]
        stats["bumps"], stats["sorry"], stats["slides"], stats["turns"] = counts
    apply_event(st, _client(), m.GameOver(sid=200, winners=(Colour.YELLOW,), scores=None))
    # (the figures staged above: a result reads no view)
    return st


def board_stage() -> UiState:
    """The board at the first turn: every pawn in its START."""
    st = _seated(PEOPLE)
    _snapshot(st, [START] * 16)
    return st


def _advert(name: str, host: str, reason: Unjoinable | None, pin: bool = False) -> Advert:
    ad = GameAd(name, host, seats_total=4, seats_taken=3, pin_required=pin)
    return Advert(
        service_name=f"{name}._sorry-lan._tcp.local.", instance=name, name=name, ad=ad,
        addresses=("192.168.100.123",), port=47474, reason=reason, address="192.168.100.123",
    )  # fmt: skip


def find_stage() -> UiState:
    """Three games found: one under way where you hold a seat, one under way to
    watch, one asking for a PIN; the names are the longest a row gives room to."""
    st = UiState(screen=Screen.FIND, default_name="Ann")
    st.found = [
        row_for(_advert("Friday night at the Papadopoulos", "Konstantina", Unjoinable.PLAYING),
                mine=True),
        row_for(_advert("Grandma's kitchen table game", "Bartholomew", Unjoinable.PLAYING)),
        row_for(_advert("Cousins upstairs in the attic", "Evangelia", None, pin=True)),
    ]  # fmt: skip
    return st


def nothing_stage() -> UiState:
    st = UiState(screen=Screen.FIND, default_name="Ann")
    st.find_message = nothing_found_message(3.0)
    return st


STAGES: dict[str, Callable[[], UiState]] = {
    "since": since_stage,
    "over": over_stage,
    "board": board_stage,
    "lobby": lambda: lobby_stage(PEOPLE),
    "bots": lambda: lobby_stage(BOTS),
    "find": find_stage,
    "nothing": nothing_stage,
}


def main(argv: list[str]) -> int:
    stage, lang = argv
    set_language(lang)
    state = STAGES[stage]()
    TuiApp(state, FakeActions(), mouse=False).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
