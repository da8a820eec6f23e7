"""The move list as the player walks it: flat for most cards, two steps for a split 7.

A 7 can be split between two pawns in dozens of ways, too many to read as one list.
:class:`MoveMenu` groups the offered splits by their first part (card, pawn, square
landed on): the top level lists every move that is not a split, as offered, plus one
:class:`SplitFirst` entry per distinct first part, in the place of the first split
that starts with it.  Choosing a :class:`SplitFirst` shows its completions: exactly
the offered splits that have that part, whichever pawn the host named first.

Everything is built from the host's offer (each option's compact form
``(1, 7, pawnA, toA, pawnB, toB)``); no move is made up or judged, so a completion is
always an offered move id.  The host offers each resulting layout once, with one of
its two pawns first; the menu lists it under both pawns' parts (under the second
pawn as a copy whose ``parts`` are swapped: same id, same compact form), so
"R1 +3, R2 +4" is found from R1's 3 and from R2's 4.  First parts are listed by pawn,
then by length; completions by the other pawn, then by length.

:func:`menu_rows` lays an entry list out as the lines of the move panel (headings
included).  Nothing here draws, reads keys or imports prompt_toolkit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from sorry_lan.i18n import _, ngettext, words
from sorry_lan.rules.board import pawn_label
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
            text = f"{pawn_label(self.pawn)} ->{words.short_location(self.to)}"
        return text if self.steps is None else f"{text} ({self.steps})"

    def rest_text(self) -> str:
        """What the second part has to cover, e.g. "5 more"."""
        if self.steps is None:
            return _("the rest")
        return _("{n} more").format(n=SPLIT_TOTAL - self.steps)


Entry = MoveOption | SplitFirst


def split_key(option: MoveOption) -> tuple[int, int, int] | None:
    """(card, pawn, to) of a split's first part, or None when ``option`` is no split."""
    c = option.compact
    if option.kind != MoveKind.SPLIT or len(c) != 6:
        return None
    return (c[1], c[2], c[3])


def second_key(option: MoveOption) -> tuple[int, int, int] | None:
    """(card, pawn, to) of a split's second part, or None when ``option`` is no split."""
    c = option.compact
    if option.kind != MoveKind.SPLIT or len(c) != 6:
        return None
    return (c[1], c[4], c[5])


def _swapped(option: MoveOption) -> MoveOption:
    """The split seen from its second pawn: the same move, its parts in the other order."""
    return replace(option, parts=option.parts[::-1]) if len(option.parts) == 2 else option


def _steps(option: MoveOption) -> int:
    return len(option.parts[0].path) if option.parts else 99


class MoveMenu:
    """The offered moves grouped for a two-step split 7 (see the module docstring).

    ``tagged`` (play for points) puts each entry's card in front of its label, as the
    options' notations already do.  The menu never changes the options it is given.
    """

    def __init__(self, moves: Sequence[MoveOption], tagged: bool = False,
                 chances: Mapping[int, float] | None = None) -> None:
        self.moves = tuple(moves)
        self.tagged = tagged
        self.chances = dict(chances or {})
        groups: dict[tuple[int, int, int], list[MoveOption]] = {}
        order: list[MoveOption | None] = []  # None: where the first parts go
        for option in self.moves:
            key, other = split_key(option), second_key(option)
            if key is None or other is None:
                order.append(option)
                continue
            if not groups:
                order.append(None)
            groups.setdefault(key, []).append(option)
            if other != key:
                groups.setdefault(other, []).append(_swapped(option))
        firsts = {key: self._first(key, opts) for key, opts in groups.items()}
        ranked = sorted(firsts.values(), key=lambda f: (f.pawn, f.steps or 99, f.to))
        self.firsts = {f.key: f for f in ranked}
        top: list[Entry] = []
        for item in order:
            top.extend(ranked if item is None else [item])
        if self.chances:  # hints: best first, at both levels (a stable sort)
            self.firsts = {k: replace(f, completions=tuple(sorted(
                f.completions, key=lambda o: -self.chances.get(o.id, 0.0))))
                for k, f in self.firsts.items()}
            top = [self.firsts[e.key] if isinstance(e, SplitFirst) else e for e in top]
            top.sort(key=lambda e: -(entry_chance(e, self.chances) or 0.0))
        self.top: tuple[Entry, ...] = tuple(top)

    def _first(self, key: tuple[int, int, int], offered: list[MoveOption]) -> SplitFirst:
        card, pawn, to = key

        def other(option: MoveOption) -> tuple[int, int]:
            rest = option.parts[1] if len(option.parts) == 2 else None
            return (99, 99) if rest is None else (rest.pawn, len(rest.path))

        options = tuple(sorted(offered, key=other))
        explained = next((o for o in options if len(o.parts) == 2), options[0])
        parts = explained.parts[:1]
        preview = replace(explained, parts=parts)
        steps = len(parts[0].path) if parts else None
        tag = f"[{card_name(card)}] " if self.tagged else ""
        return SplitFirst(card, pawn, to, steps, options, preview, tag)

    @property
    def has_splits(self) -> bool:
        return bool(self.firsts)


