"""The namespaces a test creates are deleted even when it fails, times out or its
process is killed: each is named after its creating process, and the suite's start and
end sweep what such a run left."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from netns import VirtualLan, netns_skip_reason, new_prefix, sweep_namespaces

_skip = netns_skip_reason()
pytestmark = [pytest.mark.netns, pytest.mark.skipif(_skip is not None, reason=_skip or "")]


def _listed() -> set[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True)
    return {line.split(" ", 1)[0] for line in out.stdout.splitlines()}


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_killed_runs_namespaces_are_swept_and_a_live_ones_kept() -> None:
    dead = f"sl-{_dead_pid()}-0dead0-m0"
    live_other = f"sl-{os.getppid()}-0a11e0-m0"  # (a live process's: never ours to delete)
    mine = f"{new_prefix()}-m0"
    for name in (dead, live_other, mine):
        subprocess.run(["ip", "netns", "add", name], check=True)
    try:
        assert dead in sweep_namespaces(mine=False)
        left = _listed()
        assert dead not in left and {live_other, mine} <= left
        assert sweep_namespaces(mine=True) == [mine]
        assert live_other in _listed()
    finally:
        for name in (dead, live_other, mine):
            subprocess.run(["ip", "netns", "del", name], capture_output=True, check=False)


def test_a_failing_test_leaves_no_namespace_behind() -> None:
    with pytest.raises(RuntimeError), VirtualLan(2) as lan:
        names = {lan.bridge_ns, *(m.namespace for m in lan.machines)}
        assert names <= _listed()
        raise RuntimeError("the test failed")
    assert not names & _listed()
