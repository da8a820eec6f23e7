"""Every code a user may read has its words in every catalog, with the same fields."""

from __future__ import annotations

from functools import cache

import pytest
from babel.messages.catalog import Catalog

from sorry_lan.codes import (
    ENGLISH_ONLY,
    KINDS,
    Code,
    ErrorReason,
    HostFailure,
    JoinFailure,
    Joining,
    JournalFailure,
    Link,
    LinkNews,
    Moved,
    Place,
)
from sorry_lan.i18n import LANGUAGES, use_language
from sorry_lan.i18n.catalogs import read_catalog
from sorry_lan.i18n.coded import error_text, say, say_in
from sorry_lan.net.client import JoinError
from sorry_lan.net.host import HostError
from sorry_lan.net.journal import JournalError
from sorry_lan.net.saved import NotChosen

ALL = [code for kind in KINDS for code in kind]
LANGS = [code for code in LANGUAGES if code != "en"]


@cache
def _catalog(lang: str) -> Catalog:
    return read_catalog(f"{lang}.po", locale=lang)


def _words(lang: str, code: Code) -> tuple[str, ...] | None:
    """The catalog's translation of ``code``'s template (None: it has none)."""
    msg = _catalog(lang).get(code.template)
    if msg is None or msg.fuzzy:
        return None
    if code.plural and not (isinstance(msg.id, tuple) and msg.id[1] == code.plural):
        return None
    raw = msg.string if isinstance(msg.string, tuple | list) else (msg.string,)
    strings = tuple(str(text or "") for text in raw)
    return strings if all(strings) else None


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_has_words_in_every_catalog(lang: str) -> None:
    missing = [
        f"{type(c).__name__}.{c.name}"
        for c in ALL
        if c not in ENGLISH_ONLY and _words(lang, c) is None
    ]
    assert missing == [], f"{lang} has no words for {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_english_only_codes_are_still_untranslated(lang: str) -> None:
    """The list shrinks: a code a catalog has words for leaves ENGLISH_ONLY."""
    translated = [c.name for c in ENGLISH_ONLY if _words(lang, c) is not None]
    assert translated == []


def test_say_in_english_is_the_str_of_the_error() -> None:
    err = JournalError(JournalFailure.NOT_YOURS, path="/j/x", uid=1001)
    with use_language("en"):
        assert say(err) == str(err)
        assert say(err.said) == str(err)
        assert say(Place.THIS_MACHINE) == "this machine"


def test_say_translates_the_template_and_fills_the_same_fields() -> None:
    err = HostError(HostFailure.PORT_IN_USE, port=4000, host=Place.THIS_MACHINE)
    with use_language("el"):
        greek = say(err)
        here = say(Place.THIS_MACHINE)
    assert "4000" in greek and here in greek and here != "this machine"
    assert greek != str(err) and "already in use" not in greek


def test_a_nested_code_and_a_plural_are_worded_in_the_language() -> None:
    why = NotChosen(JournalFailure.AMBIGUOUS, wanted="'20'", n=2)
    err = HostError(HostFailure.NOT_CHOSEN_IN, error=why.said, directory="/j")
    with use_language("cy"):
        inner = say(why)
        outer = say(err)
    assert "'20'" in inner and "saved games" not in inner
    assert inner in outer and "/j" in outer


def test_an_english_only_code_reads_in_english_everywhere() -> None:
    err = JournalError(JournalFailure.CANNOT_READ, path="/j/x", why="gone")
    with use_language("th"):
        assert say(err) == str(err) == "cannot read journal /j/x: gone"


def test_host_errors_use_their_own_text_in_english_and_the_code_elsewhere() -> None:
    with use_language("en"):
        assert error_text("colour_taken", "red is taken") == "red is taken"
        assert error_text("colour_taken", "") == ErrorReason.COLOUR_TAKEN.template
    with use_language("th"):
        assert error_text("colour_taken", "red is taken") == "มีคนเลือกสีนี้แล้ว"
        # A reason this client does not know: the host's text is all there is.
        assert error_text("new_reason", "something new") == "something new"
        assert error_text("new_reason", "") == "new_reason"


def test_join_and_link_details_are_english_and_their_state_elsewhere() -> None:
    err = JoinError(JoinFailure.UNREACHABLE, Joining.NO_ROUTE(host="h", port=1, why="no answer"))
    news = LinkNews.NO_REJOIN(why=err.said)
    with use_language("en"):
        assert say(err) == "cannot reach h:1: no answer"
        assert say(news) == "cannot rejoin: cannot reach h:1: no answer"
    with use_language("el"):
        assert say(err) == say(JoinFailure.UNREACHABLE) != JoinFailure.UNREACHABLE.template
        assert say(news) == say(Link.LOST) and "h:1" not in say(news)


def test_say_in_words_a_code_in_the_language_named_not_the_process_s() -> None:
    news = Moved.TO_LAPTOP(name="b1")
    with use_language("th"):  # a host whose own player reads Thai
        assert say_in(news, "el") == (  # Greek words, whatever letters they look like:
            "Το τραπέζι πήγε στον φορητό υπολογιστή του παίκτη b1· "  # noqa: RUF001
            "μπες εκεί για να συνεχίσεις."  # noqa: RUF001
        )
        assert say_in(news, "HI-in") == say_in(news, "hi") != str(news)  # a tag, any case
        english = "The table moved to b1's laptop; join it there to play on."
        assert say_in(news, None) == say_in(news, "pt-BR") == say_in(news, "en") == english
        assert say(news) != english  # the process's own language is still Thai
