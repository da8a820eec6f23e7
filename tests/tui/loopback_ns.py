"""Test helper: real ``sorry-lan`` processes (and a tmux server) in a loopback-only netns.

:class:`LoopbackNamespace` creates a fresh network namespace with ``unshare -n``,
brings ``lo`` up in it and keeps it alive with a sleeping holder process; commands
run inside with ``nsenter -t HOLDER -n`` (which execs them: the PID we get is the
program's).  A tmux server started that way lives in the namespace, and so does
every pane it starts.  :meth:`LoopbackNamespace.close` ends what it started, by PID
(TERM, then KILL), and the namespace disappears with its last process.  Nothing
here runs in this machine's own network namespace (the holder is checked at once;
:meth:`LoopbackNamespace.holds` lets a test check a process it started).

:class:`NsTmux` is a private tmux server (``-L sl-<random>``) in such a namespace,
with ``keys``/``screen``/``wait_for`` for the tests and a ``close`` that kills the
server and its panes by PID and removes the socket.

``skip_reason()`` says why this cannot run here (not root, a tool missing, no
namespaces), or None.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tmux_harness import Tmux

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("unshare", "nsenter", "ip", "tmux")


def skip_reason() -> str | None:
    if sys.platform != "linux":
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in TOOLS:
        if shutil.which(tool) is None:
            return f"the {tool!r} command is missing"
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, text=True, timeout=10)
    if probe.returncode != 0:
        return f"cannot create a network namespace: {probe.stderr.strip()}"
    return None


def _netns(pid: int | str) -> str:
    return os.readlink(f"/proc/{pid}/ns/net")


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1].startswith("Z")  # a zombie is gone too
    except FileNotFoundError:
        return True


def end_pid(pid: int, timeout: float = 3.0) -> None:
    """TERM ``pid``, KILL it if it is still there after ``timeout``; reap it if ours."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + timeout
    while not _gone(pid) and time.monotonic() < end:
        time.sleep(0.02)
    if not _gone(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


class Proc:
    """A process in the namespace whose stdout lines are collected by a thread."""

    def __init__(self, popen: subprocess.Popen[str]) -> None:
        self.popen = popen
        self.pid = popen.pid
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.append(line.rstrip("\n"))

    def line(self, pred: Callable[[str], bool], timeout: float = 10.0, start: int = 0) -> str:
        """The first stdout line from ``start`` on satisfying ``pred``."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for text in self.lines[start:]:
                if pred(text):
                    return text
            if self.popen.poll() is not None and not self._reader.is_alive():
                break
            time.sleep(0.02)
        raise AssertionError(f"no such line; stdout so far: {self.lines}; {self.stderr()}")

    def send(self, text: str) -> None:
        assert self.popen.stdin is not None
        self.popen.stdin.write(text)
        self.popen.stdin.flush()

    def stderr(self) -> str:
        if self.popen.poll() is None or self.popen.stderr is None:
            return "(still running)"
        return "stderr: " + self.popen.stderr.read()[-3000:]


class LoopbackNamespace:
    def __init__(self) -> None:
        self.holder = subprocess.Popen(
            ["unshare", "-n", "sh", "-c", "ip link set lo up && echo up && exec sleep 600"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.procs: list[Proc] = []
        self.extra_pids: list[int] = []
        assert self.holder.stdout is not None
        if self.holder.stdout.readline().strip() != "up":
            self.holder.kill()
            self.holder.wait(5)
            raise RuntimeError("could not bring lo up in a new namespace")
        self.net = _netns(self.holder.pid)
        if self.net == _netns("self"):
            self.close()
            raise RuntimeError("the holder is in our own network namespace")

    def argv(self, *cmd: str) -> list[str]:
        return ["nsenter", "-t", str(self.holder.pid), "-n", "--", *cmd]

    def spawn(self, *args: str, stdin: bool = False) -> Proc:
        """``python -m sorry_lan ARGS`` inside the namespace, stdout read line by line."""
        popen = subprocess.Popen(
            self.argv(sys.executable, "-m", "sorry_lan", *args),
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        proc = Proc(popen)
        self.procs.append(proc)
        return proc

    def holds(self, pid: int) -> bool:
        """Whether process ``pid`` runs in this namespace (ask once it has printed)."""
        return _netns(pid) == self.net

    def close(self) -> None:
        for proc in reversed(self.procs):
            if proc.popen.poll() is None:
                end_pid(proc.pid)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.popen.wait(5)
            for stream in (proc.popen.stdin, proc.popen.stdout, proc.popen.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        for pid in self.extra_pids:
            end_pid(pid)
        if self.holder.poll() is None:
            end_pid(self.holder.pid)
        self.holder.wait(5)
        for stream in (self.holder.stdout, self.holder.stderr):
            if stream is not None:
                stream.close()


class NsTmux(Tmux):
    """A private tmux server started inside ``ns``; one session named ``game``."""

    def __init__(self, ns: LoopbackNamespace) -> None:
        super().__init__("game")
        self.ns = ns
        self.server_pid: int | None = None
        self.socket_path: str | None = None

    def start(self, command: str, cols: int = 80, rows: int = 24) -> None:
        """Start the server (in the namespace) with ``command`` in session ``game``."""
        argv = self.ns.argv(
            "tmux", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "game",
            "-x", str(cols), "-y", str(rows), "-e", f"PYTHONPATH={ROOT}",
            "-e", "TERM=xterm-256color", "-e", "LANG=C.UTF-8", "-c", str(ROOT), command,
        )  # fmt: skip
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        if done.returncode != 0:
            raise AssertionError(f"tmux new-session: {done.stderr}")
        info = self.run("display-message", "-p", "-t", "game", "#{pid} #{socket_path}")
        pid, self.socket_path = info.split()
        self.server_pid = int(pid)
        self.ns.extra_pids.append(self.server_pid)
        assert _netns(self.server_pid) == self.ns.net, "the tmux server is not in the namespace"

    def pane_pid(self) -> int:
        return int(self.run("display-message", "-p", "-t", "game", "#{pane_pid}"))

    def close(self) -> None:
        panes: list[int] = []
        with contextlib.suppress(AssertionError, subprocess.TimeoutExpired):
            panes = [int(p) for p in self.run("list-panes", "-a", "-F", "#{pane_pid}").split()]
        for pid in panes:
            end_pid(pid)
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        if self.server_pid is not None:
            end_pid(self.server_pid)
        if self.socket_path:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.socket_path)
