"""A ``sorry-lan`` command with a pseudo-terminal as its stdin, stdout and stderr, for
the questions it asks only on a terminal (POSIX only)."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time


class Terminal:
    """``python -m sorry_lan *args`` on a pseudo-terminal: read what it shows, type."""

    def __init__(self, *args: str) -> None:
        import pty

        self.fd, child = pty.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sorry_lan", *args],
            stdin=child,
            stdout=child,
            stderr=child,
            close_fds=True,
        )
        os.close(child)
        self.seen = ""

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"never saw {text!r} in {self.seen!r}"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    self.seen += os.read(self.fd, 4096).decode(errors="replace")
                except OSError:  # the child closed the terminal
                    break
        assert text in self.seen, self.seen
        return self.seen

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        os.close(self.fd)
