"""A new kind of client event that a reader of the events forgets fails mypy.

Every reader of :data:`~sorry_lan.client.model.ClientEvent` (the text board's feed, the
line interface, the bot runner) dispatches with ``match`` and ends in
``assert_never``.  This test copies the package, adds an event to the union and
nothing else, and runs mypy (strict, the project's configuration) over the readers:
each must fail, naming the new event.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sorry_lan

PACKAGE = Path(sorry_lan.__file__).parent
PYPROJECT = PACKAGE.parent / "pyproject.toml"
UNION = re.compile(r"^ClientEvent = \(\n(?:    .*\n)+?\)\n", re.M)


def readers(root: Path) -> list[Path]:
    """The modules that dispatch on a client event with assert_never."""
    return sorted(p for p in root.rglob("*.py") if "assert_never(ev)" in p.read_text("utf-8"))


def test_the_three_readers_dispatch_with_assert_never() -> None:
    names = {path.stem for path in readers(PACKAGE)}
    assert {"feed", "botrunner"} <= names and len(names) == 3  # and the line interface


@pytest.mark.timeout(300)  # one cold mypy run over the package copy
def test_an_event_added_to_the_union_and_forgotten_fails_mypy(tmp_path: Path) -> None:
    copy = tmp_path / "sorry_lan"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    [client] = [p for p in copy.rglob("*.py") if UNION.search(p.read_text(encoding="utf-8"))]
    text = client.read_text(encoding="utf-8")
    union = UNION.search(text)
    assert union is not None
    added = (
        "@dataclass(frozen=True)\nclass Kicked:\n    text: str\n\n\n"
        + union.group(0).replace("\n)\n", "\n    | Kicked\n)\n")
    )
    client.write_text(text.replace(union.group(0), added), encoding="utf-8")
    files = readers(copy)
    assert len(files) == 3
    run = subprocess.run(
        [
            sys.executable, "-m", "mypy", "--config-file", str(PYPROJECT),
            "--cache-dir", str(tmp_path / "cache"),
            *(str(f.relative_to(tmp_path)) for f in files),
        ],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    failing = {line.split(":")[0] for line in errors if '"Kicked"' in line}
    assert failing == {str(f.relative_to(tmp_path)) for f in files}, run.stdout
    assert len(errors) == len(files), run.stdout  # nothing else broke
