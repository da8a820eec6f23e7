"""A ``sorry-lan`` command with a pseudo-terminal as its stdin, stdout and stderr, for
the questions it asks only on a terminal (POSIX only); and a headless host to ask them at."""

from __future__ import annotations

import contextlib
import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path


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

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        os.close(self.fd)


@contextlib.contextmanager
def headless_host(data_dir: Path, *options: str) -> Iterator[int]:
    """A ``host --headless --no-mdns`` process on loopback with ``options``: its port,
    while it runs (killed afterwards)."""
    host = subprocess.Popen(
        [sys.executable, "-m", "sorry_lan", "host", "--headless", "--no-mdns",
         "--bind", "127.0.0.1", "--port", "0", "--data-dir", str(data_dir), *options],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert host.stdout is not None
        line = host.stdout.readline()
        found = re.search(r"listening on \S+:(\d+)", line)
        assert found, line
        yield int(found.group(1))
    finally:
        host.kill()
        host.communicate()
