"""The README's command keeps each ``xdist_group`` on one worker.

Tests that share a module's costly fixture (a game played once, digests computed
once) or a resource say so with ``pytest.mark.xdist_group`` and rely on
``--dist loadgroup`` to run them in one process.  pytest-xdist marks a group by
rewriting the test's node id, which some pytest releases no longer read (pytest-xdist
issue 1386): the groups are then spread silently, and a shared fixture is rebuilt on
every worker.  This runs a small suite of two groups on two workers and reads which
worker ran each test.  It does not time anything (``scripts/bench_tests.py`` does).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SAMPLE = '''
import os
import pytest

pytestmark = pytest.mark.xdist_group("{group}")


@pytest.mark.parametrize("n", range(6))
def test_one(n):
    with open(os.path.join({out!r}, f"{group}-{{n}}"), "w") as f:
        f.write(os.environ["PYTEST_XDIST_WORKER"])
'''


def test_each_group_runs_on_one_worker(tmp_path: Path) -> None:
    out = tmp_path / "ran"
    out.mkdir()
    for group in ("first", "second"):
        (tmp_path / f"test_{group}.py").write_text(SAMPLE.format(group=group, out=str(out)))
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
            "--dist", "loadgroup", "-c", str(tmp_path / "pytest.ini"), "--rootdir",
            str(tmp_path), str(tmp_path)]  # fmt: skip
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    workers: dict[str, set[str]] = {"first": set(), "second": set()}
    for ran in out.iterdir():
        workers[ran.name.split("-")[0]].add(ran.read_text())
    assert len(list(out.iterdir())) == 12
    assert all(len(seen) == 1 for seen in workers.values()), workers
