"""Display width by the renderer's measure, clipping by grapheme cluster, unsteady text."""

from __future__ import annotations

import pytest
from prompt_toolkit.utils import get_cwidth

from sorry_lan.i18n import LANGUAGES, use_language, words
from sorry_lan.i18n.catalogs import read_catalog
from sorry_lan.tui import cells, renderer

NAMES = {
    "el": "Ελένη Παπαδοπούλου",
    "hi": "हिन्दी खिलाड़ी",
    "lo": "ສົມພອນ ວົງສະຫວັນ",
    "th": "สมศักดิ์ ใจดี",
    "cy": "Llŷr ap Gwilym",
    "zh": "王小明",
    "emoji": "👨‍👩‍👧 family",
}


def test_width_is_the_renderers() -> None:
    for name in NAMES.values():
        assert cells.width(name) == get_cwidth(name)


def test_the_renderer_counts_every_code_point_and_message_as_cells_does() -> None:
    """cells counts without prompt_toolkit (the line commands do not load it); once
    :mod:`~sorry_lan.tui.renderer` is loaded the renderer counts the same everywhere."""
    renderer.align_renderer()
    planes = [*range(0x20, 0x3400), *range(0xA000, 0xE000), *range(0xF900, 0x10000)]
    chars = [chr(cp) for cp in [*planes, *range(0x1F000, 0x1FB00)] if not 0xD800 <= cp < 0xE000]
    assert [cells.width(c) for c in chars] == [get_cwidth(c) for c in chars]
    assert {cells.width(m) for m in cells.spacing_marks()} == {1}
    texts = [
        str(text)
        for code in ("messages", *(lang for lang in LANGUAGES if lang != "en"))
        for msg in read_catalog(f"{code}.pot" if code == "messages" else f"{code}.po")
        for value in (msg.id, msg.string)
        for text in ((value,) if isinstance(value, str) else value or ())
        if text
    ]
    assert len(texts) > 1000
    assert [cells.width(t) for t in texts] == [get_cwidth(t) for t in texts]


@pytest.mark.parametrize("name", NAMES.values())
@pytest.mark.parametrize("cols", range(1, 16))
def test_clip_never_breaks_a_cluster_and_fits(name: str, cols: int) -> None:
    out = cells.clip(name, cols)
    assert cells.room(out) <= cols
    if out != name:
        assert out.endswith(cells.ELLIPSIS) or out == ""
        head = out.removesuffix(cells.ELLIPSIS)
        # The head is whole clusters of the name: re-splitting gives a prefix of them.
        clusters = cells.graphemes(name)
        got = cells.graphemes(head)
        assert got == clusters[: len(got)]


def test_thai_tone_marks_stay_on_their_base() -> None:
    out = cells.clip("ส้มตำ", 3)
    assert out == "ส้" + cells.ELLIPSIS or out == "ส้ม" + cells.ELLIPSIS
    assert not out.startswith("ส" + cells.ELLIPSIS)


def test_devanagari_is_unsteady_and_thai_lao_greek_welsh_are_steady() -> None:
    assert not cells.steady("हिन्दी")  # renderer 3, terminals 4
    assert not cells.steady("👨‍👩‍👧")
    for name in ("ສົມພອນ", "สมศักดิ์", "Ελένη", "Llŷr", "王小明"):
        assert cells.steady(name), name


def test_steady_form_keeps_later_columns_in_place() -> None:
    form = cells.steady_form("हिन्दी")
    assert cells.steady(form) and form.startswith("ह") and cells.width(form) == cells.room(form)
    field = cells.steady_field("हिन्दी खिलाड़ी", 8)
    assert cells.width(field) == 8 and cells.room(field) == 8


def test_pad_reserves_what_any_terminal_needs() -> None:
    for name in NAMES.values():
        for cols in (4, 10, 30):
            out = cells.pad(name, cols)
            assert cells.width(out) == cols or cells.room(out.rstrip()) <= cols


@pytest.mark.parametrize("lang", LANGUAGES)
def test_board_labels_are_steady_in_every_language(lang: str) -> None:
    """START and HOME sit inside the board between squares: they must not shift them."""
    with use_language(lang):
        for label in (words.start_word(), words.home_word()):
            assert cells.steady(label), (lang, label)
