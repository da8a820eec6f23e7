"""What every captured screen of a translated game must satisfy (tmux captures, 80x24).

* **Width**: no line wider than the terminal, measured as terminals do (each code
  point: 0 for a non-spacing mark or a format character, 2 for an East Asian wide
  one, else 1, as glibc's ``wcwidth`` and tmux count; a spacing mark such as
  Devanagari ``ि`` takes a column) and as the sequence-aware count
  (:func:`sorry_lan.tui.cells.room`), whichever is larger.
* **No English**: no word of the English interface left.  The English words are
  those of the source messages (``messages.pot``) and of the English game's own
  screens (which also catches text never marked for translation); a word the
  language's catalog itself uses (``Sorry!``, ``Enter``) is allowed, as are key caps
  (``Esc``, ``PgUp``); player names (also wrapped or clipped ones) and pawn tokens
  (``R1``, ``xB2``) are taken out before reading.
* **No cut sentence**: a sentence the screen should show (the test knows it, worded
  as the screen words it) that would fit on two lines of its column is shown whole
  (its words in order, wrapped over any number of lines of the board's column, the
  side panel or the whole width); and no line of a column ends in an ellipsis with
  the line under it empty (the rest had room there).  The width check alone cannot
  see a cut: a clipped line is never too wide.
* **Layout**: the title bar ends in the column it ends in on the English screen, the
  footer starts where the English one does on the last row, and on every row where
  the English screen has the side panel's border (``│``) the translated one has a
  border character in that terminal column.

Test code only; nothing here drives a process.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

from sorry_lan.i18n.catalogs import read_catalog
from sorry_lan.tui import cells
from sorry_lan.tui.screens.parts import board_geometry

COLS, ROWS = 80, 24
_WORD = re.compile(r"[^\W\d_]{2,}")  # letters only: R1, S2, 45 and "x" are no words
_PAWN = re.compile(r"(?<![^\W\d_])x?[RBYG][1-4](?!\d)")  # R1, and xB2 (bumps B2)
#: Key caps as keyboards print them (abbreviations, not English words to translate).
KEY_CAPS = frozenset({"esc", "bksp", "pgup", "pgdn", "ctrl"})
_BORDERS = "│─┤├┼┬┴"
_URL = re.compile(r"https?://\S+")  # an address to type in a browser, not words
_ELLIPSES = ("…", "...")


def cell_width(ch: str) -> int:
    """Columns a terminal gives one code point."""
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me", "Cf") or ch == "\u200b":
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def term_width(text: str) -> int:
    return sum(cell_width(ch) for ch in text)


def at_column(line: str, column: int) -> str:
    """The character a terminal shows in ``column`` (0-based) of ``line`` ("" if none)."""
    used = 0
    for ch in line:
        w = cell_width(ch)
        if w and used == column:
            return ch
        used += w
        if used > column:
            return ""
    return " "


def too_wide(screen: str, cols: int = COLS) -> list[str]:
    """The lines of ``screen`` wider than ``cols`` in either count."""
    return [
        line for line in screen.splitlines()
        if max(term_width(line.rstrip()), cells.room(line.rstrip())) > cols
    ]  # fmt: skip


def words_of(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def _catalog_texts(name: str, *, strings: bool) -> Iterable[str]:
    for msg in read_catalog(name):
        if not msg.id:
            continue
        value = msg.string if strings else msg.id
        if isinstance(value, tuple | list):
            yield from (v for v in value if v)
        elif value:
            yield value


@cache
def source_words() -> frozenset[str]:
    """Every word of the English source messages (placeholders left out)."""
    texts = (re.sub(r"\{[^{}]*\}", " ", t) for t in _catalog_texts("messages.pot", strings=False))
    return frozenset(w for t in texts for w in words_of(t))


@cache
def catalog_words(lang: str) -> frozenset[str]:
    """Every word the language's own catalog uses (placeholders left out)."""
    texts = (re.sub(r"\{[^{}]*\}", " ", t) for t in _catalog_texts(f"{lang}.po", strings=True))
    return frozenset(w for t in texts for w in words_of(t))


