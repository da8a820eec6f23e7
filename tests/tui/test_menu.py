"""The move menu: splits grouped by either part, built only from the offered moves."""

from __future__ import annotations

import random

from sorry_lan.rules.board import HOME, S1, START
from sorry_lan.rules.cards import Card
from sorry_lan.rules.movegen import generate
from sorry_lan.rules.moves import MoveContext, MoveKind
from sorry_lan.tui.menu import (
    MoveMenu,
    SplitFirst,
    entry_description,
    entry_label,
    entry_preview,
    entry_row,
    menu_rows,
    second_key,
    split_key,
)
from sorry_lan.tui.options import MoveOption, option_from_compact
from sorry_lan.tui.state import UiState

RED = tuple(range(4))
CTX = MoveContext(RED, RED, (0,), (0,))


def opened(st: UiState) -> SplitFirst | None:
    """The first part whose completions are listed (read afresh: keys change it)."""
    return st.split


def position(**placed: int) -> tuple[int, ...]:
    pos = [START] * 16
    for label, loc in placed.items():
        pos["RBYG".index(label[0]) * 4 + int(label[1]) - 1] = loc
    return tuple(pos)


def offered(pos: tuple[int, ...], card: Card = Card.SEVEN, first_id: int = 0) -> list[MoveOption]:
    """The engine's legal moves as the client lists them (ids in offer order)."""
    return [
        option_from_compact(pos, mv.compact(), first_id + i, mv.notation())
        for i, mv in enumerate(generate(pos, card, CTX))
    ]


POS = position(R1=4, R2=10, R3=20, B1=8)


def test_top_level_lists_single_moves_then_one_entry_per_first_part() -> None:
    moves = offered(POS)
    menu = MoveMenu(moves)
    singles = [e for e in menu.top if isinstance(e, MoveOption)]
    firsts = [e for e in menu.top if isinstance(e, SplitFirst)]
    assert [s.notation for s in singles] == ["R1 4->11", "R2 10->17", "R3 20->27"]
    assert menu.top[:3] == tuple(singles)  # in the host's order, singles first
    keys = [f.key for f in firsts]
    assert len(keys) == len(set(keys))
    # every part of every split is a first part, listed by pawn, then by length
    parts = {k for mv in moves for k in (split_key(mv), second_key(mv)) if k is not None}
    assert set(keys) == parts
    assert keys == sorted(keys, key=lambda k: (k[1], menu.firsts[k].steps or 99))
    r1_6 = menu.firsts[(7, 0, 6)]
    assert [c.compact for c in r1_6.completions] == [(1, 7, 0, 6, 1, 15), (1, 7, 0, 6, 2, 25)]
    assert entry_label(r1_6) == "R1 4->6 (2), then 5 more..."
    assert [entry_label(c, r1_6) for c in r1_6.completions] == ["R2 10->15", "R3 20->25"]
    assert "first R1 forward 2: 4 to 6, then 5 more with another pawn (2 ways)" in (
        entry_description(r1_6)
    )
    bump = menu.firsts[(7, 0, 8)]
    assert entry_label(bump) == "R1 4->8 xB1 (4), then 3 more..."
    # R2's 5 pairs with R1's 2 and R3's 2, though the host named R1 first in one of them
    r2_15 = menu.firsts[(7, 1, 15)]
    assert [c.compact for c in r2_15.completions] == [(1, 7, 0, 6, 1, 15), (1, 7, 1, 15, 2, 22)]
    assert [entry_label(c, r2_15) for c in r2_15.completions] == ["R1 4->6", "R3 20->22"]
    assert r2_15.completions[0].parts[0].pawn == 1  # seen from R2: its part first
    assert "(2 ways)" in entry_description(r2_15)


def test_the_menu_holds_exactly_the_offered_moves() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(200):
        pos = [START] * 16
        squares = rng.sample(range(60), 8)
        for pawn, sq in zip(range(16), squares, strict=False):
            if rng.random() < 0.7:
                pos[pawn] = sq
        if rng.random() < 0.3:
            pos[rng.randrange(4)] = S1 + rng.randrange(5)
        moves = offered(tuple(pos))
        menu = MoveMenu(moves)
        listed = [e for e in menu.top if isinstance(e, MoveOption)]
        splits = [o for o in moves if split_key(o) is not None]
        seen: list[int] = []
        for first in menu.firsts.values():
            assert first.completions, first
            for c in first.completions:
                assert first.key in (split_key(c), second_key(c))
                # the preview's first part is the completion's first part (its bumps may
                # differ: a part played second can find a square the first part cleared)
                a, b = c.parts[0], first.preview.parts[0]
                assert (a.pawn, a.frm, a.to) == (b.pawn, b.frm, b.to)
                offered_as = next(o for o in moves if o.id == c.id)
                assert c.compact == offered_as.compact  # the same move, maybe seen swapped
                assert set(c.parts) == set(offered_as.parts)
            seen += [c.id for c in first.completions]
        # every split is listed under both of its pawns' parts, and nothing else is
        assert sorted(seen) == sorted(o.id for o in splits for _ in (0, 1))
        assert listed == [o for o in moves if split_key(o) is None]  # the very objects
        checked += len(menu.firsts)
    assert checked > 100


