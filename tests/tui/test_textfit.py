"""Word wrap and ellipsis clipping in terminal columns."""

from __future__ import annotations

from sorry_lan.tui.textfit import ASCII_ELLIPSIS, clip, paragraphs, width, wrap


def test_clip_keeps_what_fits_and_marks_a_cut() -> None:
    assert clip("hello", 5) == "hello"
    assert clip("hello world", 8) == "hello w…"
    assert clip("hello world", 8, ASCII_ELLIPSIS) == "hello..."
    assert clip("a b c", 0) == "" and clip("abc", 1) == "…"
    assert width(clip("日本語のテキスト", 7)) <= 7  # wide characters count two


def test_wrap_breaks_at_spaces_with_indents() -> None:
    text = "Card: 7: move 7, or split it between two pawns"
    lines = wrap(text, 31)
    assert lines == [" Card: 7: move 7, or split it", "   between two pawns"]
    assert all(width(line) <= 31 for line in lines)
    assert " ".join(" ".join(lines).split()) == text  # no word lost or cut


def test_wrap_cuts_only_words_longer_than_a_line_and_keeps_newlines() -> None:
    lines = wrap("x" * 25 + " end", 10)
    assert all(width(line) <= 10 for line in lines)
    assert lines == [" xxxxxxxxx", "   xxxxxxx", "   xxxxxxx", "   xx end"]
    assert wrap("one\ntwo", 20) == [" one", "   two"]


def test_paragraphs_undo_line_breaks_made_for_another_width() -> None:
    text = (
        "Nothing found in 3 s.\nIs the host on the same network? Some routers\n"
        "block multicast, which\ndiscovery relies on. Join directly:\n"
        "    sorry-lan join --address HOST:PORT\nor pick the network."
    )
    assert paragraphs(text) == [
        "Nothing found in 3 s.",
        "Is the host on the same network? Some routers block multicast, which discovery "
        "relies on. Join directly:",
        "    sorry-lan join --address HOST:PORT",  # indented: a command, kept alone
        "or pick the network.",
    ]
    # a Greek ano teleia (·) is inside a sentence; a Hindi danda (।) ends one
    assert paragraphs("Enter joins· or type\nan address.") == ["Enter joins· or type an address."]
    assert paragraphs("खेल नहीं मिला।\nपता लिखें") == ["खेल नहीं मिला।", "पता लिखें"]
    assert paragraphs("one\n\ntwo") == ["one", "", "two"]
