"""The package's import graph keeps its layers: no cycles, no upward imports, no dead modules.

The graph counts ``if TYPE_CHECKING:`` imports as edges: no cycle anywhere in the
package, type-only ones included (:data:`KNOWN_CYCLES` lists the ones not untangled
yet).  Which library a layer uses is about what runs, so that check reads the imports
that run.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from import_graph import PACKAGE, cycles, graph, imports, module_files, runtime_imports

from sorry_lan.cli import COMMANDS

# The package parsed once (import_graph caches each tree per process): the modules that
# read its trees run on one worker instead of each worker parsing it again.
pytestmark = pytest.mark.xdist_group("package_trees")

#: What each layer may import of the package (itself, and ``sorry_lan.errors``, the
#: error base that imports nothing, always).  ``codes``, every code a user may read with
#: its words, imports only the error base, and every layer may import it.
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "codes": set(),
    "rules": {"codes"},
    "bots": {"codes", "rules"},
    "wire": {"codes", "rules", "sorry_lan"},  # sorry_lan: the version, for ``software``
    # records: the game's record, made at the host for every connection
    "authority": {"codes", "rules", "bots", "wire", "records", "succession"},
    # succession: who hosts next (protocol 4), what a successor knows; sans I/O
    "succession": {"codes", "rules", "bots", "wire", "records"},
    # sorry_lan: the version a record names; bots: the strength a bot's name shows
    "records": {"codes", "rules", "bots", "sorry_lan"},
    # bots: the default strength asked for; records: reading the game record sent
    "client": {"codes", "rules", "bots", "wire", "records", "succession"},
    # a game shown again: its tape from a record (records) or from what a client was
    # told (client: the history its table view holds, the one fold of the game)
    "replay": {"codes", "rules", "records", "wire", "client"},
    "net": {"codes", "rules", "bots", "wire", "authority", "client", "records", "succession"},
    "i18n": {"codes", "rules"},  # words for the game's codes
    "discovery": {"codes", "rules", "wire", "i18n"},  # rules: the vocabulary it advertises
    # handbook: the rules text for players (package data), which names the variants
    "handbook": {"codes", "rules", "i18n"},
    # tui: bots for the strengths; handbook: the rules view's text; records and replay
    # for the replay screen
    "tui": {
        "codes", "rules", "bots", "wire", "client", "net", "discovery", "i18n", "handbook",
        "records", "replay", "succession",
    },
    # web: the phone's seat is an ordinary client (net) told in the line mode's
    # sentences (tui's plain-text modules: it may not reach prompt_toolkit); records:
    # the finished game's record file, which the phone saves
    "web": {"codes", "rules", "bots", "wire", "client", "net", "i18n", "tui", "records"},
}

#: Third-party and socket-level modules, and the one layer each may be used in.
ONLY_IN = {
    "prompt_toolkit": "tui",
    "zeroconf": "discovery",
    "ifaddr": "discovery",
    "socket": "net",
    "msgpack": "wire",
    "babel": "i18n",
    "wcwidth": "tui",
    "aiohttp": "web",
    "segno": "tui",
}

#: Import cycles not untangled yet, each with why it is still there (the set must shrink;
#: a new cycle fails the test).
KNOWN_CYCLES: dict[tuple[str, ...], str] = {}

#: Modules nothing in the package imports yet, with why they stay (the set must shrink).
NOT_YET_IMPORTED: set[str] = set()


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_no_import_cycles() -> None:
    found = {tuple(group) for group in cycles(graph())}
    assert found - set(KNOWN_CYCLES) == set(), "new import cycles"
    assert set(KNOWN_CYCLES) - found == set(), "a known cycle is gone: strike it off"


def test_type_checking_imports_are_edges(tmp_path: Path) -> None:
    package = tmp_path / "sorry_lan"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    typed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n"
    (package / "b.py").write_text(typed)
    edges = graph(package)
    assert edges["sorry_lan.b"] == {"sorry_lan.a"}
    assert cycles(edges) == [["sorry_lan.a", "sorry_lan.b"]]
    tree = ast.parse(typed)
    assert [n.module for n in imports(tree) if isinstance(n, ast.ImportFrom)] == ["typing", "a"]
    assert [n.module for n in runtime_imports(tree) if isinstance(n, ast.ImportFrom)] == ["typing"]


def test_each_layer_imports_only_the_layers_below_it() -> None:
    wrong = [
        f"{a} imports {b}"
        for a, targets in graph().items()
        for b in sorted(targets)
        if _layer(a) in ALLOWED
        and _layer(b) not in {_layer(a), "errors"} | ALLOWED[_layer(a)]
    ]
    assert graph()["sorry_lan.errors"] == set()
    assert graph()["sorry_lan.codes"] <= {"sorry_lan.errors"}
    assert wrong == []


def test_rules_imports_the_standard_library_only() -> None:
    outside = set()
    for name, path in module_files().items():
        if _layer(name) != "rules":
            continue
        for node in imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            for full in names:
                top = (full or "").split(".")[0]
                if top not in sys.stdlib_module_names and top != "sorry_lan":
                    outside.add(f"{name}: {full}")
    assert outside == set()


def test_sockets_zeroconf_and_prompt_toolkit_stay_in_their_layer() -> None:
    wrong = set()
    for name, path in module_files().items():
        for node in runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            for full in names:
                layer = ONLY_IN.get((full or "").split(".")[0])
                if layer is not None and _layer(name) != layer:
                    wrong.add(f"{name}: {full}")
    assert wrong == set()


#: What a sans-I/O core may not import: no event loop, socket, file system or clock.
NO_IO = {"asyncio", "socket", "selectors", "os", "time", "threading", "concurrent"}
#: The sans-I/O cores: the host's (authority/), the client's (client/), a replay's.
SANS_IO = {"authority", "client", "replay", "succession"}


def test_the_cores_import_no_io() -> None:
    """authority/ and client/ decide and the shells in net/ do the I/O: nothing in them
    imports asyncio, sockets, os, threads or a clock."""
    wrong = set()
    for name, path in module_files().items():
        if _layer(name) not in SANS_IO:
            continue
        for node in imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            wrong |= {f"{name}: {full}" for full in names if (full or "").split(".")[0] in NO_IO}
    assert wrong == set()


def test_every_module_runs_in_the_product() -> None:
    """Each module is imported by another module of the package, or is an entry point
    (``python -m sorry_lan``, the ``sorry-lan`` script, a subcommand's module): none is
    there for tests or scripts alone."""
    edges = graph()
    files = module_files()
    reached = set().union(*edges.values())
    reached |= {"sorry_lan.__main__", "sorry_lan.cli"}
    reached |= {f"sorry_lan.commands.{module}" for module, _ in COMMANDS.values()}
    packages = {name for name, path in files.items() if path.name == "__init__.py"}
    unused = set(files) - reached - packages
    assert unused == NOT_YET_IMPORTED


def test_the_graph_sees_relative_lazy_and_from_package_imports() -> None:
    edges = graph()
    assert "sorry_lan.rules.moves" in edges["sorry_lan.rules.movegen"]  # from .moves import
    # from pkg import mod:
    assert "sorry_lan.authority.seat_messages" in edges["sorry_lan.authority.announce"]
    assert "sorry_lan.discovery" in edges["sorry_lan.commands.join"]  # inside a function
    assert PACKAGE.name == "sorry_lan" and len(edges) == len(module_files()) > 50


def test_cycles_finds_each_group_once() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e", "d"}}
    assert cycles(edges) == [["a", "b", "c"]]
    assert cycles({"x": {"y"}, "y": set()}) == []
