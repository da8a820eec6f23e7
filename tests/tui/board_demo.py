"""A self-contained demo of the game screen: ``python tests/tui/board_demo.py [--ascii]``
(``--lang`` and ``--variant`` choose the words and the rules the help shows).

You play red against a scripted blue: each turn draws the next card of a fixed
cycle, lists moves, and after your move blue answers a moment later.  The move list
comes from a small generator that covers the common cases (forward, back, leaving
START, splits of 7, swaps, Sorry!); it is NOT the rules engine and does not
enforce every rule.  It exists to try the client and to drive the terminal tests
without a network (``scripts/bench_tui.py`` times it too).  Test code: not shipped.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from sorry_lan.i18n import set_language
from sorry_lan.rules.board import HOME, START, TRACK_LEN, backward, forward, start_exit
from sorry_lan.rules.variants import Variant
from sorry_lan.tui.app import TuiApp
from sorry_lan.tui.options import BadMove, MoveOption, apply_option, option_from_compact
from sorry_lan.tui.state import Link, Screen, UiState

CARDS = (7, 11, 1, 4, 10, 13, 12, 2, 5, 3, 8)
YOU, BOT = 0, 1
BOT_DELAY = 0.3


def demo_moves(position: Sequence[int], colour: int, card: int) -> list[MoveOption]:
    """Plausible moves for ``colour`` with ``card`` (see the module docstring)."""
    pos = list(position)
    mine = range(colour * 4, colour * 4 + 4)
    own = {pos[p] for p in mine if pos[p] not in (START, HOME)}
    compact: list[tuple[int, ...]] = []

    def target_ok(to: int) -> bool:
        return to != -1 and to not in own

    for p in mine:
        loc = pos[p]
        if loc == START:
            if card in (1, 2) and target_ok(start_exit(colour)):
                compact.append((0, card, p, start_exit(colour)))
            continue
        if loc == HOME:
            continue
        steps = {4: [], 10: [10]}.get(card, [card] if card not in (11, 13) else [11])
        for n in steps if card != 11 else [11]:
            to = forward(colour, loc, n)
            if target_ok(to):
                compact.append((0, card, p, to))
        for n in {4: [4], 10: [1]}.get(card, []):
            to = backward(colour, loc, n)
            if target_ok(to):
                compact.append((0, card, p, to))
    opponents = [q for q in range(16) if q >> 2 != colour and pos[q] < TRACK_LEN]
    if card == 11:
        for p in mine:
            if pos[p] < TRACK_LEN:
                compact += [(2, 11, p, q) for q in opponents]
        if not any(m[0] == 0 for m in compact):
            compact.append((4, 11))
    if card == 13:
        first = next((p for p in mine if pos[p] == START), None)
        if first is not None:
            compact += [(3, 13, first, q) for q in opponents]
    if card == 7:
        movers = [p for p in mine if pos[p] not in (START, HOME)]
        for a in movers:
            for b in movers:
                if a < b:
                    for k in range(1, 7):
                        ta, tb = forward(colour, pos[a], k), forward(colour, pos[b], 7 - k)
                        if -1 not in (ta, tb) and ta != tb:
                            compact.append((1, 7, a, ta, b, tb))
    out: list[MoveOption] = []
    for c in compact:
        try:
            out.append(option_from_compact(pos, c, len(out)))
        except BadMove:
            continue
    return out[:30]


class DemoController:
    """Implements :class:`Actions` for the demo: plays your move, then blue's."""

    def __init__(self, state: UiState) -> None:
        self.state = state
        self.tui: TuiApp | None = None
        self.turn_index = 0
        self.played: list[int] = []
        self.chats: list[str] = []

    def deal(self, colour: int) -> None:
        st = self.state
        card = CARDS[self.turn_index % len(CARDS)]
        self.turn_index += 1
        st.turn, st.card = colour, card
        st.set_moves(demo_moves(st.position, colour, card) if colour == YOU else [])

    def play(self, move_id: int) -> None:
        st = self.state
        move = next((m for m in st.moves if m.id == move_id), None)
        if move is None or st.turn != YOU:
            st.notice = "not your turn"
            return
        self.played.append(move_id)
        self._apply(move, "you")
        self.deal(BOT)
        self._redraw()
        asyncio.get_event_loop().call_later(BOT_DELAY, self._bot_turn)

    def _bot_turn(self) -> None:
        st = self.state
        moves = demo_moves(st.position, BOT, st.card or 1)
        if moves:
            self._apply(moves[-1], "bot")
        else:
            st.add_log(f"Blue: {st.card}: no move")
        self.deal(YOU)
        self._redraw()

    def _apply(self, move: MoveOption, who: str) -> None:
        st = self.state
        st.position = apply_option(st.position, move)
        st.last_move = move
        colour = "Red" if who == "you" else "Blue"
        st.add_log(f"{colour}: {move.notation}")

    def _redraw(self) -> None:
        if self.tui is not None:
            self.tui.invalidate()

    def join(self, address: str, name: str, pin: str, watch: bool = False) -> None:
        self.state.notice = "the demo has no network"

    def choose_colour(self, colour: int) -> None: ...
    def ask_swap(self, colour: int | None) -> None: ...
    def answer_swap(self, accept: bool) -> None: ...
    def ready(self) -> None: ...
    def add_bot(self) -> None: ...
    def remove_bot(self) -> None: ...
    def cycle_bot(self) -> None: ...
    def set_variant(self, variant: Variant) -> None: ...
    def start(self) -> None: ...

    def chat(self, text: str) -> None:
        self.chats.append(text)
        self.state.add_chat("you", text)

    def rematch(self) -> None: ...

    def reconnect(self) -> None:
        self.state.notice = "the demo has no network"

    def leave(self) -> None:
        self.state.link = Link.OFFLINE

    def more_time(self) -> None: ...

    def hint(self) -> None:
        self.state.notice = "the demo has no hints"


def demo_state() -> UiState:
    st = UiState(screen=Screen.GAME, link=Link.CONNECTED, you=YOU, seated=(0, 1, 2, 3))
    st.names = {0: "you", 1: "bot", 2: "", 3: ""}
    pos = [START] * 16
    pos[0], pos[1] = 4, 10  # R1, R2
    pos[4], pos[5] = 8, 20  # B1, B2
    pos[8], pos[12] = 33, 50  # Y1, G1
    st.position = tuple(pos)
    st.seated = (0, 1, 2, 3)
    st.game_title = "demo"
    st.add_log("demo game: you are Red")
    return st


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="board_demo.py")
    parser.add_argument("--ascii", action="store_true", help="no box-drawing characters")
    parser.add_argument("--no-mouse", action="store_true")
    parser.add_argument("--lang", default="en", help="the language to show (a catalog code)")
    parser.add_argument("--variant", type=Variant.parse, default=Variant.STANDARD)
    args = parser.parse_args(argv)
    set_language(args.lang)
    state = demo_state()
    state.variant = args.variant
    ctl = DemoController(state)
    ctl.deal(YOU)
    tui = TuiApp(state, ctl, ascii=args.ascii, mouse=not args.no_mouse)
    ctl.tui = tui
    tui.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