def test_moves_that_are_not_splits_stay_flat() -> None:
    moves = offered(position(R1=4, B1=20), Card.ELEVEN)
    menu = MoveMenu(moves)
    assert menu.top == tuple(moves) and not menu.has_splits
    rows = menu_rows(menu.top, None)
    assert [r.entry for r in rows] == list(range(len(moves)))
    assert rows[0].text == f"1 {moves[0].notation}"


def test_rows_keys_and_headings() -> None:
    menu = MoveMenu(offered(POS))
    rows = menu_rows(menu.top, None)
    headings = [r for r in rows if r.entry is None]
    assert [h.text for h in headings] == [" split the 7, first part:"]
    assert rows[3] is headings[0] and rows[4].entry == 3
    assert rows[4].text.startswith("4  R1 4->5 (1)")  # keys take two columns past 9
    tenth = next(r for r in rows if r.entry == 9)
    assert tenth.text.startswith("10 ")
    assert next(r for r in rows if r.entry == 10).text.startswith("11 ")  # typed 1, 1
    assert entry_row(rows, 3) == 4 and entry_row(rows, 0) == 0
    inside = menu.firsts[(7, 0, 6)]
    rows = menu_rows(inside.completions, inside)
    assert rows[0].back and rows[0].text == "< R1 4->6 (2), then:"
    assert [r.text for r in rows[1:]] == ["1 R2 10->15", "2 R3 20->25"]
    assert entry_row(rows, 1) == 2


def test_tagged_entries_name_their_card() -> None:
    menu = MoveMenu(offered(POS), tagged=True)
    first = menu.firsts[(7, 0, 6)]
    assert entry_label(first) == "[7] R1 4->6 (2), then 5 more..."
    assert entry_description(first).startswith("play the 7: split the 7")
    assert menu_rows(first.completions, first)[0].text.startswith("< [7] R1 4->6")


def test_a_split_the_board_cannot_explain_is_still_grouped() -> None:
    odd = MoveOption(
        7, MoveKind.SPLIT, 7, (1, 7, 0, 30, 1, 31), "7: odd", "a move the host offers", ()
    )
    menu = MoveMenu([odd])
    first, second = menu.top  # under R1's part and under R2's
    assert isinstance(first, SplitFirst) and first.completions == (odd,)
    assert isinstance(second, SplitFirst) and second.key == (7, 1, 31)
    assert entry_label(first) == "R1 ->30, then the rest..."
    assert entry_label(odd, first) == "7: odd"
    assert entry_preview(first) is not None and entry_preview(first).parts == ()  # type: ignore[union-attr]
    assert "R1 to 30" in entry_description(first)


def test_state_walks_the_two_levels() -> None:
    st = UiState(position=POS)
    st.set_moves(offered(POS))
    assert not st.open_split()  # a single move is highlighted
    assert not st.close_split()
    assert st.select(4)
    first = st.selected_entry()
    assert isinstance(first, SplitFirst) and st.selected_move() is None
    # the board previews the first part alone
    hl = st.highlights()
    assert hl.moving == frozenset({0}) and len(hl.dest) == 1
    assert st.open_split() and opened(st) is first and st.selected == 0
    assert st.entries() == first.completions
    st.move_selection(1)
    move = st.selected_move()
    assert move is not None and move.compact == (1, 7, 0, 6, 2, 25)
    assert st.highlights().moving == frozenset({0, 2})
    st.move_selection(1)
    assert st.selected == 0  # wraps within the completions
    assert not st.select(2)
    assert st.close_split() and opened(st) is None and st.selected == 4
    st.open_split()
    st.set_moves(offered(POS))  # a new offer starts at the top level
    assert opened(st) is None and st.selected == 0


def test_home_in_a_split_is_listed() -> None:
    pos = position(R1=S1 + 3, R2=10)
    menu = MoveMenu(offered(pos))
    first = menu.firsts[(7, 0, HOME)]
    assert entry_label(first) == "R1 S4->home (2), then 5 more..."
    assert [c.compact for c in first.completions] == [(1, 7, 0, HOME, 1, 15)]
