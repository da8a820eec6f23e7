"""What the terminal can show: Unicode or ASCII (from the locale), colour or not."""

from __future__ import annotations

import pytest

from sorry_lan.tui.style import colour_wanted, unicode_terminal


def test_the_locale_decides_unicode_or_ascii() -> None:
    assert unicode_terminal({"LANG": "en_GB.UTF-8"}, "linux")
    assert unicode_terminal({"LANG": "de_DE.utf8"}, "linux")
    assert not unicode_terminal({"LANG": "C"}, "linux")
    assert not unicode_terminal({"LANG": "en_US.ISO-8859-1"}, "linux")
    assert not unicode_terminal({"LC_ALL": "C", "LANG": "en_GB.UTF-8"}, "linux")  # LC_ALL wins
    assert unicode_terminal({"LC_CTYPE": "en_GB.UTF-8", "LANG": "C"}, "linux")
    assert not unicode_terminal({}, "linux")  # no locale at all: the C locale
    assert unicode_terminal({}, "darwin") and unicode_terminal({"LANG": "C"}, "win32")


def test_no_color_turns_colour_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted() and colour_wanted(True)
    monkeypatch.setenv("NO_COLOR", "")
    assert colour_wanted()
