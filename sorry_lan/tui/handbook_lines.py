"""The rules of a variant as plain lines of a given width, for a terminal.

:func:`rules_lines` lays out a :class:`~sorry_lan.handbook.Handbook` for one variant:
the title, the introduction, then each section's title (underlined) and its
paragraphs word-wrapped by display width (:mod:`.textfit`), indented two columns,
with a blank line between paragraphs.  ``sorry-lan rules`` prints these lines and the
board's rules view scrolls them.  Plain strings only: nothing here draws or pages.
"""

from __future__ import annotations

from sorry_lan.handbook import Handbook, Paragraph

from .textfit import width, wrap

INDENT = "  "


def _paragraph(paragraph: Paragraph, cols: int) -> list[str]:
    return wrap(paragraph.text, cols, first=INDENT, rest=INDENT)


def _heading(title: str, cols: int, rule: str) -> list[str]:
    lines = wrap(title, cols, first="", rest="")
    return [*lines, rule * min(cols, max(width(line) for line in lines))]


def rules_lines(book: Handbook, variant: str, cols: int, *, ascii: bool = False) -> list[str]:
    """The rules ``book`` gives a game of ``variant``, in lines of at most ``cols`` cells
    (``ascii``: headings underlined with ``=`` and ``-`` rather than box-drawing rules)."""
    cols = max(20, cols)
    lines = _heading(book.title, cols, "=" if ascii else "═")
    for paragraph in book.intro:
        lines += ["", *_paragraph(paragraph, cols)]
    for section in book.sections_for(variant):
        lines += ["", *_heading(section.title, cols, "-" if ascii else "─")]
        for paragraph in section.paragraphs:
            lines += ["", *_paragraph(paragraph, cols)]
    return lines
