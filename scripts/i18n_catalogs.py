"""Keep the gettext catalogs in step with the source: extract, update, check.

    python scripts/i18n_catalogs.py            # rewrite po/messages.pot and merge every .po
    python scripts/i18n_catalogs.py --check    # exit 1 and say what drifted (CI, tests)

Extraction is Babel's, over ``sorry_lan/`` with its default keywords (``_``, ``N_``,
``ngettext``, ``pgettext``, ``npgettext``).  Updating keeps every existing translation
and adds new messages untranslated; it never invents one, so ``--check`` then fails
until someone translates them.  Translations of messages not (or no longer) in the
code stay as obsolete ``#~`` entries and come back when the message does.  The check
also compares placeholders (``{name}`` fields) between each message and each
translation.
"""

from __future__ import annotations

import argparse
import io
import string
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from sorry_lan.i18n.choose import DEFAULT, LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sorry_lan"
PO_DIR = PACKAGE / "i18n" / "po"
TEMPLATE = PO_DIR / "messages.pot"
LANGS = tuple(code for code in LANGUAGES if code != DEFAULT)
_FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)  # stable headers: no churn in diffs


def extract() -> Catalog:
    """Every message marked in ``sorry_lan/``, as a template catalog."""
    cat = Catalog(
        project="sorry-lan",
        domain="sorry_lan",
        creation_date=_FIXED_DATE,
        revision_date=_FIXED_DATE,
        fuzzy=False,
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], comment_tags=("i18n:",)
    ):
        path = f"sorry_lan/{filename}".replace("\\", "/")
        cat.add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    return cat


def po_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, no_location=True, sort_output=True, include_previous=False)
    return buf.getvalue()


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale, domain="sorry_lan")


def _key(msg: Message) -> tuple[str | None, str]:
    ident = msg.id[0] if isinstance(msg.id, tuple | list) else msg.id
    return (msg.context, str(ident))


def keys(cat: Catalog) -> set[tuple[str | None, str]]:
    return {_key(m) for m in cat if m.id}


def fields(text: str) -> set[str]:
    """The ``{name}`` fields of a format string (``{{`` escapes are not fields)."""
    out: set[str] = set()
    for _lit, name, _spec, _conv in string.Formatter().parse(text):
        if name is not None:
            out.add(name)
    return out


def problems(lang: str, cat: Catalog, template: Catalog) -> list[str]:
    """What is wrong with one language's catalog against the template, one line each."""
    out: list[str] = []
    want = keys(template)
    have = keys(cat)
    out += [f"{lang}: missing message {k[1]!r}" for k in sorted(want - have, key=str)]
    out += [f"{lang}: obsolete message {k[1]!r}" for k in sorted(have - want, key=str)]
    for msg in cat:
        if not msg.id or _key(msg) not in want:
            continue
        ids = list(msg.id) if isinstance(msg.id, tuple | list) else [msg.id]
        strs = list(msg.string) if isinstance(msg.string, tuple | list) else [msg.string]
        if msg.fuzzy or not all(strs):
            out.append(f"{lang}: untranslated {ids[0]!r}")
            continue
        if isinstance(msg.id, tuple | list) and len(strs) != cat.num_plurals:
            out.append(f"{lang}: {ids[0]!r} has {len(strs)} plural forms, not {cat.num_plurals}")
        source = set().union(*(fields(str(i)) for i in ids))
        for s in strs:
            got = fields(s or "")
            # A singular may leave out the count ({n}) where the language says "one".
            if got != source and not (got | {"n"} == source and len(ids) > 1):
                out.append(f"{lang}: placeholders of {ids[0]!r} differ: {sorted(got)}")
    return out


def check() -> list[str]:
    """Every drift between the code, the template and the catalogs."""
    extracted = extract()
    out: list[str] = []
    if not TEMPLATE.exists() or po_bytes(extracted) != TEMPLATE.read_bytes():
        out.append("po/messages.pot is not what the code marks: run scripts/i18n_catalogs.py")
    for lang in LANGS:
        path = PO_DIR / f"{lang}.po"
        if not path.exists():
            out.append(f"{lang}: no catalog {path.name}")
            continue
        out += problems(lang, read(path, lang), extracted)
    return out


def merge(cat: Catalog, template: Catalog) -> Catalog:
    """``cat`` brought in line with ``template``.

    A message that left the code keeps its translation as an obsolete (``#~``) entry,
    and a message that (re)appears takes the translation of an obsolete entry with the
    same text: translations prepared ahead of the code, or for code that comes back,
    are not lost.  Nothing is guessed from similar messages."""
    kept = {_key(m): m for m in cat.obsolete.values()}
    cat.update(template, no_fuzzy_matching=True, update_header_comment=False)
    kept.update({_key(m): m for m in cat.obsolete.values()})
    for msg in cat:
        old = kept.pop(_key(msg), None) if msg.id else None
        if old is not None and not any(_strings(msg)) and all(_strings(old)):
            msg.string = old.string
    cat.obsolete.clear()
    for old in kept.values():
        key = old.id if old.context is None else (old.id, old.context)
        cat.obsolete[key] = old  # type: ignore[index]
    cat.fuzzy = False
    cat.revision_date = _FIXED_DATE
    return cat


def _strings(msg: Message) -> list[str]:
    return list(msg.string) if isinstance(msg.string, tuple | list) else [msg.string or ""]


def update() -> None:
    template = extract()
    TEMPLATE.write_bytes(po_bytes(template))
    for lang in LANGS:
        path = PO_DIR / f"{lang}.po"
        cat = read(path, lang) if path.exists() else Catalog(locale=lang, domain="sorry_lan")
        path.write_bytes(po_bytes(merge(cat, template)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="report drift, change nothing")
    args = p.parse_args(argv)
    if args.check:
        found = check()
        for line in found:
            print(line, file=sys.stderr)
        return 1 if found else 0
    update()
    return 0


if __name__ == "__main__":
    sys.exit(main())
