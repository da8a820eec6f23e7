"""Which language a player sees: from ``--lang`` or the locale variables.

:func:`choose_language` reads a ``--lang`` value first, then ``LANGUAGE`` (a colon list,
GNU's order of preference), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``, and returns the
first code this program has a catalog for.  ``C``, ``POSIX``, an empty value or a
language without a catalog falls through; when nothing matches the answer is English.
It reads only the mapping it is given and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from sorry_lan.errors import SorryLanError

#: Every language a player can choose, in the order the language key cycles through,
#: with its name in its own language (what the lobby and ``--help`` show).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "el": "Ελληνικά",
    "hi": "हिन्दी",
    "lo": "ລາວ",
    "th": "ไทย",
    "cy": "Cymraeg",
}
#: The pseudo-locale for tests: English accented and about 40% longer.
PSEUDO = "qps"
DEFAULT = "en"

_ENV_ORDER = ("LC_ALL", "LC_MESSAGES", "LANG")


class UnknownLanguage(SorryLanError, ValueError):
    """A ``--lang`` value names no language this program has."""


def language_name(code: str) -> str:
    """A language as the lobby shows it: its name in itself (``el`` -> ``Ελληνικά``),
    or the code as given when this program has no name for it."""
    found = normalise(code)
    return LANGUAGES.get(found, code) if found is not None else code


def normalise(value: str) -> str | None:
    """The catalog code for a locale name (``cy_GB.UTF-8`` -> ``cy``), or None.

    ``C``, ``POSIX`` and names without a catalog give None."""
    text = value.strip()
    if not text:
        return None
    base = text.split(".", 1)[0].split("@", 1)[0]
    lang = base.replace("-", "_").split("_", 1)[0].lower()
    if lang in LANGUAGES or lang == PSEUDO:
        return lang
    return None


def parse_lang_option(value: str) -> str:
    """A ``--lang`` value as a code; :class:`UnknownLanguage` names the choices."""
    code = normalise(value)
    if code is None:
        raise UnknownLanguage(f"unknown language {value!r} (choose {', '.join(LANGUAGES)})")
    return code


def choose_language(option: str | None, environ: Mapping[str, str]) -> str:
    """The language to show: ``option`` if given, else the locale's, else English.

    Like gettext, ``LANGUAGE`` counts only when the locale itself is not ``C``/``POSIX``;
    the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set names the locale."""
    if option:
        return parse_lang_option(option)
    locale = next((environ[k] for k in _ENV_ORDER if environ.get(k)), "")
    if locale.split(".", 1)[0] in ("C", "POSIX"):
        return DEFAULT
    for item in environ.get("LANGUAGE", "").split(":"):
        code = normalise(item)
        if code is not None:
            return code
    return normalise(locale) or DEFAULT