def entry_chance(entry: Entry, chances: Mapping[int, float]) -> float | None:
    """The hint for an entry: a move's chance, a first part's best completion's; None
    when there is none."""
    if isinstance(entry, SplitFirst):
        found = [chances[o.id] for o in entry.completions if o.id in chances]
        return max(found) if found else None
    return chances.get(entry.id)


def percent(chance: float) -> str:
    """A chance as the hints show it: ``62%``."""
    return _("{n}%").format(n=round(100 * chance))


def entry_label(entry: Entry, inside: SplitFirst | None = None) -> str:
    """The entry's line in the list (without the key column).

    ``inside``: the first part whose completions are listed; a completion is then
    shown as its second part alone."""
    if isinstance(entry, SplitFirst):
        return entry.tag + _("{first}, then {rest}...").format(
            first=entry.first_text(), rest=entry.rest_text()
        )
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
    if entry.preview.parts:
        first = part_words(entry.preview.parts[0])
    else:
        first = _("{pawn} to {square}").format(
            pawn=pawn_label(entry.pawn), square=words.location_name(entry.to)
        )
    text = ngettext(
        "split the 7: first {first}, then {rest} with another pawn ({n} way)",
        "split the 7: first {first}, then {rest} with another pawn ({n} ways)",
        n,
    ).format(first=first, rest=entry.rest_text(), n=n)
    if entry.tag:
        text = _("play the {card}: {move}").format(card=card_name(entry.card), move=text)
    return text


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


def entry_key(index: int) -> str:
    """The digits that pick entry ``index`` (0-based): 1-9, then 10, 11, ... typed
    quickly one after the other (0 alone is 10)."""
    return str(index + 1)


def menu_rows(entries: Sequence[Entry], inside: SplitFirst | None,
              chances: Mapping[int, float] | None = None) -> list[Row]:
    """The panel's lines: entries with their keys (1, 2, ... 10, 11, ...), and headings.

    At the top level a heading goes before each run of first parts; inside a first
    part, a heading names it (and clicking it goes back).  With ``chances`` (hints)
    each entry's chance to win follows its key."""
    wide = len(entries) > 9
    rows: list[Row] = []
    if inside is not None:
        then = _("{first}, then:").format(first=inside.first_text())
        rows.append(Row(f"< {inside.tag}{then}", back=True))
    previous_first = False
    for i, entry in enumerate(entries):
        is_first = isinstance(entry, SplitFirst)
        if is_first and not previous_first:
            tag = entry.tag if isinstance(entry, SplitFirst) else ""
            rows.append(Row(f" {tag}" + _("split the 7, first part:")))
        previous_first = is_first
        key = entry_key(i).ljust(2 if wide else 1)
        chance = entry_chance(entry, chances) if chances else None
        if chance is not None:
            key += " " + percent(chance).rjust(4)
        rows.append(Row(f"{key} {entry_label(entry, inside)}", i))
    return rows


def entry_row(rows: Sequence[Row], index: int) -> int:
    """The line of entry ``index`` (0 when it is not listed)."""
    return next((r for r, row in enumerate(rows) if row.entry == index), 0)
