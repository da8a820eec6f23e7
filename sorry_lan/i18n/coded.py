"""Codes a user may read (:mod:`sorry_lan.codes`) in the player's language.

:func:`say` words a code, a code with its fields (:class:`~sorry_lan.codes.Said`) or
a coded error (:class:`~sorry_lan.codes.Coded`) through the current language's
catalog: the template is the msgid, the fields are the same as in English.  So a
failure is written once, at its code, and ``str()`` of it (English) and ``say`` of it
(any language) can never tell different stories.  :func:`error_text` is the one rule
for an ``error`` a host sent back, whose own text is English detail.  :func:`say_in`
words a code in a language other than this process's own: a host's, for each player
in the language that player's ``profile`` named.

Nothing here chooses the language (:func:`sorry_lan.i18n.set_language` does) or
decides which code applies.
"""

from __future__ import annotations

from sorry_lan.codes import Code, Coded, ErrorReason, Said

from . import DEFAULT, current, language
from .catalogs import translations
from .choose import normalise
from .host_texts import HOST_TEXTS


def _said(what: Said | Coded | Code) -> Said:
    if isinstance(what, Coded):
        return what.said
    return Said(what) if isinstance(what, Code) else what


def say(what: Said | Coded | Code) -> str:
    """``what`` in the player's language, its fields filled (in English, a code's
    :attr:`~sorry_lan.codes.Code.english` where it has one: exactly ``str(what)``)."""
    return _said(what).render(None if language() == DEFAULT else current())


def say_in(what: Said | Coded | Code, lang: str | None) -> str:
    """``what`` in the language ``lang`` names (a language code as a ``profile``
    carries it: ``el``, ``cy-GB``), whatever this process's own language is; English
    (``str(what)``) when ``lang`` is None or names a language without a catalog."""
    code = None if lang is None else normalise(lang)
    return _said(what).render(None if code in (None, DEFAULT) else translations(code))


def error_text(reason: str, text: str) -> str:
    """Words for an ``error`` message: in English the host's own ``text`` (it says
    more than the reason: which colour is taken), in another language that text's
    words when it is one of the host's fixed ones (``host_texts``), else the words of
    its reason code;
    the host's text, or the bare code, for a reason this client does not know."""
    if language() == DEFAULT and text:
        return text
    if text in HOST_TEXTS:
        return current().gettext(text)
    code = next((c for c in ErrorReason if c.value == reason), None)
    return text or reason if code is None else say(code)
