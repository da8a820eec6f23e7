"""The too-small message: the size now, the size needed, how to leave; wrapped to fit."""

from __future__ import annotations

from sorry_lan.tui.screens.too_small import message
from sorry_lan.tui.textfit import width


def test_the_message_names_both_sizes_and_fits_a_narrow_terminal() -> None:
    text = "".join(f[1] for f in message(30, 10))
    assert "30x10" in text and "80x24" in text and "(q leaves)" in text
    assert all(width(line) <= 29 for line in text.splitlines())
    assert message(30, 10)[0][0] == "class:too-small"