def without_names(screen: str, names: Iterable[str]) -> str:
    """``screen`` without player names and pawn tokens, also where a name was wrapped
    or clipped (its first words ending a line or a panel, its last words starting one)."""
    ordered = sorted(names, key=len, reverse=True)
    out = []
    for line in screen.splitlines():
        parts = []
        for part in line.split("│"):
            for name in ordered:
                part = part.replace(name, " ")
                pieces = name.split(" ")
                for k in range(1, len(pieces)):
                    head, tail = " ".join(pieces[:k]), " ".join(pieces[k:])
                    if part.rstrip().endswith(head):
                        part = part.rstrip()[: -len(head)]
                    if part.lstrip().startswith(tail):
                        part = part.lstrip()[len(tail) :]
            parts.append(_PAWN.sub(" ", part))
        out.append("│".join(parts))
    return "\n".join(out)


def english_left(
    screen: str, lang: str, english: Iterable[str], names: Iterable[str]
) -> dict[str, list[str]]:
    """English interface words on ``screen`` (shown in ``lang``), each with its lines."""
    known = (source_words() | frozenset(english)) - catalog_words(lang) - KEY_CAPS
    found: dict[str, list[str]] = {}
    for line in without_names(screen, names).splitlines():
        for word in sorted(words_of(_URL.sub(" ", line)) & known):
            found.setdefault(word, []).append(line.strip())
    return found


def _first_column(line: str) -> int:
    return term_width(line) - term_width(line.lstrip())


def layout_faults(screen: str, english: str) -> list[str]:
    """Where ``screen``'s title bar, footer or panel border left the English columns."""
    faults: list[str] = []
    mine, theirs = screen.splitlines(), english.splitlines()
    mine += [""] * (ROWS - len(mine))
    theirs += [""] * (ROWS - len(theirs))
    if term_width(mine[0].rstrip()) != term_width(theirs[0].rstrip()):
        faults.append(
            f"title bar ends in column {term_width(mine[0].rstrip())}, "
            f"in English {term_width(theirs[0].rstrip())}: {mine[0].rstrip()!r}"
        )
    if not mine[-1].strip() or _first_column(mine[-1]) != _first_column(theirs[-1]):
        faults.append(f"footer not on the last row where English has it: {mine[-1]!r}")
    sep = board_geometry(COLS, ROWS).width
    for row in range(1, ROWS - 1):
        if at_column(theirs[row], sep) == "│" and at_column(mine[row], sep) not in _BORDERS:
            faults.append(f"row {row}: no panel border in column {sep}: {mine[row].rstrip()!r}")
    return faults


def columns_of(screen: str) -> dict[str, list[str]]:
    """The screen's text by column: ``"full"`` (each row whole), ``"board"`` and
    ``"panel"`` (each side of the panel's border, on the rows that have one; "" on the
    others), so that a sentence wrapped inside the panel reads on."""
    sep = board_geometry(COLS, ROWS).width
    out: dict[str, list[str]] = {"full": [], "board": [], "panel": []}
    for line in screen.splitlines():
        out["full"].append(line)
        if at_column(line, sep) in _BORDERS:
            used, cut = 0, len(line)
            for i, ch in enumerate(line):
                if used == sep:
                    cut = i
                    break
                used += cell_width(ch)
            out["board"].append(line[:cut])
            out["panel"].append(line[cut + 1 :])
        else:
            out["board"].append("")
            out["panel"].append("")
    return out


def _squeezed(text: str) -> str:
    return "".join(text.split())


def clipped_sentences(
    screen: str, sentences: Iterable[str], cols: int, lines: int = 2
) -> list[str]:
    """Each of ``sentences`` that would fit on ``lines`` lines of ``cols`` columns but is
    not on ``screen`` whole (read across line breaks, in any column)."""
    texts = [_squeezed("".join(rows)) for rows in columns_of(screen).values()]
    return [
        f"cut: {sentence!r}"
        for sentence in sentences
        if term_width(sentence) <= lines * cols
        and not any(_squeezed(sentence) in text for text in texts)
    ]


def cut_with_room(screen: str) -> list[str]:
    """Each line of a column that ends in an ellipsis above an empty line of that
    column: the rest of its sentence had a second line there."""
    faults = []
    for name, rows in columns_of(screen).items():
        for line, below in zip(rows, [*rows[1:], None], strict=True):
            if below is not None and not below.strip() and line.rstrip().endswith(_ELLIPSES):
                faults.append(f"cut with room under it ({name}): {line.strip()!r}")
    return faults
