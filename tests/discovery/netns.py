"""Test helpers: network namespaces, so discovery tests never touch real interfaces.

* `run_in_loopback_netns(coro_fn)`: forks, moves the child into a fresh
  network namespace with only `lo` up, runs `asyncio.run(coro_fn())` there
  and returns its (picklable) result or re-raises its failure as
  `NetnsChildError`.  The pytest process itself never changes namespace.
* `VirtualLan`: a bridge living in its own namespace plus N "machine"
  namespaces, each with a veth on the bridge and its own 10.77.x.y/24
  address; `spawn()` runs a command inside a machine as an `Agent` whose
  JSON-line stdout can be awaited with `expect()`.  Everything created is
  deleted by `close()` (use it as a context manager).

`netns_skip_reason()` says why these cannot run here (not root, no `ip`,
no namespaces), or None; `has_ipv6_loopback()` whether `::1` can be bound here.
Nothing here knows about sorry-lan itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import pickle
import queue
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

T = TypeVar("T")

CLONE_NEWNET = 0x40000000
REPO_ROOT = Path(__file__).resolve().parents[2]


class NetnsChildError(AssertionError):
    """The code run inside a namespace failed; the message holds its traceback."""


class NetnsSetupError(RuntimeError):
    """A namespace, link or address could not be created."""


def netns_skip_reason() -> str | None:
    """Why namespace tests cannot run on this machine, or None if they can."""
    if sys.platform != "linux":
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in ("ip", "unshare"):
        if shutil.which(tool) is None:
            return f"the {tool!r} command is missing"
    probe = subprocess.run(
        ["unshare", "-n", "true"], capture_output=True, text=True, timeout=10, check=False
    )
    if probe.returncode != 0:
        return f"cannot create a network namespace: {probe.stderr.strip()}"
    return None


def has_ipv6_loopback() -> bool:
    """Whether this machine can listen on ``::1`` (the IPv6 tests skip without it)."""
    if not socket.has_ipv6:
        return False
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


def _unshare_net() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"unshare(CLONE_NEWNET): {os.strerror(err)}")


def run_in_loopback_netns(fn: Callable[[], Coroutine[Any, Any, T]], timeout: float = 30.0) -> T:
    """Run `asyncio.run(fn())` in a forked child inside a fresh loopback-only namespace."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never returns into pytest
        status = 0
        try:
            os.close(read_fd)
            _unshare_net()
            subprocess.run(["ip", "link", "set", "lo", "up"], check=True, timeout=10)
            payload = pickle.dumps(("ok", asyncio.run(fn())))
        except BaseException:
            status = 1
            payload = pickle.dumps(("error", traceback.format_exc()))
        try:
            with os.fdopen(write_fd, "wb") as out:
                out.write(payload)
        finally:
            os._exit(status)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        with os.fdopen(read_fd, "rb") as inp:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise NetnsChildError(f"namespace child timed out after {timeout} s")
                ready, _, _ = select.select([inp], [], [], left)
                if ready:
                    chunk = os.read(inp.fileno(), 65536)
                    if not chunk:
                        break
                    chunks.append(chunk)
    finally:
        with contextlib.suppress(ProcessLookupError):
            if not chunks:
                os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    try:
        kind, value = pickle.loads(b"".join(chunks))
    except Exception as exc:
        raise NetnsChildError(f"namespace child died without a result: {exc!r}") from None
    if kind != "ok":
        raise NetnsChildError(f"failure inside the namespace:\n{value}")
    return value  # type: ignore[no-any-return]


NAME_PREFIX = "sl-"


def new_prefix() -> str:
    """A fresh prefix for the namespaces one network of a test creates: it names this
    process (``sl-<pid>-<random>``), so what a killed run left is known as such."""
    return f"{NAME_PREFIX}{os.getpid()}-{secrets.token_hex(3)}"


def delete_namespace(name: str) -> None:
    """Delete the network namespace ``name``; a failure is not raised (clean-up goes on
    with the next one, and :func:`sweep_namespaces` retries at the end of the run)."""
    with contextlib.suppress(subprocess.TimeoutExpired, OSError):
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=10, check=False)


