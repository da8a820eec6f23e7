"""The real-LAN lane's tests all live in tests/discovery: CI's LAN step collects only
there (.ci/run), so a test marked ``lan`` anywhere else would never run.  It reads the
test sources; it runs and collects no test."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def lan_modules() -> list[str]:
    """The test modules that mark their tests ``lan``, directly or by the LAN helpers'
    ``MARKS``, relative to tests/."""
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        if path == Path(__file__).resolve():
            continue  # (this module names the marker without using it)
        text = path.read_text(encoding="utf-8")
        if "mark.lan" in text or ("lanlaptops import" in text and "MARKS" in text):
            found.append(path.relative_to(TESTS).as_posix())
    return found


def test_every_lan_test_lives_in_tests_discovery() -> None:
    found = lan_modules()
    assert "discovery/test_lan_faults.py" in found and "discovery/test_commands.py" in found
    assert [p for p in found if not p.startswith("discovery/")] == []
