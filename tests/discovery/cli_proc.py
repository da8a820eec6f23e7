"""Test helper: the real `sorry-lan` command as an asyncio subprocess.

Meant to run inside a namespace (see `netns.run_in_loopback_netns`): the
child processes inherit it.  `CliProc.line(pred)` waits for a stdout line;
stderr is collected for failure messages.  Nothing here knows the rules.
The commands keep their data (seats, journals) in a temporary directory of this
test run (``$SORRY_LAN_DATA_DIR``), never in the user's, unless given ``--data-dir``.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from sorry_lan.net.journal import DATA_DIR_ENV

REPO_ROOT = Path(__file__).resolve().parents[2]
_DATA = tempfile.mkdtemp(prefix="sorry-lan-cli-")
_OWNER = os.getpid()


@atexit.register
def _remove_data() -> None:
    if os.getpid() == _OWNER:  # not in a forked child
        shutil.rmtree(_DATA, ignore_errors=True)


class CliProc:
    """One running `python -m sorry_lan ARGS...`; create with `await CliProc.start(...)`."""

    def __init__(self, proc: asyncio.subprocess.Process, label: str) -> None:
        self.proc = proc
        self.label = label
        self.lines: list[str] = []
        self.err: list[str] = []
        self._new = asyncio.Event()
        self._eof = False
        self._readers = [
            asyncio.create_task(self._read(proc.stdout, self.lines, True)),
            asyncio.create_task(self._read(proc.stderr, self.err, False)),
        ]

    @classmethod
    async def start(cls, *args: str, label: str = "") -> CliProc:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "sorry_lan",
            *args,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=REPO_ROOT,
            env={**os.environ, "PYTHONPATH": str(REPO_ROOT), DATA_DIR_ENV: _DATA},
        )
        return cls(proc, label or " ".join(args[:1]))

    async def _read(
        self, stream: asyncio.StreamReader | None, into: list[str], is_stdout: bool
    ) -> None:
        assert stream is not None
        while line := await stream.readline():
            into.append(line.decode("utf-8", "replace").rstrip("\n"))
            self._new.set()
        if is_stdout:
            self._eof = True
            self._new.set()

    def report(self, what: str) -> str:
        return (
            f"{self.label}: {what}\n  stdout: {self.lines}\n"
            f"  stderr: {''.join(x + chr(10) for x in self.err)[-3000:]}"
        )

    async def line(self, pred: Callable[[str], bool], timeout: float = 10.0) -> str:
        """The first stdout line (seen so far or to come) satisfying `pred`."""
        seen = 0
        try:
            async with asyncio.timeout(timeout):
                while True:
                    for text in self.lines[seen:]:
                        if pred(text):
                            return text
                    seen = len(self.lines)
                    if self._eof:
                        raise AssertionError(self.report("exited before a matching line"))
                    self._new.clear()
                    await self._new.wait()
        except TimeoutError:
            raise AssertionError(self.report(f"no matching line within {timeout} s")) from None

    async def finish(self, timeout: float = 20.0) -> int:
        """Wait for the exit and for all output; returns the exit status."""
        try:
            async with asyncio.timeout(timeout):
                await asyncio.gather(*self._readers)
                return await self.proc.wait()
        except TimeoutError:
            raise AssertionError(self.report(f"still running after {timeout} s")) from None

    def signal(self, sig: int) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(sig)

    async def stop(self) -> None:
        """SIGKILL if still running, and reap (for `finally` blocks)."""
        self.signal(signal.SIGKILL)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.proc.wait(), 5)
        for task in self._readers:
            task.cancel()
        await asyncio.gather(*self._readers, return_exceptions=True)


async def run_cli(*args: str, timeout: float = 20.0) -> tuple[int, str, str]:
    """Run `sorry-lan ARGS` to completion: (exit status, stdout, stderr)."""
    proc = await CliProc.start(*args)
    try:
        status = await proc.finish(timeout)
    finally:
        await proc.stop()
    return status, "\n".join(proc.lines), "\n".join(proc.err)