def _creator(name: str) -> int | None:
    head = name.removeprefix(NAME_PREFIX).split("-", 1)[0]
    return int(head) if name.startswith(NAME_PREFIX) and head.isdigit() else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_namespaces(mine: bool) -> list[str]:
    """Delete the test namespaces whose creating process is gone and, with ``mine``,
    those this process created: what a test that failed, timed out or was killed left.
    Returns the names deleted (none where ``ip`` is missing)."""
    if shutil.which("ip") is None or sys.platform != "linux":
        return []
    try:
        listed = subprocess.run(
            ["ip", "netns", "list"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (subprocess.TimeoutExpired, OSError):
        return []
    gone = []
    for line in listed.splitlines():
        name = line.split(" ", 1)[0]
        pid = _creator(name)
        if pid is not None and ((mine and pid == os.getpid()) or not _alive(pid)):
            delete_namespace(name)
            gone.append(name)
    return gone


def _ip(*args: str) -> None:
    result = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10, check=False)
    if result.returncode != 0:
        raise NetnsSetupError(f"ip {' '.join(args)}: {result.stderr.strip()}")


class Agent:
    """A process inside a namespace that speaks JSON lines on stdout."""

    def __init__(self, argv: Sequence[str], label: str) -> None:
        self.label = label
        self.proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO_ROOT,
            env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        )
        self.pid = self.proc.pid
        self.seen: list[dict[str, Any]] = []
        self._lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._stderr: list[str] = []
        self._threads = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for t in self._threads:
            t.start()

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                msg = {"event": "raw", "line": line.rstrip("\n")}
            self._lines.put(msg if isinstance(msg, dict) else {"event": "raw", "line": line})
        self._lines.put(None)

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._stderr.append(line)

    @property
    def stderr_text(self) -> str:
        """What the agent wrote on stderr so far (all of it once `stop()` returned)."""
        return "".join(self._stderr)

    def send(self, line: str) -> None:
        """Write one command line to the agent's stdin."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, pred: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any]:
        """The next message satisfying `pred`, waiting at most `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                msg = self._lines.get(timeout=left) if left > 0 else self._lines.get_nowait()
            except queue.Empty:
                why = f"no matching message within {timeout} s"
                raise AssertionError(self._report(why)) from None
            if msg is None:
                self._lines.put(None)
                raise AssertionError(self._report("agent exited before a matching message"))
            self.seen.append(msg)
            if pred(msg):
                return msg

    def _report(self, what: str) -> str:
        return (
            f"{self.label}: {what}\n  messages: {self.seen}\n"
            f"  stderr: {''.join(self._stderr)[-3000:]}"
        )

    def wait(self, timeout: float) -> int:
        """Wait for the agent to exit; returns its exit status."""
        return self.proc.wait(timeout=timeout)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send `sig` to this agent's process (only ours, by pid)."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def stop(self) -> None:
        """Make sure the process is gone and its pipes closed."""
        self.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        for t in self._threads:
            t.join(timeout=2)


@dataclass(frozen=True)
class Machine:
    namespace: str
    address: str
    address6: str


class VirtualLan:
    """A bridged LAN of `machines` namespaces (plus one holding the bridge).

    Addresses are 10.77.N.11, .12, ... on a /24 chosen at random, plus
    fd77:N::11, ... (added without duplicate address detection, so usable at
    once); each machine has `lo` and `eth0` up and a multicast route via `eth0`.  Nothing is
    created in the caller's namespace except the /run/netns entries.
    """

    def __init__(self, machines: int) -> None:
        self.prefix = new_prefix()
        self.bridge_ns = f"{self.prefix}-br"
        subnet = secrets.randbelow(250) + 1
        self.machines = [
            Machine(f"{self.prefix}-m{i}", f"10.77.{subnet}.{11 + i}", f"fd77:{subnet}::{11 + i}")
            for i in range(machines)
        ]
        self._created: list[str] = []
        self._agents: list[Agent] = []

    def __enter__(self) -> Self:
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _add_ns(self, name: str) -> None:
        _ip("netns", "add", name)
        self._created.append(name)
        _ip("-n", name, "link", "set", "lo", "up")

    def _build(self) -> None:
        br = self.bridge_ns
        self._add_ns(br)
        _ip(
            "-n",
            br,
            "link",
            "add",
            "br0",
            "type",
            "bridge",
            "mcast_snooping",
            "0",
            "forward_delay",
            "0",
        )
        _ip("-n", br, "link", "set", "br0", "up")
        for i, m in enumerate(self.machines):
            self._add_ns(m.namespace)
            _ip(
                "-n",
                br,
                "link",
                "add",
                f"v{i}",
                "type",
                "veth",
                "peer",
                "name",
                "eth0",
                "netns",
                m.namespace,
            )
            _ip("-n", br, "link", "set", f"v{i}", "master", "br0", "up")
            _ip("-n", m.namespace, "addr", "add", f"{m.address}/24", "dev", "eth0")
            _ip("-n", m.namespace, "-6", "addr", "add", f"{m.address6}/64", "dev", "eth0", "nodad")
            _ip("-n", m.namespace, "link", "set", "eth0", "up")
            _ip("-n", m.namespace, "route", "add", "224.0.0.0/4", "dev", "eth0")

    def spawn(self, machine: Machine, argv: Sequence[str], label: str = "") -> Agent:
        """Run `argv` inside `machine`'s namespace (cwd = repo root, PYTHONPATH set)."""
        agent = Agent(["ip", "netns", "exec", machine.namespace, *argv], label or machine.namespace)
        self._agents.append(agent)
        return agent

    def close_agents(self) -> None:
        """Stop (SIGKILL) every agent started here that is still running."""
        while self._agents:
            self._agents.pop().stop()

    def close(self) -> None:
        """Stop every agent started here and delete every namespace created; idempotent."""
        self.close_agents()
        while self._created:
            delete_namespace(self._created.pop())
