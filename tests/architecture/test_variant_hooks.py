"""No code outside the variants registry tells variants apart by identity.

What a variant does is asked of its hooks (``variant.rules.partners``,
``game.rules.deals_hands``), so a new variant is one class in
``sorry_lan/rules/variants.py``.  This test reads the package's source and fails on a
comparison against a ``Variant`` member (``is``, ``is not``, ``==``, ``!=``, ``in``), a
``match`` case on one, or the retired ``uses_hands``.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "sorry_lan"
REGISTRY = PACKAGE / "rules" / "variants.py"


def _is_member(node: ast.AST) -> bool:
    """``Variant.X`` (or ``something.Variant.X``)."""
    if not isinstance(node, ast.Attribute) or not node.attr.isupper():
        return False
    owner = node.value
    return (isinstance(owner, ast.Name) and owner.id == "Variant") or (
        isinstance(owner, ast.Attribute) and owner.attr == "Variant"
    )


def identity_tests(source: str) -> list[int]:
    """Line numbers in ``source`` where a variant is told apart by identity."""
    lines: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            found = any(
                _is_member(sub) for op in (node.left, *node.comparators) for sub in ast.walk(op)
            )
        elif isinstance(node, ast.MatchValue):
            found = _is_member(node.value)
        else:
            found = isinstance(node, ast.Attribute) and node.attr == "uses_hands"
        if found:
            lines.append(getattr(node, "lineno", 0))
    return sorted(set(lines))


def test_the_checker_finds_each_form_of_identity_test() -> None:
    source = "\n".join([
        "a = v is Variant.TEAM",
        "b = v is not rules.Variant.POINTS",
        "c = v == Variant.STANDARD",
        "d = v in (Variant.TEAM, Variant.POINTS)",
        "match v:",
        "    case Variant.TEAM:",
        "        pass",
        "e = game.variant.uses_hands",
        "f = Variant.STANDARD",  # naming a member is fine: a default, a test's table
        "g = v.rules.partners",
        "h = Variant.parse(text) is not None",
    ])
    assert identity_tests(source) == [1, 2, 3, 4, 6, 8]


def test_no_code_outside_the_registry_compares_a_variant_s_identity() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != REGISTRY
        for line in identity_tests(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "ask the variant's hooks (variant.rules) instead: " + ", ".join(found)
