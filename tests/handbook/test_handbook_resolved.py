"""Every point the engine settles (RULES.md's "resolved") is stated in the players' rules.

:data:`RESOLVED` maps each resolved point, by the test that pins it in
``tests/rules/test_rules_resolved.py`` (one ``test_sN_...`` per point, N its section
of RULES.md) and that section's heading, to the paragraphs of
:mod:`sorry_lan.handbook` that state it, with the figures the statement needs.  The
tests fail when a resolved point has no paragraph (a new ``test_sN`` not mapped here,
or a section of RULES.md that says "resolved" with no point mapped to it), when a
language lacks the paragraph, or when a paragraph lacks the figures.  RULES.md lives
beside the repository in the workplace (``../shared/rules/``), not in a clone: the
checks against it are skipped where it is absent.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import NamedTuple

import pytest

from sorry_lan.handbook import handbook, shipped

ROOT = Path(__file__).resolve().parents[2]
PINNED = ROOT / "tests" / "rules" / "test_rules_resolved.py"


class Point(NamedTuple):
    heading: str  # its section's heading in RULES.md
    paragraphs: tuple[str, ...]  # the handbook paragraphs that state it
    figures: tuple[str, ...] = ()  # numbers each of those paragraphs (together) must give


RESOLVED: dict[str, Point] = {
    "test_s1_the_deck_is_the_commercial_45_with_no_6_or_9": Point(
        "1. Components", ("deck",), ("45", "6", "9", "5", "4")
    ),
    "test_s2_board_geometry": Point(
        "2. The board (resolved geometry)",
        ("track", "safety", "slides"),
        ("60", "15", "58", "2", "5", "6", "64", "4", "1", "9"),
    ),
    "test_s3_first_player_random_by_default_and_a_rematch_starts_with_the_winner": Point(
        "3. Setup and turn order", ("first",)
    ),
    "test_s4_a_slide_bumps_pawns_of_every_colour_including_the_sliders_own": Point(
        "4. A turn", ("slide-bumps",)
    ),
    "test_s5_eleven_must_be_played_when_some_pawn_can_move_eleven": Point(
        "5. The cards", ("card-11",), ("11",)
    ),
    "test_s7_own_pawn_is_the_moving_pawns_colour": Point(
        "7. Variant: team play", ("team-own-pawn",)
    ),
    "test_s7_opponent_pawn_includes_the_partners": Point(
        "7. Variant: team play", ("team-opponent",), ("11",)
    ),
    "test_s7_own_colour_triangle_slides_the_partners_pawn": Point(
        "7. Variant: team play", ("team-triangle",)
    ),
    "test_s7_own_pawns_until_all_four_are_home_then_the_partners": Point(
        "7. Variant: team play", ("team-whose-pawns",), ("4",)
    ),
    "test_s8_only_swaps_legal_the_player_may_discard_instead": Point(
        "8. Variant: play for points", ("points-no-move",), ("11",)
    ),
    "test_s8_a_two_from_the_hand_lets_the_player_choose_again": Point(
        "8. Variant: play for points", ("points-two",), ("2",)
    ),
    "test_s8_bonuses_do_not_add_up": Point(
        "8. Variant: play for points", ("points-bonus",), ("100", "50", "25")
    ),
}


def pinned_points(source: str) -> set[str]:
    """The names of the resolved-point tests (``test_sN_...``) in ``source``."""
    tree = ast.parse(source)
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and re.match(r"test_s\d+_", node.name)
    }


def rules_md() -> Path | None:
    """RULES.md where the workplace keeps it (beside the main checkout or a worktree)."""
    for base in (ROOT.parent, ROOT.parent.parent):
        path = base / "shared" / "rules" / "RULES.md"
        if path.is_file():
            return path
    return None


def sections_of(text: str) -> dict[str, str]:
    """RULES.md's ``## `` sections: heading -> body."""
    out: dict[str, str] = {}
    heading = ""
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
            out[heading] = ""
        elif heading:
            out[heading] += line + "\n"
    return out


def test_every_resolved_point_the_engine_pins_is_mapped_to_the_rules_text() -> None:
    pinned = pinned_points(PINNED.read_text(encoding="utf-8"))
    assert len(pinned) >= 12
    assert pinned - set(RESOLVED) == set(), "resolved points with no paragraph in the rules"
    assert set(RESOLVED) - pinned == set(), "mapped points no test pins any more"


def test_the_mapping_notices_a_new_point() -> None:
    new = "\n\ndef test_s4_something_new() -> None:\n    ...\n"
    source = PINNED.read_text(encoding="utf-8") + new
    assert pinned_points(source) - set(RESOLVED) == {"test_s4_something_new"}


def test_each_point_is_in_the_section_its_name_says() -> None:
    for name, point in RESOLVED.items():
        number = re.match(r"test_s(\d+)_", name)
        assert number is not None
        assert point.heading.startswith(number[1] + ". "), name


@pytest.mark.parametrize("lang", shipped())
def test_every_language_states_every_resolved_point(lang: str) -> None:
    paragraphs = handbook(lang).paragraphs()
    for name, point in RESOLVED.items():
        missing = [p for p in point.paragraphs if p not in paragraphs]
        assert missing == [], f"{lang}: {name} is stated by no paragraph {missing}"
        text = " ".join(paragraphs[p].text for p in point.paragraphs)
        numbers = set(re.findall(r"\d+", text))
        assert set(point.figures) <= numbers, f"{lang}: {name} lacks {point.figures}"


def test_the_headings_and_the_points_agree_with_rules_md() -> None:
    path = rules_md()
    if path is None:
        pytest.skip("RULES.md is not beside this checkout (a clone)")
    sections = sections_of(path.read_text(encoding="utf-8"))
    headings = {point.heading for point in RESOLVED.values()}
    assert headings <= set(sections), "a heading RULES.md does not have"
    for heading, body in sections.items():
        said = len(re.findall(r"\bresolved\b", heading + "\n" + body, flags=re.IGNORECASE))
        mapped = sum(1 for point in RESOLVED.values() if point.heading == heading)
        # a "resolved" may settle several points (a list under it), never none
        assert (said > 0) == (mapped > 0), heading
        assert mapped >= said, heading
