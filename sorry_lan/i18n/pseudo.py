"""The pseudo-locale: every message accented and about 40% longer, placeholders kept.

Tests run the game in it to find text that escaped translation (it would show plain
ASCII) and layouts that break when words grow (Greek and Welsh run longer than
English).  Only the letters outside ``{...}`` placeholders change; the padding is a run
of ``·`` inside brackets so a clipped message is visible.  It does no I/O.
"""

from __future__ import annotations

import re

from babel.messages.catalog import Catalog

_ACCENTS = str.maketrans(
    "abcdeghiklnorstuwyzABCDEGHIKLNORSTUWYZ",
    "àƀçđéĝĥîķĺñöŕšţûŵýžÀβÇĐÉĜĤÎĶĹÑÖŘŠŢÛŴÝŽ",
)
_FIELD = re.compile(r"(\{[^{}]*\})")
GROWTH = 0.4


def pseudo(text: str) -> str:
    """``text`` accented outside its ``{fields}`` and padded to ~140% of its length."""
    if not text:
        return text
    parts = _FIELD.split(text)
    out = "".join(p if _FIELD.fullmatch(p) else p.translate(_ACCENTS) for p in parts)
    lead = len(text) - len(text.lstrip("\n"))
    tail = len(text) - len(text.rstrip("\n"))
    body = out.strip("\n")
    pad = max(1, round(len(body) * GROWTH) - 2)
    return "\n" * lead + f"[{body}{'·' * pad}]" + "\n" * tail


def pseudo_catalog(template: Catalog) -> Catalog:
    """A catalog translating every message of ``template`` with :func:`pseudo`."""
    cat = Catalog(locale="en", domain=template.domain)
    for msg in template:
        if not msg.id:
            continue
        if isinstance(msg.id, tuple | list):
            singular, plural = msg.id[0], msg.id[1]
            cat.add(msg.id, (pseudo(singular), pseudo(plural)), context=msg.context)
        else:
            cat.add(msg.id, pseudo(msg.id), context=msg.context)
    return cat
