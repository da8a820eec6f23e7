"""Move options rebuilt from compact forms: parts, paths, slides, bumps, descriptions."""

from __future__ import annotations

import random

import pytest

from sorry_lan.rules.board import HOME, S1, START
from sorry_lan.tui.board import spot
from sorry_lan.tui.options import BadMove, apply_option, highlights_for, option_from_compact

ALL_START = [START] * 16


def pos_with(**placed: int) -> tuple[int, ...]:
    pos = list(ALL_START)
    for label, loc in placed.items():
        pos["RBYG".index(label[0]) * 4 + int(label[1]) - 1] = loc
    return tuple(pos)


def test_simple_forward_path_and_description() -> None:
    opt = option_from_compact(pos_with(R1=12), (0, 5, 0, 17), 3, "R1 12->17")
    (part,) = opt.parts
    assert part.path == (13, 14, 15, 16, 17) and part.end == 17 and part.bumps == ()
    assert opt.id == 3 and opt.notation == "R1 12->17"
    assert "R1 forward 5: 12 to 17" in opt.description


def test_leaving_start_and_backward_and_into_safety() -> None:
    opt = option_from_compact(pos_with(R2=START), (0, 1, 1, 4), 0)
    assert opt.parts[0].path == (4,) and "out of START" in opt.description
    back = option_from_compact(pos_with(R1=2), (0, 4, 0, 58), 0)
    assert back.parts[0].path == (1, 0, 59, 58) and "back 4" in back.description
    safe = option_from_compact(pos_with(R1=1), (0, 3, 0, S1 + 1), 0)
    assert safe.parts[0].path == (2, S1, S1 + 1)
    home = option_from_compact(pos_with(R1=S1 + 4), (0, 1, 0, HOME), 0)
    assert home.parts[0].end == HOME


def test_slide_of_another_colour_bumps_everyone_on_it() -> None:
    # blue's long slide: 24..28; R2 (own colour) and Y1 sit on it
    pos = pos_with(R1=20, R2=26, Y1=28, B1=30)
    opt = option_from_compact(pos, (0, 4, 0, 24), 0)
    (part,) = opt.parts
    assert part.to == 24 and part.end == 28 and part.slide == (25, 26, 27, 28)
    assert set(part.bumps) == {1, 8}
    assert "slides to 28" in opt.description and "bumps" in opt.description
    hl = highlights_for(opt)
    assert (spot(0, 28), 0) in hl.dest and hl.bumps == {1, 8}
    assert {21, 22, 23, 24, 25, 26, 27, 28} <= hl.path


def test_own_triangle_does_not_slide() -> None:
    wrap = option_from_compact(pos_with(R1=55), (0, 5, 0, 0), 0)
    assert wrap.parts[0].path == (56, 57, 58, 59, 0) and wrap.parts[0].end == 0
    tri = option_from_compact(pos_with(R1=5), (0, 4, 0, 1), 0)
    assert tri.parts[0].end == 1  # red's own triangle


def test_split_swap_sorry_decline_discard() -> None:
    split = option_from_compact(pos_with(R1=4, R2=10), (1, 7, 0, 8, 1, 13), 0)
    assert [p.end for p in split.parts] == [8, 13]
    assert split.description.startswith("split the 7: first R1 forward 4")
    assert "then R2 forward 3" in split.description
    swap = option_from_compact(pos_with(R1=23, B2=40), (2, 11, 0, 5), 0)
    assert [(p.pawn, p.end) for p in swap.parts] == [(0, 40), (5, 23)]
    assert "swap R1 on 23 with B2 on 40" in swap.description
    sorry = option_from_compact(pos_with(B1=40), (3, 13, 0, 4), 0)
    assert sorry.parts[0].to == 40 and sorry.bumps == (4,)
    assert option_from_compact(pos_with(), (4, 11), 0).parts == ()
    assert "discard the 5" in option_from_compact(pos_with(), (5, 5), 0).description
    hl = highlights_for(None, last=swap)
    assert {23, 40} <= hl.last and not hl.dest


@pytest.mark.parametrize(
    "compact",
    [(), (9, 1), (0, 5, 0), (0, 5, 0, 30), (0, 5, 99, 4), (3, 13, 0, 4), (2, 11, 0, 1)],
)
def test_nonsense_is_a_typed_error(compact: tuple[int, ...]) -> None:
    with pytest.raises(BadMove):
        option_from_compact(pos_with(R1=12), compact, 0)


def test_agrees_with_the_engine_on_random_positions() -> None:
    from sorry_lan.rules.cards import Card
    from sorry_lan.rules.movegen import generate
    from sorry_lan.rules.moves import MoveContext, MoveKind

    rng = random.Random(7)
    checked = 0
    for _ in range(300):
        pos = list(ALL_START)
        taken: set[int] = set()
        for pawn in range(16):
            r = rng.random()
            if r < 0.5:
                sq = rng.randrange(60)
                if sq not in taken:
                    taken.add(sq)
                    pos[pawn] = sq
            elif r < 0.6:
                pos[pawn] = S1 + rng.randrange(5)
        if any(
            pos[a] == pos[b] and S1 <= pos[a] < HOME and a >> 2 == b >> 2
            for a in range(16)
            for b in range(a)
        ):
            continue
        card = rng.choice(list(Card))
        mine = tuple(range(4))
        ctx = MoveContext(mine, mine, (0,), (0,))
        for i, mv in enumerate(generate(tuple(pos), card, ctx)):
            opt = option_from_compact(pos, mv.compact(), i, mv.notation())
            # Representations of a pawn swept away mid-move differ; the outcome must not.
            assert apply_option(pos, opt) == mv.result(pos), (pos, mv)
            expected_bumps = set(mv.bumped())
            if mv.kind == MoveKind.SORRY:
                expected_bumps.add(mv.parts[1].pawn)  # the engine lists the target as a part
            assert set(opt.bumps) == expected_bumps, (pos, mv)
            assert len(opt.parts) == (1 if mv.kind == MoveKind.SORRY else len(mv.parts))
            for mine_part, theirs in zip(opt.parts, mv.parts, strict=False):
                assert (mine_part.pawn, mine_part.frm, mine_part.to) == (
                    theirs.pawn,
                    theirs.frm,
                    theirs.to,
                ), (pos, mv)
            checked += 1
    assert checked > 100
