"""The 7 split (seven.py) against a plain, step-by-step construction of every split."""

from __future__ import annotations

import random

from rules_helpers import layout, random_layout

from sorry_lan.rules.board import HOME, START, forward
from sorry_lan.rules.cards import Card
from sorry_lan.rules.moves import Move, MoveKind
from sorry_lan.rules.precomputed import land, layout_key
from sorry_lan.rules.seven import splits


def _part(pawns: tuple[int, ...], p: int, n: int) -> tuple[int, ...] | None:
    """The layout after pawn ``p`` moves ``n`` forward on ``pawns``; None if illegal."""
    if pawns[p] in (START, HOME):
        return None
    to = forward(p >> 2, pawns[p], n)
    if to < 0:
        return None
    landed = land(p, to, pawns)
    if landed is None:
        return None
    end, bumps = landed
    out = list(pawns)
    out[p] = end
    for r in bumps:
        out[r] = START
    return tuple(out)


def _expected(pawns: tuple[int, ...], usable: list[int]) -> set[int]:
    keys = set()
    for a in usable:
        for b in usable:
            if a == b:
                continue
            for k in range(1, 7):
                mid = _part(pawns, a, k)
                if mid is None or mid[b] == START:  # part one bumped part two's pawn
                    continue
                end = _part(mid, b, 7 - k)
                if end is not None:
                    keys.add(layout_key(end))
    return keys


def _run(pawns: tuple[int, ...], usable: list[int]) -> list[Move]:
    out: list[Move] = []
    splits(Card.SEVEN, pawns, [p for p in usable if pawns[p] < HOME], set(), out)
    return out


def test_splits_match_a_plain_construction_on_random_layouts() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(600):
        pawns = random_layout(rng, (0, 1, 2, 3))
        colour = rng.randrange(4)
        usable = list(range(colour * 4, colour * 4 + 4))
        if rng.random() < 0.3:  # team play: the partner's pawns too
            partner = (colour + 2) % 4
            usable += list(range(partner * 4, partner * 4 + 4))
        moves = _run(pawns, usable)
        keys = [layout_key(m.result(pawns)) for m in moves]
        assert len(keys) == len(set(keys))  # each layout once
        assert set(keys) == _expected(pawns, usable)
        for m in moves:
            a, b = m.parts
            assert m.kind == MoveKind.SPLIT and m.card == Card.SEVEN
            assert a.pawn != b.pawn
        checked += len(moves)
    assert checked > 1000  # the sample really exercised splits


def test_a_split_ending_home_needs_the_other_pawn_to_take_the_rest() -> None:
    # S5 -> HOME takes 1; the pawn on 1 takes the other 6 (to 2, then S1..S5, which the
    # first part just left): allowed.
    pawns = layout({"red": ["S5", 1, "start", "start"]})
    moves = _run(pawns, [0, 1, 2, 3])
    assert any(m.result(pawns)[:2] == (HOME, 64) for m in moves)
    assert {layout_key(m.result(pawns)) for m in moves} == _expected(pawns, [0, 1, 2, 3])
    lone = layout({"red": ["S5", "start", "start", "start"]})
    assert _run(lone, [0, 1, 2, 3]) == []  # no other pawn: no split at all
