"""Every command with bad arguments: one sentence on stderr, exit status 2, no traceback.

Each case runs the real ``python -m sorry_lan`` in a subprocess (nothing here reaches
the network: every argument is refused before anything is opened).  Then the
failures that do happen on the way: joining a port where some other program listens,
and ``simulate | head`` (the reader leaving early).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BAD = [
    ("host", "--port", "99999"),
    ("host", "--port", "-5"),
    ("host", "--port", "http"),
    ("host", "--bots", "9"),
    ("host", "--bots", "4"),  # the host's own player takes one of the four seats
    ("host", "--headless", "--players", "2", "--bots", "3"),
    ("host", "--players", "5"),
    ("host", "--grace", "-1"),
    ("host", "--grace", "nan"),
    ("host", "--turn-timeout", "soon"),
    ("host", "--bot-delay", "inf"),
    ("host", "--variant", "chess"),
    ("host", "--name", ""),
    ("host", "--stay"),
    ("host", "--no-such-option"),
    ("join", "--address", ""),
    ("join", "--address", "example.org:99999"),
    ("join", "--colour", "purple"),
    ("bot", "--games", "0"),
    ("bot", "--games", "many"),
    ("bot", "--think", "-1"),
    ("bot", "--timeout", "x"),
    ("bot", "--strength", "genius"),
    ("bot", "--address", ":5"),
    ("simulate", "--games", "0"),
    ("simulate", "--players", "5"),
    ("simulate", "--variant", "chess"),
    ("simulate", "--bots", "wizard"),
    ("list", "--timeout", "-1"),
    ("rules", "judge"),
    ("rules", "--variant", "chess"),
    ("rules", "--lang", "xx"),
    ("frobnicate",),
]


def sorry(*args: str, stdin: str = "", timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "sorry_lan", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        input=stdin,
    )


@pytest.mark.parametrize("args", BAD, ids=lambda a: " ".join(a) or "none")
def test_bad_arguments_are_a_usage_error(args: tuple[str, ...]) -> None:
    done = sorry(*args)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("sorry-lan"), done.stderr
    assert done.stdout == ""


@pytest.fixture
def mute_server() -> Iterator[int]:
    """A TCP port on 127.0.0.1 where a program accepts connections and says nothing."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(conn)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        server.close()


def test_joining_a_port_where_something_else_listens_says_so(mute_server: int) -> None:
    done = sorry("join", "--text", "--address", f"127.0.0.1:{mute_server}", "--name", "Bob")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "did not answer like a sorry-lan table" in lines[0]
    assert "check the address" in lines[0]


def test_simulate_into_a_pipe_closed_early_ends_quietly() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    sim = subprocess.Popen(
        [sys.executable, "-m", "sorry_lan", "simulate", "--games", "30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert sim.stdout is not None and sim.stderr is not None
    sim.stdout.readline()
    sim.stdout.close()  # like `| head -1`
    err = sim.stderr.read().decode()
    sim.stderr.close()
    sim.wait(60)
    assert "Traceback" not in err and "Error" not in err, err
