"""Protocol meanings are codes, never sentences compared as text (issue 30).

A refusal's, an error's, a bye's or a chat line's words are for people; what they
mean to a program is its reason code (``wire.vocab``, ``wire.errors``, ``codes``) or a
value of the model.  This reads the package's source (it imports nothing) and fails
on a comparison (``==``, ``!=``, ``in``, ``not in``, ``startswith``, ``endswith``)
that involves a known protocol sentence (a module-level text constant of the layers
that speak the protocol, by name or by value), or a message's ``text`` and a
literal.  :data:`ALLOWED` lists the places that may, each with why.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from import_graph import module_files, parsed

# The package parsed once (import_graph caches each tree per process): the modules that
# read its trees run on one worker instead of each worker parsing it again.
pytestmark = pytest.mark.xdist_group("package_trees")

#: The layers whose module-level text constants are sentences a peer may read.
SPEAKERS = ("sorry_lan.wire", "sorry_lan.authority", "sorry_lan.succession",
            "sorry_lan.net", "sorry_lan.client")

#: (module, function) pairs that may compare such a sentence, and why.
ALLOWED = {
    # SPEC 13: a standby that does not stand says so only in a busy refuse's text, and
    # a refuse may carry no other field (the one comparison of the wire, isolated)
    ("sorry_lan.wire.standby", "standby_answer"),
}


def _sentences() -> dict[str, str]:
    """Every ``NAME = "a sentence"`` at the top of a speaking module: name -> text."""
    out: dict[str, str] = {}
    for name, path in module_files().items():
        if not name.startswith(SPEAKERS):
            continue
        for node in parsed(path).body:
            target, value = None, None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign):
                target, value = node.target, node.value
            if not isinstance(target, ast.Name) or not target.id.isupper():
                continue
            text = value.value if isinstance(value, ast.Constant) else None
            if isinstance(text, str) and " " in text.strip():
                out[target.id] = text
    return out


def _names(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_sentence(node: ast.AST, sentences: dict[str, str]) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value in sentences.values()
    name = _names(node)
    return name is not None and name in sentences


def _compared(tree: ast.AST) -> Iterator[tuple[ast.expr, list[ast.expr]]]:
    """Each comparison in ``tree``, with its operands."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            ops = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)
            if any(isinstance(op, ops) for op in node.ops):
                yield node, [node.left, *node.comparators]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("startswith", "endswith")):  # fmt: skip
            yield node, [node.func.value, *node.args]


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """Each top-level function and method of ``tree`` by name, and the module's other
    statements as ``""``."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield item.name, item
        else:
            yield "", node


def offences(files: dict[str, Path], sentences: dict[str, str]) -> list[str]:
    found = []
    for module, path in files.items():
        for function, node in _functions(parsed(path)):
            if (module, function) in ALLOWED:
                continue
            for comparison, operands in _compared(node):
                texts = [x for x in operands if isinstance(x, ast.Attribute) and x.attr == "text"]
                literal = any(isinstance(x, ast.Constant) and isinstance(x.value, str)
                              for x in operands)  # fmt: skip
                if any(_is_sentence(x, sentences) for x in operands) or (texts and literal):
                    where = f"{module}:{comparison.lineno}"
                    found.append(f"{where} ({function or 'module'}): {ast.unparse(comparison)}")
    return found


def test_no_protocol_sentence_is_compared_as_text() -> None:
    sentences = _sentences()
    assert "NOT_HOSTING" in sentences and "MISMATCH" in sentences  # the scan finds them
    assert offences(module_files(), sentences) == []


def test_the_scan_finds_a_sentence_compared(tmp_path: Path) -> None:
    """The check itself: a refusal's text compared with a sentence, by name or by value,
    and a prefix test, are each found."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "def f(msg):\n"
        "    a = msg.text != NOT_HOSTING\n"
        "    b = why.startswith(takeover.MISMATCH)\n"
        "    c = msg.text == 'this laptop does not host the table'\n"
        "    d = refuse.text.startswith('waiting for the table')\n"
        "    return a, b, c, d\n"
    )
    sentences = _sentences()
    assert len(offences({"bad": bad}, sentences)) == 4
