"""Every language's rules text has the English one's shape and the glossary's words.

Same sections (ids, order, the variant each belongs to), one section per variant of
the registry, the same paragraphs in the same order, the same figures in each
paragraph; the words the board shows (START, HOME, the safety squares, Sorry!) as
``sorry_lan/i18n/GLOSSARY.md`` and the board's labels give them, and no English
board word left in another language.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from sorry_lan.handbook import Handbook, handbook, shipped
from sorry_lan.i18n import LANGUAGES, pgettext, use_language
from sorry_lan.rules.variants import VARIANTS

GLOSSARY = Path(__file__).resolve().parents[2] / "sorry_lan" / "i18n" / "GLOSSARY.md"
OTHERS = [code for code in LANGUAGES if code != "en"]


def shape(book: Handbook) -> list[tuple[str, str | None, tuple[str, ...]]]:
    return [(s.id, s.variant, tuple(p.id for p in s.paragraphs)) for s in book.sections]


def glossary() -> dict[str, dict[str, str]]:
    """GLOSSARY.md's table: English word -> language -> word."""
    lines = GLOSSARY.read_text(encoding="utf-8").splitlines()
    rows = [line for line in lines if line.startswith("|")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    codes = [re.search(r"\((\w+)\)", h)[1] if "(" in h else "en" for h in header]  # type: ignore[index]
    out: dict[str, dict[str, str]] = {}
    for row in rows[2:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        out[cells[0]] = dict(zip(codes, cells, strict=True))
    return out


def test_every_language_the_product_ships_has_its_rules() -> None:
    assert shipped() == tuple(LANGUAGES)


def test_each_variant_of_the_registry_has_one_section() -> None:
    tagged = Counter(s.variant for s in handbook("en").sections if s.variant is not None)
    assert tagged == dict.fromkeys(VARIANTS, 1)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_sections_and_paragraphs_are_the_english_ones(lang: str) -> None:
    book, english = handbook(lang), handbook("en")
    assert shape(book) == shape(english)
    assert [p.id for p in book.intro] == [p.id for p in english.intro]
    assert book.title and all(s.title for s in book.sections)
    assert len({s.title for s in book.sections}) == len(book.sections)


@pytest.mark.parametrize("lang", OTHERS)
def test_each_paragraph_gives_the_english_figures(lang: str) -> None:
    english = handbook("en").paragraphs()
    for pid, paragraph in handbook(lang).paragraphs().items():
        ours = Counter(re.findall(r"\d+", paragraph.text))
        assert ours == Counter(re.findall(r"\d+", english[pid].text)), (lang, pid)


@pytest.mark.parametrize("lang", OTHERS)
def test_it_is_not_the_english_text(lang: str) -> None:
    english = handbook("en").paragraphs()
    for pid, paragraph in handbook(lang).paragraphs().items():
        assert paragraph.text != english[pid].text, (lang, pid)
    text = " ".join(p.text for p in handbook(lang).paragraphs().values())
    assert not {"START", "HOME", "safety", "slide", "pawn"} & set(re.findall(r"\w+", text))


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_board_words_are_the_glossarys(lang: str) -> None:
    words = glossary()
    paragraphs = handbook(lang).paragraphs()
    text = " ".join(p.text for p in paragraphs.values())
    for english in ("START", "HOME", "Sorry! (game, card)"):
        word = words[english][lang].split(" (")[0]
        assert word in text, (lang, english)
    zone, squares = words["safety zone (square S1..S5)"][lang].rstrip(")").split(" (")
    assert zone in text, lang
    first, last = squares.split()[-1].split("..")  # "S1..S5": the squares as the board names them
    assert first in paragraphs["safety"].text and last in paragraphs["safety"].text, lang
    with use_language(lang):  # the labels the board shows, which may be shorter
        assert pgettext("board", "START") in text and pgettext("board", "HOME") in text
