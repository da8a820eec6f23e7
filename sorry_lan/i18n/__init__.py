"""Translations: the player's language, chosen once per process, and gettext lookups.

Each client process is one player, so the language is process-wide: :func:`set_language`
picks it (from :func:`choose_language`), and :func:`_`, :func:`ngettext` and
:func:`pgettext` translate through the standard :mod:`gettext` objects that
:mod:`sorry_lan.i18n.catalogs` compiles from the ``.po`` sources.  Messages are
``str.format`` templates with named fields (``_("{who} drew {card}").format(...)``);
:func:`N_` marks a message for extraction without translating it yet.

This package renders no wire data itself (:mod:`sorry_lan.i18n.words` does; the codes
a user may read, :mod:`sorry_lan.codes`, are worded by :mod:`sorry_lan.i18n.coded`)
and does not touch the terminal.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager

from .catalogs import translations
from .choose import (
    DEFAULT,
    LANGUAGES,
    PSEUDO,
    UnknownLanguage,
    choose_language,
    language_name,
)

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "PSEUDO",
    "UnknownLanguage",
    "_",
    "choose_language",
    "current",
    "is_yes",
    "language",
    "language_name",
    "ngettext",
    "npgettext",
    "pgettext",
    "set_language",
    "use_language",
]

_current: list[tuple[str, gettext.NullTranslations]] = [(DEFAULT, gettext.NullTranslations())]


def set_language(code: str) -> None:
    """Show every later message in ``code`` (a key of ``LANGUAGES`` or ``PSEUDO``)."""
    _current[0] = (code, translations(code))


def language() -> str:
    """The code of the language messages are shown in now."""
    return _current[0][0]


@contextmanager
def use_language(code: str) -> Iterator[None]:
    """Show messages in ``code`` inside the ``with`` block, then restore the language."""
    saved = _current[0]
    set_language(code)
    try:
        yield
    finally:
        _current[0] = saved


def current() -> gettext.NullTranslations:
    """The translations of the language messages are shown in now."""
    return _current[0][1]


def _(message: str) -> str:
    """``message`` in the current language."""
    return _current[0][1].gettext(message)


def N_(message: str) -> str:
    """``message`` unchanged; marks it for extraction (translate it later with ``_``)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n``, by the language's plural rule."""
    return _current[0][1].ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same words by ``context``."""
    return _current[0][1].pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a context."""
    return _current[0][1].npgettext(context, singular, plural, n)


def is_yes(answer: str) -> bool:
    """Whether a typed answer to a ``[y/N]`` question is yes: ``y`` or ``yes`` in every
    language, or the current language's own word for yes."""
    word = answer.strip().lower()
    # i18n: the word a player types to answer yes to a [y/N] question
    own = pgettext("answer", "yes").strip().lower()
    return word in ("y", "yes", own)
