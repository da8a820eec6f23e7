"""Who holds a journal now: the process and machine of the host that has it open.

A journal's lock (:mod:`sorry_lan.net.filelock`) says only *that* a running host holds
it.  So that a second ``host --resume`` can say *which* one, the host that takes the
lock writes a small note beside the journal (``ID.journal.holder``: its process id and
machine name, JSON) and removes it when it closes the journal.  :func:`read_holder`
reads the note back; it is trusted only while the lock is held (a crashed host leaves
its note behind, and then the journal is not held at all).

It takes no lock and decides nothing: :class:`~sorry_lan.net.journal.Journal` writes
and drops the note, :mod:`sorry_lan.net.saved` reads it for a locked journal.  A note
that cannot be written (a full disk) is simply missing: the holder is then unknown.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
from dataclasses import dataclass
from pathlib import Path

from .filelock import write_private

SUFFIX = ".holder"
_MAX_BYTES = 4096  # a note is a few dozen bytes; anything larger is not ours


@dataclass(frozen=True)
class Holder:
    """The host process that holds a journal: its ``pid`` and ``machine`` name."""

    pid: int
    machine: str


def holder_path(journal: Path) -> Path:
    """Where the note for ``journal`` is kept."""
    return journal.with_name(journal.name + SUFFIX)


def note_holder(journal: Path) -> None:
    """Write this process as the holder of ``journal`` (nothing if it cannot be written)."""
    record = {"pid": os.getpid(), "machine": platform.node()}
    with contextlib.suppress(OSError):
        write_private(holder_path(journal), json.dumps(record).encode("utf-8"))


def drop_holder(journal: Path) -> None:
    """Remove the note this process wrote for ``journal`` (another's is left alone)."""
    found = read_holder(journal)
    if found is not None and found.pid == os.getpid():
        with contextlib.suppress(OSError):
            holder_path(journal).unlink()


def read_holder(journal: Path) -> Holder | None:
    """The holder noted for ``journal``, or None (no note, or not one of ours)."""
    try:
        with open(holder_path(journal), encoding="utf-8") as f:
            raw = json.loads(f.read(_MAX_BYTES))
        pid, machine = raw["pid"], raw["machine"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
        return None
    if not isinstance(machine, str):
        return None
    return Holder(pid, "".join(c for c in machine if c.isprintable())[:64])
