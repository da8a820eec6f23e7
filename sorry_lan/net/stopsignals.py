"""Ask a running table to stop when the process is told to stop (Ctrl+C, a kill).

:func:`on_stop_signals` arranges for ``stop()`` to run on the event loop when the
process gets SIGINT or SIGTERM (and SIGHUP, its terminal closed, where the system has
it; on Windows, SIGBREAK: Ctrl+Break), so that the
table ends the way the host's own `q` ends it (players told, the journal closed) and
not by an exception somewhere in the middle.

POSIX event loops take signal handlers themselves (``loop.add_signal_handler``).
Windows' loops do not (they raise ``NotImplementedError``), so there the handler is a
plain ``signal.signal`` one that hands ``stop`` to the loop with
``call_soon_threadsafe`` (Python runs signal handlers between bytecodes of the main
thread, which may be in the middle of the loop's own work).  Either way the returned
function puts back what was there before.

It does not decide what stopping means, and it installs nothing outside the main
thread (``signal.signal`` would refuse: the caller is told by ``ValueError``).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable
from types import FrameType

Handler = Callable[[int, FrameType | None], object] | int | None


def stop_signals(platform: str = sys.platform) -> tuple[signal.Signals, ...]:
    """The signals that mean "stop" on ``platform``."""
    signals = [signal.SIGINT, signal.SIGTERM]
    # only Windows' signal module has SIGBREAK; only the others' have SIGHUP
    extra = getattr(signal, "SIGBREAK" if platform == "win32" else "SIGHUP", None)
    if extra is not None:
        signals.append(extra)
    return tuple(signals)


def on_stop_signals(
    loop: asyncio.AbstractEventLoop, stop: Callable[[], None], *,
    platform: str = sys.platform,
) -> Callable[[], None]:
    """Run ``stop()`` on ``loop`` when a stop signal arrives; returns the undo.

    ``platform`` "win32" takes Windows' way (``signal.signal``) whatever the loop
    could do, which is how that branch is tested on other systems."""
    undo: list[Callable[[], None]] = []
    for sig in stop_signals(platform):
        if platform != "win32":
            try:
                loop.add_signal_handler(sig, stop)
            except (NotImplementedError, RuntimeError):
                pass  # a loop without signal support: the plain handler below
            else:
                undo.append(_removal(loop, sig))
                continue
        undo.append(_plain_handler(loop, sig, stop))

    def restore() -> None:
        for step in reversed(undo):
            with contextlib.suppress(ValueError, RuntimeError):
                step()
        undo.clear()  # a second call does nothing

    return restore


def _removal(loop: asyncio.AbstractEventLoop, sig: signal.Signals) -> Callable[[], None]:
    def remove() -> None:
        loop.remove_signal_handler(sig)

    return remove


def _plain_handler(
    loop: asyncio.AbstractEventLoop, sig: signal.Signals, stop: Callable[[], None]
) -> Callable[[], None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(stop)

    before: Handler = signal.signal(sig, handler)

    def put_back() -> None:
        # None: a handler not set from Python; the default is the nearest thing to it
        signal.signal(sig, signal.SIG_DFL if before is None else before)

    return put_back
