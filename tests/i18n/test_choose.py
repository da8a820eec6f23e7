"""Choosing the language from --lang and the locale variables."""

from __future__ import annotations

import pytest

from sorry_lan.i18n import LANGUAGES, UnknownLanguage, choose_language, language, set_language
from sorry_lan.i18n.choose import normalise


@pytest.mark.parametrize(
    ("env", "want"),
    [
        ({}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "C.UTF-8", "LANGUAGE": "cy"}, "en"),  # gettext ignores LANGUAGE under C
        ({"LANG": "de_DE.UTF-8"}, "en"),  # no catalog: English
        ({"LANG": "cy_GB.UTF-8"}, "cy"),
        ({"LANG": "el_GR.UTF-8", "LC_MESSAGES": "th_TH.UTF-8"}, "th"),
        ({"LANG": "el_GR.UTF-8", "LC_MESSAGES": "th_TH", "LC_ALL": "lo_LA.UTF-8"}, "lo"),
        ({"LANG": "en_GB.UTF-8", "LANGUAGE": "de:hi:el"}, "hi"),
        ({"LANG": "en_GB.UTF-8", "LANGUAGE": "de:fr"}, "en"),
        ({"LC_ALL": "hi_IN@latin"}, "hi"),
        ({"LANGUAGE": "el"}, "el"),
    ],
)
def test_the_locale_chooses(env: dict[str, str], want: str) -> None:
    assert choose_language(None, env) == want


def test_the_option_wins_over_the_locale() -> None:
    assert choose_language("el", {"LC_ALL": "cy_GB.UTF-8"}) == "el"
    assert choose_language("th-TH", {}) == "th"


def test_an_unknown_option_is_one_clear_sentence() -> None:
    with pytest.raises(UnknownLanguage) as err:
        choose_language("klingon", {})
    assert str(err.value) == "unknown language 'klingon' (choose en, el, hi, lo, th, cy)"


def test_every_language_loads_and_is_named_in_itself() -> None:
    saved = language()
    try:
        for code in LANGUAGES:
            set_language(code)
            assert language() == code
            assert normalise(code) == code
    finally:
        set_language(saved)


def test_cli_rejects_an_unknown_language_in_one_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from sorry_lan import cli

    saved = language()
    try:
        assert cli.main(["--lang", "xx", "list"]) == 2
        assert capsys.readouterr().err == (
            "sorry-lan: unknown language 'xx' (choose en, el, hi, lo, th, cy)\n"
        )
        assert cli._lang_in(["join", "--lang=cy"]) == "cy"
        assert cli._command_in(["--lang", "cy", "join"]) == "join"
        with pytest.raises(SystemExit):
            cli.main(["--lang", "th", "list", "--help"])
        assert language() == "th" and "--lang CODE" in capsys.readouterr().out
    finally:
        set_language(saved)
