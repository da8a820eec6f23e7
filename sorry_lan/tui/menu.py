"""The move list as the player walks it: flat for most cards, two steps for a split 7.

A 7 can be split between two pawns in dozens of ways, too many to read as one list.
:class:`MoveMenu` groups the offered splits by their first part (card, pawn, square
landed on): the top level lists every move that is not a split, as offered, plus one
:class:`SplitFirst` entry per distinct first part, in the place of the first split
that starts with it.  Choosing a :class:`SplitFirst` shows its completions: exactly
the offered splits that begin with that part, in the host's order.

Everything is built from the host's offer (each option's compact form
``(1, 7, pawnA, toA, pawnB, toB)``); no move is made up, judged or reordered across
parts, so a completion is always an offered move id.  A split whose reverse order
the host did not offer (it offers each resulting layout once) is found under the
first part it was offered with, not under the other pawn.

:func:`menu_rows` lays an entry list out as the lines of the move panel (headings
included).  Nothing here draws, reads keys or imports prompt_toolkit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sorry_lan.rules.board import location_name, pawn_label
from sorry_lan.rules.moves import MoveKind

from .options import MoveOption, card_name, part_words, short_part

SPLIT_TOTAL = 7  # the two parts of a split always add up to this


@dataclass(frozen=True)
class SplitFirst:
    """The first part shared by one or more offered splits, and those splits.

    ``preview`` is the first offered split cut down to its first part (for the board
    highlights); its ``parts`` are empty when the board could not explain the move.
    ``steps`` is the first part's length, or None when unknown.
    """

    card: int
    pawn: int
    to: int
    steps: int | None
    completions: tuple[MoveOption, ...]
    preview: MoveOption
    tag: str  # "[7] " when entries name their card (play for points), else ""

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.card, self.pawn, self.to)

    def first_text(self) -> str:
        """The first part in short form, e.g. "R1 4->6 (2)"."""
        if self.preview.parts:
            text = short_part(self.preview.parts[0])
        else:
            text = f"{pawn_label(self.pawn)} ->{location_name(self.to)}"
        return text if self.steps is None else f"{text} ({self.steps})"

    def rest_text(self) -> str:
        """What the second part has to cover, e.g. "5 more"."""
        return "the rest" if self.steps is None else f"{SPLIT_TOTAL - self.steps} more"


Entry = MoveOption | SplitFirst


def split_key(option: MoveOption) -> tuple[int, int, int] | None:
    """(card, pawn, to) of a split's first part, or None when ``option`` is no split."""
    c = option.compact
    if option.kind != MoveKind.SPLIT or len(c) != 6:
        return None
    return (c[1], c[2], c[3])


class MoveMenu:
    """The offered moves grouped for a two-step split 7 (see the module docstring).

    ``tagged`` (play for points) puts each entry's card in front of its label, as the
    options' notations already do.  The menu never changes the options it is given.
    """

    def __init__(self, moves: Sequence[MoveOption], tagged: bool = False) -> None:
        self.moves = tuple(moves)
        self.tagged = tagged
        groups: dict[tuple[int, int, int], list[MoveOption]] = {}
        order: list[MoveOption | tuple[int, int, int]] = []
        for option in self.moves:
            key = split_key(option)
            if key is None:
                order.append(option)
            elif key in groups:
                groups[key].append(option)
            else:
                groups[key] = [option]
                order.append(key)
        self.firsts = {key: self._first(key, tuple(opts)) for key, opts in groups.items()}
        self.top: tuple[Entry, ...] = tuple(
            item if isinstance(item, MoveOption) else self.firsts[item] for item in order
        )

    def _first(self, key: tuple[int, int, int], options: tuple[MoveOption, ...]) -> SplitFirst:
        card, pawn, to = key
        explained = next((o for o in options if len(o.parts) == 2), options[0])
        parts = explained.parts[:1]
        preview = replace(explained, parts=parts)
        steps = len(parts[0].path) if parts else None
        tag = f"[{card_name(card)}] " if self.tagged else ""
        return SplitFirst(card, pawn, to, steps, options, preview, tag)

    @property
    def has_splits(self) -> bool:
        return bool(self.firsts)


def entry_label(entry: Entry, inside: SplitFirst | None = None) -> str:
    """The entry's line in the list (without the key column).

    ``inside``: the first part whose completions are listed; a completion is then
    shown as its second part alone."""
    if isinstance(entry, SplitFirst):
        return f"{entry.tag}{entry.first_text()}, then {entry.rest_text()}..."
    if inside is not None:
        if len(entry.parts) == 2:
            return short_part(entry.parts[1])
        return entry.notation
    return entry.notation


def entry_description(entry: Entry) -> str:
    """The plain-words line under the list for the highlighted entry."""
    if isinstance(entry, MoveOption):
        return entry.description
    n = len(entry.completions)
    ways = "1 way" if n == 1 else f"{n} ways"
    if entry.preview.parts:
        first = part_words(entry.preview.parts[0])
    else:
        first = f"{pawn_label(entry.pawn)} to {location_name(entry.to)}"
    play = f"play the {card_name(entry.card)}: " if entry.tag else ""
    return f"{play}split the 7: first {first}, then {entry.rest_text()} with another pawn ({ways})"


def entry_preview(entry: Entry | None) -> MoveOption | None:
    """What the board previews for the highlighted entry: a move, or a first part."""
    if entry is None:
        return None
    return entry.preview if isinstance(entry, SplitFirst) else entry


@dataclass(frozen=True)
class Row:
    """One line of the move panel: an entry (its index) or a heading (``entry`` None).

    ``back``: clicking the line returns to the first parts."""

    text: str
    entry: int | None = None
    back: bool = False


def menu_rows(entries: Sequence[Entry], inside: SplitFirst | None) -> list[Row]:
    """The panel's lines: entries with their keys (1-9, 0), and headings.

    At the top level a heading goes before each run of first parts; inside a first
    part, a heading names it (and clicking it goes back)."""
    rows: list[Row] = []
    if inside is not None:
        rows.append(Row(f"< {inside.tag}{inside.first_text()}, then:", back=True))
    previous_first = False
    for i, entry in enumerate(entries):
        is_first = isinstance(entry, SplitFirst)
        if is_first and not previous_first:
            tag = entry.tag if isinstance(entry, SplitFirst) else ""
            rows.append(Row(f" {tag}split the 7, first part:"))
        previous_first = is_first
        key = str(i + 1) if i < 9 else ("0" if i == 9 else " ")
        rows.append(Row(f"{key} {entry_label(entry, inside)}", i))
    return rows


def entry_row(rows: Sequence[Row], index: int) -> int:
    """The line of entry ``index`` (0 when it is not listed)."""
    return next((r for r, row in enumerate(rows) if row.entry == index), 0)
