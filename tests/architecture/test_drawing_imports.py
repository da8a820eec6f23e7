"""Only what draws imports the drawing library: a command that draws no board never
loads ``prompt_toolkit``.

``host --headless``, ``bot``, ``list``, ``games``, ``rules`` printing to a pipe and
``join --text`` (or ``--screen-reader``) print lines; loading prompt_toolkit cost them
some 130 modules, 5 MB and a third of their start.  Each is checked in a fresh interpreter:
``rules`` and ``games`` run for real through :func:`sorry_lan.cli.main`; the commands
that would open sockets are parsed and checked through the same dispatch, and then
every module their code can import on the way is imported, lazily imported ones
included (read from the source), except inside the functions that only the board
runs (:data:`BOARD_ONLY`).  The test runs no command that touches the network.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from import_graph import PACKAGE, load_imports, module_files, reach, run_graph

from sorry_lan.cli import COMMANDS

# The package parsed once (import_graph caches each tree per process): the modules that
# read its trees run on one worker instead of each worker parsing it again.
pytestmark = pytest.mark.xdist_group("package_trees")

DRAWING = "prompt_toolkit"

#: Functions that run only to draw the board (module, function name): what they import
#: is not on a line-mode path.
BOARD_ONLY = frozenset({
    ("sorry_lan.commands.host", "_play_on_board"),
    ("sorry_lan.commands.join", "_tui_main"),
})

#: The modules of the text client that import prompt_toolkit when loaded (directly or
#: through another): the application, its screens and keys, its style, and what builds
#: their help from the screens' tables.  Every other module of it is plain text.
DRAWS = {
    f"sorry_lan.tui.{name}"
    for name in (
        "app", "footer", "helptext", "keys", "layout", "play", "renderer", "replay_board",
        "style",
    )
} | {
    name
    for name in module_files()
    if name.startswith("sorry_lan.tui.screens.")
    # the commands several screens share, and the replay's panel text, draw nothing
    and name.rpartition(".")[2] not in {"shared", "replay_panel"}
}

#: The commands that print lines and would reach the network, as run, and the argument
#: that asks for lines where the command can also draw.
LINE_COMMANDS: dict[str, tuple[list[str], str | None]] = {
    "host --headless": (["host", "--headless"], "headless"),
    "bot": (["bot"], None),
    "list": (["list"], None),
    "join --text": (["join", "--text"], "text"),
    "join --screen-reader": (["join", "--screen-reader"], "text"),
}

#: Run in a fresh interpreter: parse and check each command line of argv[1] as
#: ``sorry-lan`` does, import the modules of argv[2], and print each command's arguments
#: (its line-mode flags) and every module loaded.
_PARSE_AND_IMPORT = """
import importlib, json, sys
from sorry_lan import cli
argvs, modules = json.loads(sys.argv[1]), json.loads(sys.argv[2])
shown = []
for argv in argvs:
    args = cli.build_parser(argv[0]).parse_args(argv)
    assert args._check is None or args._check(args) is None
    shown.append({k: repr(v) for k, v in vars(args).items()})
for name in modules:
    importlib.import_module(name)
