"""The games this machine played or watched at other tables: the records their hosts sent.

A host on protocol version 3 sends every player and spectator the game record at game
over (SPEC section 7, ``record``).  A :class:`PlayedStore` files each one in the
user's data directory (``$SORRY_LAN_DATA_DIR/played`` or ``played`` in the platform's
data dir), one JSON file a game in the format of ``protocol/RECORD.md``
(``played-<UTC start>-<digest>.json``; directory 0700, files 0600, written
atomically), and keeps the last :data:`KEPT_MAX` games: filing one more removes the
oldest.  The same game sent twice (a player who came back after it ended, two clients
of one machine at the table) is one file, named from what makes the game: its table,
host, start, seed and first player.

:func:`kept_paths` lists the files, oldest first; ``net/saved`` reads them for
``sorry-lan games``.  Filing never raises: a store that cannot be written loses only
that copy (a log line says why), never the game at the table.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sorry_lan.records import dump

from .filelock import write_private
from .journal import DATA_DIR_ENV

log = logging.getLogger(__name__)

SUFFIX = ".json"
PREFIX = "played-"
#: How many games a machine keeps (about 20 KiB each: a few MiB in all).
KEPT_MAX = 200
_NAME = re.compile(r"played-\d{8}-\d{6}-[0-9a-f]{12}\.json")


def default_played_dir() -> Path:
    """``$SORRY_LAN_DATA_DIR/played`` if set, else ``played`` in the user's data dir."""
    base = os.environ.get(DATA_DIR_ENV)
    if not base:
        import platformdirs

        base = platformdirs.user_data_dir("sorry-lan")
    return Path(base) / "played"


def file_name(record: Mapping[str, Any]) -> str:
    """The file a game's record is kept in: its UTC start, then a digest of what
    makes the game (the same game always gets the same name)."""
    started = str(record.get("started") or "")
    stamp = re.sub(r"\D", "", started)[:14].ljust(14, "0")
    key = [record.get(k) for k in ("table", "host", "started", "seed", "first", "variant")]
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:12]
    return f"{PREFIX}{stamp[:8]}-{stamp[8:]}-{digest}{SUFFIX}"


def kept_paths(directory: Path) -> list[Path]:
    """The kept records in ``directory``, oldest first (by start, as named)."""
    try:
        names = [p for p in directory.iterdir() if _NAME.fullmatch(p.name)]
    except OSError:
        return []
    return sorted(names, key=lambda p: p.name)


class PlayedStore:
    """Where a client files the whole games it is sent; see the module docstring."""

    def __init__(self, directory: Path | None = None, keep: int = KEPT_MAX) -> None:
        self.directory = directory if directory is not None else default_played_dir()
        self.keep = keep

    def save(self, record: Mapping[str, Any]) -> Path | None:
        """File ``record`` (a finished game's); its path, or None when it could not be
        written (logged).  A game already kept is not written again."""
        path = self.directory / file_name(record)
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            if path.exists():
                return path
            write_private(path, dump(record))
        except OSError as exc:
            log.warning("the game's record could not be kept in %s: %s", self.directory,
                        exc.strerror or exc)  # fmt: skip
            return None
        self._trim()
        return path

    def _trim(self) -> None:
        """Remove the oldest games beyond :attr:`keep`."""
        paths = kept_paths(self.directory)
        for old in paths[: max(0, len(paths) - self.keep)]:
            with contextlib.suppress(OSError):
                old.unlink()
