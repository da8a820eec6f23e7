"""The rules of the game for players: one text per language, read from package data.

Each language the product ships has one file here (``en.md``, ``el.md``, ...), the
whole rules in that language's own words, written as Markdown that reads on its own
(the README links the English one).  Comment lines give the text its shape: a
``<!-- section: ID -->`` line opens a section (``variant=NAME`` when it belongs to one
variant of :data:`~sorry_lan.rules.variants.VARIANTS`; the others are for every game),
its ``## `` line is the section's title, and a ``<!-- rule: ID -->`` line opens a
paragraph, which runs to the next blank line.  Every language has the same sections
and paragraphs in the same order, so a rule keeps its id in every language (tests
pin the engine's settled points to those ids).

Why files, not catalog messages: a rules text is read, and translated, as a whole;
paragraphs of a hundred words as gettext ids would tie every translation to the
English wording, and their ids would not say which rule they state.

:func:`handbook` reads and parses a language's file (English for a language without
one, such as the pseudo-locale); :meth:`Handbook.sections_for` picks a variant's
sections.  This module lays nothing out for a terminal (``tui.handbook_lines`` does)
and decides no rule (``rules`` does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from sorry_lan.errors import SorryLanError
from sorry_lan.i18n import DEFAULT, LANGUAGES
from sorry_lan.rules.variants import VARIANTS

_SECTION = re.compile(r"<!-- section: ([a-z0-9-]+)(?: variant=([a-z]+))? -->")
_RULE = re.compile(r"<!-- rule: ([a-z0-9-]+) -->")


class HandbookError(SorryLanError, ValueError):
    """A rules file is not of the shape this module reads (a packaging mistake)."""


@dataclass(frozen=True)
class Paragraph:
    """One rule, or a few that belong together, in one paragraph."""

    id: str
    text: str


@dataclass(frozen=True)
class Section:
    """A titled group of paragraphs; ``variant``: the variant it belongs to (None: all)."""

    id: str
    title: str
    variant: str | None
    paragraphs: tuple[Paragraph, ...]


@dataclass(frozen=True)
class Handbook:
    """The rules in one language: a title, an introduction, the sections in order."""

    language: str
    title: str
    intro: tuple[Paragraph, ...]
    sections: tuple[Section, ...]

    def sections_for(self, variant: str) -> tuple[Section, ...]:
        """The sections a game of ``variant`` follows: the common ones, then its own."""
        if variant not in VARIANTS:
            raise KeyError(variant)
        return tuple(s for s in self.sections if s.variant in (None, variant))

    def paragraphs(self) -> dict[str, Paragraph]:
        """Every paragraph by its id, the introduction's included."""
        every = [*self.intro, *(p for s in self.sections for p in s.paragraphs)]
        return {p.id: p for p in every}


class _Reader:
    """Builds a :class:`Handbook` line by line (see the module's docstring)."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.title = ""
        self.intro: list[Paragraph] = []
        self.sections: list[Section] = []
        self.section: tuple[str, str | None] | None = None
        self.section_title = ""
        self.paragraphs: list[Paragraph] = []
        self.rule: str | None = None
        self.lines: list[str] = []
        self.ids: set[tuple[str, str]] = set()  # (kind, id): sections and rules apart

    def fail(self, number: int, why: str) -> HandbookError:
        return HandbookError(f"rules text {self.language!r}, line {number}: {why}")

    def end_paragraph(self, number: int) -> None:
        if self.rule is None:
            return
        if not self.lines:
            raise self.fail(number, f"rule {self.rule!r} has no text")
        paragraph = Paragraph(self.rule, " ".join(self.lines))
        (self.paragraphs if self.section else self.intro).append(paragraph)
        self.rule, self.lines = None, []

    def end_section(self, number: int) -> None:
        self.end_paragraph(number)
        if self.section is None:
            return
        if not self.section_title or not self.paragraphs:
            raise self.fail(number, f"section {self.section[0]!r} needs a title and a rule")
        sid, variant = self.section
        self.sections.append(Section(sid, self.section_title, variant, tuple(self.paragraphs)))
        self.section, self.section_title, self.paragraphs = None, "", []

    def new_id(self, number: int, kind: str, ident: str) -> str:
        if (kind, ident) in self.ids:
            raise self.fail(number, f"{kind} id {ident!r} is used twice")
        self.ids.add((kind, ident))
        return ident

    def line(self, number: int, line: str) -> None:
        text = line.strip()
        if m := _SECTION.fullmatch(text):
            self.end_section(number)
            if m[2] is not None and m[2] not in VARIANTS:
                raise self.fail(number, f"unknown variant {m[2]!r}")
            self.section = (self.new_id(number, "section", m[1]), m[2])
        elif m := _RULE.fullmatch(text):
            self.end_paragraph(number)
            self.rule = self.new_id(number, "rule", m[1])
        elif not text:
            self.end_paragraph(number)
        elif text.startswith("## ") and self.rule is None:
            if self.section is None or self.section_title:
                raise self.fail(number, "a section title outside a section's first line")
            self.section_title = text[3:].strip()
        elif text.startswith("# ") and self.rule is None:
            if self.title or self.sections or self.section:
                raise self.fail(number, "a second title")
            self.title = text[2:].strip()
        elif self.rule is not None:
            self.lines.append(text)
        else:
            raise self.fail(number, "text outside a rule")

    def done(self, number: int) -> Handbook:
        self.end_section(number)
        if not self.title or not self.sections:
            raise self.fail(number, "no title or no section")
        return Handbook(self.language, self.title, tuple(self.intro), tuple(self.sections))


def _without_comments(text: str) -> list[str]:
    """The lines of ``text`` with free comments blanked (the markers stay)."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        stripped = line.strip()
        if inside:
            inside = "-->" not in stripped
            out.append("")
        elif _SECTION.fullmatch(stripped) or _RULE.fullmatch(stripped):
            out.append(line)
        elif stripped.startswith("<!--"):
            inside = "-->" not in stripped
            out.append("")
        else:
            out.append(line)
    return out


def parse(text: str, language: str) -> Handbook:
    """The handbook in ``text`` (the format of this package's files)."""
    reader = _Reader(language)
    lines = _without_comments(text)
    for number, line in enumerate(lines, start=1):
        reader.line(number, line)
    return reader.done(len(lines))


def shipped() -> tuple[str, ...]:
    """The languages with a rules file, in the order of :data:`LANGUAGES`."""
    files = resources.files(__name__)
    return tuple(code for code in LANGUAGES if files.joinpath(f"{code}.md").is_file())


def source(language: str) -> str:
    """The text of ``language``'s rules file."""
    return resources.files(__name__).joinpath(f"{language}.md").read_text(encoding="utf-8")


@cache
def handbook(language: str) -> Handbook:
    """The rules in ``language``, or in English when it has no rules file."""
    code = language if language in shipped() else DEFAULT
    return parse(source(code), code)