print(json.dumps({"args": shown, "loaded": sorted(sys.modules)}))
"""

#: Run in a fresh interpreter: ``sorry-lan`` with argv[1], stdout a pipe; then the status
#: and every module loaded, as JSON in the file argv[2].
_RUN = """
import json, sys
from sorry_lan import cli
status = cli.main(json.loads(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    json.dump({"status": status, "loaded": sorted(sys.modules)}, out)
"""


def _python(code: str, *argv: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, *argv],
        capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL,
        cwd=PACKAGE.parent,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _drawing(loaded: list[str]) -> list[str]:
    """The drawing library's modules and the text client's drawing modules in ``loaded``."""
    return [m for m in loaded if m.split(".")[0] == DRAWING or m in DRAWS]


def _command_module(argv: list[str]) -> str:
    return f"sorry_lan.commands.{COMMANDS[argv[0]][0]}"


def _path_of(argv: list[str]) -> set[str]:
    """Every module the command's code can import, lazily too, the board's functions
    left out."""
    return reach(_command_module(argv), _run_graph(cut=BOARD_ONLY))


@functools.cache
def _run_graph(
    on_load: bool = False, cut: frozenset[tuple[str, str]] = frozenset()
) -> dict[str, set[str]]:
    return run_graph(on_load=on_load, cut=cut)


def _parsed_and_imported(commands: tuple[str, ...]) -> tuple[list[dict[str, str]], set[str]]:
    """Each command's arguments and the modules loaded, ``commands`` parsed and their
    paths imported in one fresh interpreter."""
    argvs = [LINE_COMMANDS[c][0] for c in commands]
    modules = sorted({m for argv in argvs for m in _path_of(argv) if m in module_files()})
    report = json.loads(_python(_PARSE_AND_IMPORT, json.dumps(argvs), json.dumps(modules)))
    return report["args"], set(report["loaded"])


@functools.cache
def _all_line_commands() -> tuple[list[dict[str, str]], set[str]]:
    return _parsed_and_imported(tuple(LINE_COMMANDS))


@pytest.mark.parametrize("command", LINE_COMMANDS)
def test_a_line_command_and_all_it_imports_load_no_prompt_toolkit(command: str) -> None:
    # What every line command imports is loaded in one interpreter: the modules loaded
    # by all of them hold those loaded by each, so none loads the drawing library when
    # all together do not; otherwise this command is run alone, to say which does.
    args, loaded = _all_line_commands()
    at = list(LINE_COMMANDS).index(command)
    if _drawing(sorted(loaded)):
        [mine], loaded = _parsed_and_imported((command,))
        args = [mine] * len(LINE_COMMANDS)
    argv, flag = LINE_COMMANDS[command]
    assert {m for m in _path_of(argv) if m in module_files()} <= loaded
    assert flag is None or args[at][flag] == "True"
    assert _drawing(sorted(loaded)) == []


def test_the_path_follows_lazy_imports_and_leaves_the_board_out() -> None:
    host = _path_of(LINE_COMMANDS["host --headless"][0])
    # lazily imported: in functions of the command and of what it imports
    assert {"sorry_lan.discovery", "sorry_lan.commands.leaving", "sorry_lan.net.kept"} <= host
    assert "sorry_lan.tui.play" not in host
    assert "sorry_lan.tui.play" in reach(_command_module(["host"]), _run_graph())


def test_each_board_only_function_is_there_and_draws() -> None:
    """A name in :data:`BOARD_ONLY` that is gone, or whose function imports nothing that
    draws, cuts nothing the test needs cut: it must go."""
    for module, function in sorted(BOARD_ONLY):
        tree = ast.parse(module_files()[module].read_text(encoding="utf-8"))
        assert any(
            isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == function
            for n in ast.walk(tree)
        ), f"{module} has no function {function}"
        uncut = reach(module, _run_graph(cut=BOARD_ONLY - {(module, function)}))
        assert _drawing(sorted(uncut)), (module, function)


def _ran(argv: list[str], tmp_path: Path) -> dict[str, object]:
    env = {**os.environ, "SORRY_LAN_DATA_DIR": str(tmp_path / "data")}
    report = tmp_path / "report.json"
    printed = _python(_RUN, json.dumps(argv), str(report), env=env)
    out: dict[str, object] = json.loads(report.read_text(encoding="utf-8"))
    out["printed"] = printed
    return out


def test_rules_printed_to_a_pipe_loads_no_prompt_toolkit(tmp_path: Path) -> None:
    ran = _ran(["rules", "--lang", "en"], tmp_path)
    assert ran["status"] == 0 and "Sorry" in str(ran["printed"])
    assert _drawing(list(ran["loaded"])) == []  # type: ignore[call-overload]


def test_games_on_an_empty_data_dir_loads_no_prompt_toolkit(tmp_path: Path) -> None:
    ran = _ran(["games", "--lang", "en"], tmp_path)
    assert ran["status"] == 0 and str(ran["printed"]).strip()
    assert _drawing(list(ran["loaded"])) == []  # type: ignore[call-overload]


def test_only_the_drawing_modules_load_prompt_toolkit() -> None:
    """Which modules of the text client load prompt_toolkit when imported, read from the
    source: exactly :data:`DRAWS`; a plain-text module (board, state, sentences, lines,
    cells) that starts to is caught here, whichever command imports it."""
    on_load = _run_graph(on_load=True)
    tui = [name for name in module_files() if name.startswith("sorry_lan.tui.")]
    loading = {
        name for name in tui if any(t.split(".")[0] == DRAWING for t in reach(name, on_load))
    }
    assert loading == DRAWS


def test_run_graph_follows_lazy_imports_cuts_and_load_time(tmp_path: Path) -> None:
    package = tmp_path / "sorry_lan"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "b.py").write_text("import prompt_toolkit.utils\n")
    source = (
        "from typing import TYPE_CHECKING\n"
        "import json\n"
        "if TYPE_CHECKING:\n    import typed\n"
        "def board():\n    from .sub import b\n"
        "def lines():\n    import shlex\n"
    )
    (package / "a.py").write_text(source)
    names = [n.names[0].name for n in load_imports(ast.parse(source))]
    assert names == ["TYPE_CHECKING", "json"]
    every = run_graph(package)
    assert every["sorry_lan.a"] == {"sorry_lan", "typing", "json", "sorry_lan.sub.b", "shlex"}
    assert every["sorry_lan.sub.b"] == {"sorry_lan", "sorry_lan.sub", "prompt_toolkit.utils"}
    assert "prompt_toolkit.utils" in reach("sorry_lan.a", every)
    cut = run_graph(package, cut=frozenset({("sorry_lan.a", "board")}))
    assert reach("sorry_lan.a", cut) == {"sorry_lan.a", "sorry_lan", "typing", "json", "shlex"}
    assert run_graph(package, on_load=True)["sorry_lan.a"] == {"sorry_lan", "typing", "json"}


def test_the_phones_server_reaches_no_drawing_library() -> None:
    """The web package (the phone's seat) tells in the line mode's sentences: nothing
    it can import, lazily either, draws on a terminal, and the headless host, which
    serves it, reaches it."""
    every = _run_graph()
    web = [name for name in module_files() if name.startswith("sorry_lan.web")]
    assert "sorry_lan.web.server" in web
    drawing = {name: _drawing(sorted(reach(name, every))) for name in web}
    assert {name: found for name, found in drawing.items() if found} == {}
    assert "sorry_lan.web.server" in _path_of(LINE_COMMANDS["host --headless"][0])
