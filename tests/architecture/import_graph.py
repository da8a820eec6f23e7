"""The import graph of the ``sorry_lan`` package, read from its source with ``ast``.

An edge ``a -> b`` means module ``a`` imports module ``b`` somewhere: at the top,
lazily inside a function, or under ``if TYPE_CHECKING:`` (a type-only import never
runs, but it is a dependency all the same: a cycle through one is still a tangle).
:func:`runtime_imports` leaves those out, for the checks of what runs.
``from pkg import name`` counts as importing ``pkg.name`` when that is a module, else
``pkg``.  Also usable as a script: ``python tests/architecture/import_graph.py``
prints every cycle.  It does not import the package.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "sorry_lan"


@functools.cache
def module_files(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name), read once
    per run (a caller must not change the dict)."""
    out: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of the file at ``path``, read once (the checks only read trees)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree``, ``if TYPE_CHECKING:`` ones included."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that can run: those under ``if TYPE_CHECKING:`` left out."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in _runtime_in(child))
            continue
        yield from _runtime_in(node)


def _runtime_in(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    else:
        yield from runtime_imports(node)


def _named(node: ast.Import | ast.ImportFrom, here: str, files: dict[str, Path]) -> set[str]:
    """The dotted names ``node`` imports, relative ones resolved from package ``here``."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    base = node.module or ""
    if node.level:
        anchor = here.split(".")
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, *([base] if base else [])])
    return {f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names}


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module -> the package's modules it imports."""
    files = module_files(root)
    out: dict[str, set[str]] = {}
    for name, path in files.items():
        here = _package_of(name, path)
        targets: set[str] = set()
        for node in imports(parsed(path)):
            targets |= _named(node, here, files)
        out[name] = {t for t in targets if t in files and t != name}
    return out


def load_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run when the module is loaded: those at its top
    level (in an ``if``, ``try`` or class body too), not those inside a function and
    not those under ``if TYPE_CHECKING:``."""
    inside = _imports_in(_functions(tree))
    yield from (node for node in runtime_imports(tree) if id(node) not in inside)


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def _imports_in(nodes: list[ast.FunctionDef | ast.AsyncFunctionDef]) -> set[int]:
    """The ids of the import statements inside ``nodes``."""
    return {id(n) for f in nodes for n in ast.walk(f) if isinstance(n, ast.Import | ast.ImportFrom)}


def run_graph(
    root: Path = PACKAGE, *, on_load: bool = False, cut: frozenset[tuple[str, str]] = frozenset()
) -> dict[str, set[str]]:
    """Each module -> every module it can import when run, the package's and others' by
    their full dotted names (``prompt_toolkit.utils``): imports inside functions
    included (``on_load``: only those that run when it is loaded), ``if TYPE_CHECKING:``
    ones left out, and those inside the functions named in ``cut`` (pairs of module and
    function name: a nested function's own name) left out too.  A module of the package
    also imports its parent packages, as Python loads them first."""
    files = module_files(root)
    out: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = parsed(path)
        skipped = _imports_in([f for f in _functions(tree) if (name, f.name) in cut])
        chosen = load_imports(tree) if on_load else runtime_imports(tree)
        targets: set[str] = set()
        for node in chosen:
            if id(node) not in skipped:
                targets |= _named(node, _package_of(name, path), files)
        parents = name.split(".")
        targets |= {".".join(parents[:i]) for i in range(1, len(parents))}
        out[name] = targets - {name}
    return out


def reach(start: str, edges: dict[str, set[str]]) -> set[str]:
    """Every module ``start`` imports, directly or through others (itself included);
    a module outside ``edges`` (another library) is reached but not followed."""
    seen = {start}
    todo = [start]
    while todo:
        for target in edges.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def main() -> int:
    found = cycles(graph())
    for group in found:
        print("cycle:", " <-> ".join(group))
    print(f"{len(found)} import cycles in {len(module_files())} modules")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
