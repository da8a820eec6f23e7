"""Reading a rules file: its shape, a variant's sections, the language it falls back on."""

from __future__ import annotations

import pytest

from sorry_lan.handbook import HandbookError, handbook, parse
from sorry_lan.i18n import PSEUDO
from sorry_lan.rules.variants import VARIANTS

GOOD = """\
<!-- a free comment,
     over two lines -->

# Title

<!-- rule: intro -->
Intro text
on two lines.

<!-- section: common -->
## Common

<!-- rule: a -->
A.

<!-- section: team variant=team -->
## Team

<!-- rule: b -->
B.
"""


def test_a_file_reads_as_title_intro_sections_and_paragraphs() -> None:
    book = parse(GOOD, "xx")
    assert book.title == "Title"
    assert [(p.id, p.text) for p in book.intro] == [("intro", "Intro text on two lines.")]
    assert [(s.id, s.title, s.variant) for s in book.sections] == [
        ("common", "Common", None),
        ("team", "Team", "team"),
    ]
    assert [s.id for s in book.sections_for("team")] == ["common", "team"]
    assert [s.id for s in book.sections_for("standard")] == ["common"]
    assert list(book.paragraphs()) == ["intro", "a", "b"]
    with pytest.raises(KeyError):
        book.sections_for("chess")


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (("<!-- rule: b -->", "<!-- rule: a -->"), "rule id 'a' is used twice"),
        (("variant=team", "variant=chess"), "unknown variant 'chess'"),
        (("A.\n", "A.\n\nstray words\n"), "text outside a rule"),
        (("## Team\n", ""), "section 'team' needs a title"),
        (("# Title\n", ""), "no title"),
        (("B.\n", ""), "rule 'b' has no text"),
        (("## Common\n", "## Common\n## Again\n"), "a section title outside"),
    ],
)
def test_a_file_of_the_wrong_shape_says_where(change: tuple[str, str], why: str) -> None:
    with pytest.raises(HandbookError, match=why) as caught:
        parse(GOOD.replace(*change), "xx")
    assert "rules text 'xx', line " in str(caught.value)


def test_a_language_without_a_rules_file_reads_the_english_one() -> None:
    assert handbook(PSEUDO).language == "en"
    assert handbook(PSEUDO) == handbook("en")


def test_every_variant_gets_the_common_sections_and_its_own() -> None:
    book = handbook("en")
    common = [s.id for s in book.sections if s.variant is None]
    for name in VARIANTS:
        got = book.sections_for(name)
        assert [s.id for s in got[: len(common)]] == common
        assert [s.variant for s in got[len(common) :]] == [name]
