"""One base for every error the package raises, importable from every layer."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

import sorry_lan
from sorry_lan.errors import SorryLanError

PACKAGE = Path(sorry_lan.__file__).parent


def _modules() -> list[str]:
    names = [
        info.name
        for info in pkgutil.walk_packages([str(PACKAGE)], prefix="sorry_lan.")
        if not info.name.endswith("__main__")  # running it starts the program
    ]
    assert len(names) > 50  # the walk really found the package
    return names


def _imports(path: Path) -> list[tuple[int, str]]:
    """(relative level, module) of every import statement in the file."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(0, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.level, node.module or ""))
    return out


def test_every_exception_class_of_the_package_is_a_sorry_lan_error() -> None:
    found: list[type[BaseException]] = []
    for name in _modules():
        module = importlib.import_module(name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if obj.__module__ == name and issubclass(obj, BaseException):
                found.append(obj)
    assert len(found) >= 19
    strays = [f"{c.__module__}.{c.__qualname__}" for c in found if not issubclass(c, SorryLanError)]
    assert strays == [], f"not under SorryLanError: {strays}"


def test_built_in_kinds_are_kept_beside_the_common_base() -> None:
    from sorry_lan.discovery.advert import AdvertError
    from sorry_lan.rules import GameOverError, IllegalMoveError, InvariantError
    from sorry_lan.rules.notation import PositionError

    assert issubclass(PositionError, ValueError) and issubclass(AdvertError, ValueError)
    assert issubclass(IllegalMoveError, ValueError)
    assert issubclass(GameOverError, RuntimeError)
    assert issubclass(InvariantError, AssertionError)


def test_the_errors_module_imports_nothing_so_the_rules_engine_may_use_it() -> None:
    assert _imports(PACKAGE / "errors.py") == [(0, "__future__")]


def test_the_rules_engine_imports_only_the_standard_library_and_the_error_base() -> None:
    allowed = set(sys.stdlib_module_names) | {"sorry_lan.errors"}
    for path in sorted((PACKAGE / "rules").glob("*.py")):
        for level, module in _imports(path):
            if level:  # relative: another rules module
                assert level == 1, f"{path.name} reaches out of rules with a relative import"
                continue
            top = module.split(".")[0]
            assert module in allowed or top in allowed, f"{path.name} imports {module}"
