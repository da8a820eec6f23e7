"""A private tmux server for real-terminal tests: start it, read the screen, type.

Each ``Tmux`` has its own server socket (``-L sl-<random>``), so tests never touch
a user's tmux; ``private_tmux`` kills the server and removes its socket file.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


class Tmux:
    def __init__(self, session: str) -> None:
        self.socket = f"sl-{secrets.token_hex(4)}"
        self.session = session

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10
        )
        if done.returncode != 0:
            raise AssertionError(f"tmux {args}: {done.stderr}")
        return done.stdout

    def new_session(self, command: str, root: Path, cols: int = 80, rows: int = 24) -> None:
        """Run ``command`` in a new session of ``cols`` by ``rows``, in ``root`` (on
        its PYTHONPATH), in a UTF-8 xterm."""
        self.run(
            "-f", "/dev/null", "new-session", "-d", "-s", self.session,
            "-x", str(cols), "-y", str(rows), "-e", f"PYTHONPATH={root}",
            "-e", "TERM=xterm-256color", "-e", "LANG=C.UTF-8", "-c", str(root), command,
        )  # fmt: skip

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.session)

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.session, *keys)

    def wait_for(self, cond: Callable[[str], bool], timeout: float = 15.0) -> str:
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end:
            text = self.screen()
            if cond(text):
                return text
            time.sleep(0.05)
        raise AssertionError("timed out; screen:\n" + text)

    def alive(self) -> bool:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "list-panes", "-t", self.session], capture_output=True
        )
        return done.returncode == 0

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        # The server's socket file stays behind unless removed (tmux's default place).
        base = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
        (base / self.socket).unlink(missing_ok=True)


@contextmanager
def private_tmux(session: str) -> Iterator[Tmux]:
    t = Tmux(session)
    try:
        yield t
    finally:
        t.close()
