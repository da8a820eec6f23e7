"""The name this user last joined a table under, kept beside the seat files.

:class:`NameStore` keeps one small file (:data:`NAME_FILE`, mode 0600, written
atomically) in the seats' directory, so that the join screen offers the name used
last rather than the default ("player"), also after a rejoin from a new process.  A
missing, unreadable or invalid file reads as None; a store that cannot be written
loses only that prefill (:meth:`NameStore.keep` returns False).  It keeps no token
and decides no name: the host registers the name a player asks for.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.vocab import NAME

from .filelock import write_private

NAME_FILE = "last-name.txt"


class NameStore:
    """The last name used, in ``directory`` (the seats' directory)."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / NAME_FILE

    def last(self) -> str | None:
        """The name kept, if it is one a host would take."""
        try:
            text = self.path.read_bytes()[:256].decode("utf-8").strip("\n")
        except (OSError, UnicodeDecodeError):
            return None
        try:
            return str(NAME.check(text, "name"))
        except LocalProtocolError:
            return None

    def keep(self, name: str) -> bool:
        """Keep ``name`` for next time (False: it could not be written)."""
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            write_private(self.path, name.encode("utf-8") + b"\n")
            return True
        return False
