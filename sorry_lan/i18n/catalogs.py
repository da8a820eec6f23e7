"""Gettext catalogs: the ``.po`` sources beside this module, compiled at first use.

:func:`translations` reads ``po/<code>.po`` with Babel, writes the compiled catalog to
memory and returns a standard :class:`gettext.GNUTranslations`, so plural forms come
from each catalog's own ``Plural-Forms`` header (Welsh has six).  English is the source
language: it has no catalog and gets :class:`gettext.NullTranslations`.  The pseudo-locale
(:data:`~sorry_lan.i18n.choose.PSEUDO`) is made from the template ``po/messages.pot``
by :mod:`sorry_lan.i18n.pseudo`.  Nothing here chooses a language or keeps one current.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from typing import TYPE_CHECKING

from .choose import DEFAULT, LANGUAGES, PSEUDO

if TYPE_CHECKING:  # Babel is imported when a catalog is first compiled (English needs none)
    from babel.messages.catalog import Catalog

DOMAIN = "sorry_lan"
TEMPLATE = "messages.pot"


def po_text(name: str) -> bytes:
    """The bytes of ``po/<name>`` shipped in the package."""
    # Imported here: it loads tempfile, shutil and the compressors, and English, the
    # language of most starts, reads no catalog.
    from importlib import resources

    return resources.files(__package__).joinpath("po", name).read_bytes()


def read_catalog(name: str, locale: str | None = None) -> Catalog:
    """A parsed ``po/<name>`` (a language's ``.po`` or the template)."""
    from babel.messages.pofile import read_po

    return read_po(io.BytesIO(po_text(name)), locale=locale, domain=DOMAIN)


def compile_catalog(catalog: Catalog) -> gettext.GNUTranslations:
    """``catalog`` compiled to MO bytes in memory and loaded as GNU gettext does."""
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


@cache
def translations(code: str) -> gettext.NullTranslations:
    """The translations for a language code (one of ``LANGUAGES`` or ``PSEUDO``)."""
    if code == DEFAULT:
        return gettext.NullTranslations()
    if code == PSEUDO:
        from .pseudo import pseudo_catalog

        return compile_catalog(pseudo_catalog(read_catalog(TEMPLATE)))
    if code not in LANGUAGES:
        raise ValueError(f"no catalog for language {code!r}")
    return compile_catalog(read_catalog(f"{code}.po", locale=code))
