"""The catalogs against the code: complete, placeholders kept, no drift, plurals right."""

from __future__ import annotations

import importlib.util
import string
import sys
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog

from sorry_lan.i18n import LANGUAGES, PSEUDO, ngettext, use_language
from sorry_lan.i18n.catalogs import read_catalog, translations
from sorry_lan.i18n.pseudo import pseudo

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "i18n_catalogs", ROOT / "scripts" / "i18n_catalogs.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["i18n_catalogs"] = mod
    spec.loader.exec_module(mod)
    return mod


tool = _tool()
LANGS = [code for code in LANGUAGES if code != "en"]


def test_the_tool_knows_every_language() -> None:
    assert set(tool.LANGS) == set(LANGS)


def test_code_template_and_catalogs_agree() -> None:
    """The CI check: extraction from the code matches the template and every catalog."""
    assert tool.check() == []


def test_the_check_finds_a_new_message_in_the_code(tmp_path: Path) -> None:
    extracted = tool.extract()
    extracted.add("a message nobody translated", None)
    cat = tool.read(tool.PO_DIR / "cy.po", "cy")
    assert "cy: missing message 'a message nobody translated'" in tool.problems(
        "cy", cat, extracted
    )


def test_the_check_finds_an_empty_or_wrong_translation() -> None:
    template = tool.extract()
    cat = tool.read(tool.PO_DIR / "el.po", "el")
    cat["{who} drew {card}"].string = "{who} τράβηξε"
    cat["away"].string = ""
    found = tool.problems("el", cat, template)
    assert any("placeholders of '{who} drew {card}'" in p for p in found)
    assert "el: untranslated 'away'" in found


def test_the_check_finds_a_missing_plural_form() -> None:
    template = tool.extract()
    cat = tool.read(tool.PO_DIR / "cy.po", "cy")
    key = "the discards are shuffled into a new pile of {n} card"
    cat[key].string = tuple(cat[key].string)[:2]
    assert any("has 2 plural forms, not 6" in p for p in tool.problems("cy", cat, template))


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_translates_and_keeps_its_fields(lang: str) -> None:
    """Each translation differs from nothing: it exists and formats with the same names."""
    cat: Catalog = read_catalog(f"{lang}.po", locale=lang)
    tr = translations(lang)
    for msg in read_catalog("messages.pot"):
        if not msg.id:
            continue
        if isinstance(msg.id, tuple | list):
            singular, plural = msg.id
            forms = [
                tr.npgettext(msg.context, singular, plural, n)
                if msg.context
                else tr.ngettext(singular, plural, n)
                for n in (0, 1, 2, 3, 6, 7)
            ]
            names = _fields(singular) | _fields(plural)
        else:
            forms = [tr.pgettext(msg.context, msg.id) if msg.context else tr.gettext(msg.id)]
            names = _fields(msg.id)
            assert forms[0] != "" and cat.get(msg.id, context=msg.context) is not None
        for form in forms:
            assert _fields(form) <= names, (lang, msg.id, form)
            form.format(**{n: "X" for n in names})  # every field formats


def _fields(text: str) -> set[str]:
    return {name for _l, name, _s, _c in string.Formatter().parse(text) if name is not None}


def test_welsh_has_six_plural_forms_and_uses_them() -> None:
    single, plural = (
        "the discards are shuffled into a new pile of {n} card",
        "the discards are shuffled into a new pile of {n} cards",
    )
    with use_language("cy"):
        words = {n: ngettext(single, plural, n).format(n=n).split()[-1] for n in range(9)}
    assert words == {
        0: "cardiau",
        1: "cerdyn",
        2: "gerdyn",
        3: "cherdyn",
        4: "cerdyn",
        5: "cerdyn",
        6: "cherdyn",
        7: "cerdyn",
        8: "cerdyn",
    }
    assert read_catalog("cy.po", locale="cy").num_plurals == 6


@pytest.mark.parametrize(("lang", "forms"), [("el", 2), ("hi", 2), ("lo", 1), ("th", 1)])
def test_plural_rules_follow_each_language(lang: str, forms: int) -> None:
    assert read_catalog(f"{lang}.po", locale=lang).num_plurals == forms


def test_hindi_counts_zero_as_singular() -> None:
    single, plural = (
        "the discards are shuffled into a new pile of {n} card",
        "the discards are shuffled into a new pile of {n} cards",
    )
    with use_language("hi"):
        assert "पत्ते की" in ngettext(single, plural, 0)
        assert "पत्तों की" in ngettext(single, plural, 2)


def test_pseudo_locale_accents_lengthens_and_keeps_fields() -> None:
    text = "{who} drew {card}"
    out = pseudo(text)
    assert "{who}" in out and "{card}" in out and "drew" not in out
    assert len(out) >= 1.3 * len(text)
    with use_language(PSEUDO):
        from sorry_lan.i18n import _

        shown = _("choose a game or type an address")
    assert shown.startswith("[") and "type" not in shown and "ţýpé" in shown
    assert len(shown) >= 1.3 * len("choose a game or type an address")


def test_a_message_that_returns_takes_its_kept_translation() -> None:
    """Translations prepared ahead of the code wait as obsolete entries (``#~``)."""
    from babel.messages.catalog import Catalog as Cat
    from babel.messages.catalog import Message

    template = Cat(locale=None, domain="sorry_lan")
    template.add("type a number", None)
    template.add("a help block the code will have", None)
    cat = Cat(locale="cy", domain="sorry_lan")
    cat.add("type a number", "teipiwch rif")
    cat.obsolete["a help block the code will have"] = Message(
        "a help block the code will have", "bloc cymorth"
    )
    cat.obsolete["gone from the code"] = Message("gone from the code", "wedi mynd")
    merged = tool.merge(cat, template)
    assert merged["a help block the code will have"].string == "bloc cymorth"
    assert merged["type a number"].string == "teipiwch rif"
    assert list(merged.obsolete) == ["gone from the code"]
    assert tool.problems("cy", merged, template) == []


@pytest.mark.parametrize("lang", ["cy", "el"])
def test_a_sentence_begins_with_a_capital_where_the_english_does(lang: str) -> None:
    """Issue 33: Welsh sentences began in lower case ("chwaraeoch chi ...") where the
    English ones begin with a capital ("You played ...").  Languages that write
    capitals follow the English: a translation whose message starts with a capital
    starts with one too."""
    lower = []
    for message in read_catalog(f"{lang}.po", locale=lang):
        if not message.id or not message.string:
            continue
        english = str(message.id[0] if isinstance(message.id, tuple) else message.id)
        string = message.string
        forms = [str(f) for f in string] if isinstance(string, tuple | list) else [str(string)]
        if english[:1].isupper():
            lower += [(english, form) for form in forms if form[:1].islower()]
    assert lower == []
