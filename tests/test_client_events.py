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
ROOT = PACKAGE.parent
PYPROJECT = ROOT / "pyproject.toml"
UNION = re.compile(r"^ClientEvent = \(\n(?:    .*\n)+?\)\n", re.M)


def readers(root: Path) -> list[Path]:
    """The modules that dispatch on a client event with assert_never."""
    return sorted(p for p in root.rglob("*.py") if "assert_never(ev)" in p.read_text("utf-8"))


def test_the_three_readers_dispatch_with_assert_never() -> None:
    names = {path.stem for path in readers(PACKAGE)}
    assert {"feed", "botrunner"} <= names and len(names) == 3  # and the line interface


@pytest.mark.timeout(300)  # a cold mypy run over the package, when no cache is warm
def test_an_event_added_to_the_union_and_forgotten_fails_mypy(tmp_path: Path) -> None:
    # The client module with an event added is read in place of the real one
    # (mypy's --shadow-file), from a copy of the project's mypy cache when CI's mypy
    # step left one: only that module and its readers are checked again.
    [client] = [p for p in PACKAGE.rglob("*.py") if UNION.search(p.read_text(encoding="utf-8"))]
    text = client.read_text(encoding="utf-8")
    union = UNION.search(text)
    assert union is not None
    added = (
        "@dataclass(frozen=True)\nclass Kicked:\n    text: str\n\n\n"
        + union.group(0).replace("\n)\n", "\n    | Kicked\n)\n")
    )
    shadow = tmp_path / client.name
    shadow.write_text(text.replace(union.group(0), added), encoding="utf-8")
    files = [str(f.relative_to(ROOT)) for f in readers(PACKAGE)]
    assert len(files) == 3
    cache = tmp_path / "cache"
    if (ROOT / ".mypy_cache").is_dir():
        shutil.copytree(ROOT / ".mypy_cache", cache)
    run = subprocess.run(
        [
            sys.executable, "-m", "mypy", "--config-file", str(PYPROJECT),
            "--cache-dir", str(cache),
            "--shadow-file", str(client.relative_to(ROOT)), str(shadow), *files,
        ],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    failing = {line.split(":")[0] for line in errors if '"Kicked"' in line}
    assert failing == set(files), run.stdout
    assert len(errors) == len(files), run.stdout  # nothing else broke
