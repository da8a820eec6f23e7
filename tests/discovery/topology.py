"""Test helper: small networks of namespaces, shaped like the laptops that lose tables.

`Topology` builds, in namespaces it creates itself (named `sl-<pid>-<random>-...`, all
deleted by `close()`): machines (`machine()`: only `lo` up), LAN segments
(`segment()`: a bridge living in a namespace of its own), cables from a machine to a
segment (`cable()`: a veth named as the machine sees it, `eth0`, `eth1`, with IPv4
and/or IPv6 addresses), a VPN-like `tun` device (`tun()`), a docker-like bridge
(`docker()`), and a firewall that drops mDNS coming in (`drop_mdns()`: nftables, or
iptables where that is what exists).  `spawn()` runs a command in a machine as a
`netns.Agent`; `screen()` starts a private tmux server inside a machine (`NsScreen`)
to read what a real terminal shows.  Nothing is created in the caller's namespace but
the `/run/netns` entries, and no traffic leaves the namespaces.

`firewall_tool()` says which of `nft` and `iptables` exists (None: neither).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Self

from netns import REPO_ROOT, Agent, NetnsSetupError, delete_namespace, new_prefix


def _run(*argv: str) -> str:
    done = subprocess.run(list(argv), capture_output=True, text=True, timeout=15, check=False)
    if done.returncode != 0:
        raise NetnsSetupError(f"{' '.join(argv)}: {done.stderr.strip()}")
    return done.stdout


def firewall_tool() -> str | None:
    """`nft` or `iptables`, whichever this machine has (nft first), or None."""
    for tool in ("nft", "iptables"):
        if shutil.which(tool) is not None:
            return tool
    return None


class Topology:
    """Namespaces and links for one test; a context manager that deletes them all."""

    def __init__(self) -> None:
        self.prefix = new_prefix()
        self.net = secrets.randbelow(200) + 20  # 10.<net>.<segment>.<host>
        self._created: list[str] = []
        self._agents: list[Agent] = []
        self._screens: list[NsScreen] = []
        self._links = 0

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _namespace(self, name: str) -> str:
        ns = f"{self.prefix}-{name}"
        _run("ip", "netns", "add", ns)
        self._created.append(ns)
        _run("ip", "-n", ns, "link", "set", "lo", "up")
        return ns

    def machine(self, name: str) -> str:
        """A machine with nothing but loopback (add cables, tun, docker)."""
        return self._namespace(name)

    def segment(self, name: str) -> str:
        """A LAN segment: a bridge (no multicast snooping) in a namespace of its own."""
        ns = self._namespace(name)
        _run("ip", "-n", ns, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0",
             "forward_delay", "0")  # fmt: skip
        _run("ip", "-n", ns, "link", "set", "br0", "up")
        return ns

    def cable(
        self, machine: str, segment: str, ifname: str, v4: str | None, v6: str | None = None
    ) -> None:
        """Plug `machine` into `segment` as `ifname`, with `v4` (/24) and `v6` (/64)."""
        self._links += 1
        port = f"p{self._links}"
        _run("ip", "-n", segment, "link", "add", port, "type", "veth", "peer", "name", ifname,
             "netns", machine)  # fmt: skip
        _run("ip", "-n", segment, "link", "set", port, "master", "br0", "up")
        if v4 is not None:
            _run("ip", "-n", machine, "addr", "add", f"{v4}/24", "dev", ifname)
        if v6 is not None:
            _run("ip", "-n", machine, "-6", "addr", "add", f"{v6}/64", "dev", ifname, "nodad")
        _run("ip", "-n", machine, "link", "set", ifname, "up")

    def tun(self, machine: str, address: str, ifname: str = "tun0") -> None:
        """A VPN-like tun device with `address` (/24) and, as VPNs do, the multicast route."""
        _run("ip", "-n", machine, "tuntap", "add", "dev", ifname, "mode", "tun")
        _run("ip", "-n", machine, "addr", "add", f"{address}/24", "dev", ifname)
        _run("ip", "-n", machine, "link", "set", ifname, "up")
        _run("ip", "-n", machine, "route", "add", "224.0.0.0/4", "dev", ifname)

    def docker(self, machine: str, address: str, ifname: str = "docker0") -> None:
        """A docker-like bridge with `address` (/16) and nothing plugged in."""
        _run("ip", "-n", machine, "link", "add", ifname, "type", "bridge")
        _run("ip", "-n", machine, "addr", "add", f"{address}/16", "dev", ifname)
        _run("ip", "-n", machine, "link", "set", ifname, "up")

    def drop_mdns(self, machine: str, multicast_only: bool = False) -> None:
        """A firewall in `machine` dropping mDNS (UDP 5353) as it comes in, IPv4 and IPv6
        (`multicast_only`: only what comes to a multicast group; answers sent to this
        machine's own address pass)."""
        tool = firewall_tool()
        only = " meta pkttype multicast" if multicast_only else ""
        if tool == "nft":
            rules = (
                "table inet sorry_lan_test {\n"
                "  chain input { type filter hook input priority 0; "
                f"udp dport 5353{only} drop; }}\n"
                "}\n"
            )
            done = subprocess.run(
                ["ip", "netns", "exec", machine, "nft", "-f", "-"],
                input=rules, capture_output=True, text=True, timeout=15, check=False,
            )  # fmt: skip
            if done.returncode != 0:
                raise NetnsSetupError(f"nft: {done.stderr.strip()}")
        elif tool == "iptables":
            match = ("-m", "pkttype", "--pkt-type", "multicast") if multicast_only else ()
            for cmd in ("iptables", "ip6tables"):
                _run("ip", "netns", "exec", machine, cmd, "-A", "INPUT", "-p", "udp",
                     "--dport", "5353", *match, "-j", "DROP")  # fmt: skip
        else:
            raise NetnsSetupError("neither nft nor iptables is installed")

    def spawn(self, machine: str, argv: Sequence[str], label: str) -> Agent:
        """Run `argv` inside `machine` (cwd: the repository, PYTHONPATH set)."""
        agent = Agent(["ip", "netns", "exec", machine, *argv], label)
        self._agents.append(agent)
        return agent

    def sorry_lan(self, machine: str, label: str, *args: str) -> Agent:
        """`python -m sorry_lan ARGS` inside `machine`."""
        return self.spawn(machine, [sys.executable, "-m", "sorry_lan", *args], label)

    def run(
        self, machine: str, *args: str, env: dict[str, str] | None = None, timeout: float = 30.0
    ) -> subprocess.CompletedProcess[str]:
        """`python -m sorry_lan ARGS` inside `machine`, to its end: status, stdout, stderr."""
        return subprocess.run(
            ["ip", "netns", "exec", machine, sys.executable, "-m", "sorry_lan", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            cwd=REPO_ROOT,
            env={**os.environ, "PYTHONPATH": str(REPO_ROOT), **(env or {})},
        )

    def screen(self, machine: str, command: str, env: dict[str, str] | None = None) -> NsScreen:
        """`command` in an 80x24 tmux server of its own, inside `machine`."""
        screen = NsScreen(machine, command, env or {})
        self._screens.append(screen)
        return screen

    def close(self) -> None:
        """Stop what was started here (by PID) and delete every namespace; idempotent."""
        while self._screens:
            self._screens.pop().close()
        while self._agents:
            self._agents.pop().stop()
        while self._created:
            delete_namespace(self._created.pop())


class NsScreen:
    """A private tmux server (`-L sl-<random>`) started inside a namespace, one pane."""

    def __init__(self, machine: str, command: str, env: dict[str, str]) -> None:
        self.socket = f"sl-{secrets.token_hex(4)}"
        self.server_pid: int | None = None
        variables = {"PYTHONPATH": str(REPO_ROOT), "TERM": "xterm-256color", "LANG": "C.UTF-8"}
        variables.update(env)
        argv = ["ip", "netns", "exec", machine, "tmux", "-L", self.socket, "-f", "/dev/null",
                "new-session", "-d", "-s", "game", "-x", "80", "-y", "24",
                "-c", str(REPO_ROOT)]  # fmt: skip
        for key, value in variables.items():
            argv += ["-e", f"{key}={value}"]
        _run(*argv, command)
        self.server_pid = int(self._tmux("display-message", "-p", "-t", "game", "#{pid}"))

    def _tmux(self, *args: str) -> str:
        return _run("tmux", "-L", self.socket, *args).strip()

    def screen_pid(self) -> int:
        """The pid of the pane's command (the shell that runs it)."""
        return int(self._tmux("display-message", "-p", "-t", "game", "#{pane_pid}"))

    def text(self) -> str:
        """The screen as it is now."""
        return _run("tmux", "-L", self.socket, "capture-pane", "-p", "-t", "game")

    def wait_for(self, cond: Callable[[str], bool], timeout: float = 20.0) -> str:
        """The screen once `cond` holds (AssertionError with the screen after `timeout`)."""
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end:
            text = self.text()
            if cond(text):
                return text
            time.sleep(0.1)
        raise AssertionError("timed out; screen:\n" + text)

    def keys(self, *keys: str) -> None:
        _run("tmux", "-L", self.socket, "send-keys", "-t", "game", *keys)

    def close(self) -> None:
        """Kill the server and its pane (by PID) and remove the socket file."""
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        if self.server_pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.server_pid, signal.SIGKILL)
        base = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
        (base / self.socket).unlink(missing_ok=True)
