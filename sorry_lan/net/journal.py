"""The host's append-only journal: enough to rebuild a table exactly after a crash.

A journal is a text file of JSON lines.  Each line is one record:

* ``{"k": "game", "variant", "seated", "seed", "first", "first_arg", "names", "bots",
  "tokens", "owner"}``
  starts a game (``tokens`` maps a colour to the SHA-256 of that seat's secret token,
  hex; the tokens themselves are never written, yet a seat's owner can still prove
  it holds one);
* ``{"k": "seat", "colour", "name", "token"}`` records a seat (re)bound to a new token
  during a game (a bot seat given to a late human, for instance);
* ``{"k": "move", "sid", "m"}`` is one chosen move: the state id it answered and its
  compact form;
* ``{"k": "end"}`` marks the table closed on purpose (nothing to resume).

The engine is deterministic from its seed and the moves chosen, so :func:`load`
plus :func:`replay` restore the same deck order, the same turn and the same hands.
Each append is flushed and ``fsync``-ed before it returns.  A crash can leave a
half-written last line; :func:`load` drops it (nothing was sent to any player for a
record that was not complete on disk, because the host writes before it sends).

This module does not decide *where* the journal lives beyond :func:`default_dir`,
and it does not talk to players.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sorry_lan.rules import Game, Variant

SUFFIX = ".journal"
DATA_DIR_ENV = "SORRY_LAN_DATA_DIR"


class JournalError(Exception):
    """A journal that cannot be read back into a game (corrupt, or disagreeing with the rules)."""


def default_dir() -> Path:
    """``$SORRY_LAN_DATA_DIR/journals`` if set, else the user's data dir for sorry-lan."""
    base = os.environ.get(DATA_DIR_ENV)
    if not base:
        import platformdirs

        base = platformdirs.user_data_dir("sorry-lan")
    return Path(base) / "journals"


def token_hash(token: bytes) -> str:
    """The hex SHA-256 of a seat token: what the journal keeps instead of the token."""
    return hashlib.sha256(token).hexdigest()


def new_path(directory: Path) -> Path:
    """A fresh journal path in ``directory``; names sort by creation time."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return directory / f"{stamp}-{time.time_ns() % 10**9:09d}-{os.getpid()}{SUFFIX}"


def latest(directory: Path) -> Path | None:
    """The most recent journal in ``directory`` that was not closed on purpose, if any."""
    if not directory.is_dir():
        return None
    for path in sorted(directory.glob(f"*{SUFFIX}"), reverse=True):
        try:
            records = load(path)
        except JournalError:
            continue
        if records and records[-1].get("k") != "end":
            return path
    return None


class Journal:
    """An open journal file, appended to one record at a time (each one fsync-ed)."""

    def __init__(self, path: Path, *, sync: bool = True) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.sync = sync
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags, 0o600)
        self._file = os.fdopen(fd, "ab", buffering=0)
        self._repair_tail()

    def _repair_tail(self) -> None:
        """After a crash the file may end in a half line: cut it so new lines stay whole."""
        size = self.path.stat().st_size
        if size == 0:
            return
        with open(self.path, "rb") as f:
            data = f.read()
        end = data.rfind(b"\n") + 1
        if end != len(data):
            os.truncate(self.path, end)

    def append(self, record: Mapping[str, Any]) -> None:
        line = json.dumps(record, separators=(",", ":"), sort_keys=True).encode() + b"\n"
        self._file.write(line)
        if self.sync:
            os.fsync(self._file.fileno())

    def game(
        self,
        game: Game,
        names: Mapping[int, str],
        bots: Sequence[int],
        tokens: Mapping[int, str],
        owner: int | None = None,
        first_arg: int | None = None,
    ) -> None:
        """Record a game's start.  ``first_arg`` is the ``first`` the game was built
        with (None: drawn from the seed, which also advances the deck's generator)."""
        self.append(
            {
                "k": "game",
                "variant": game.variant.value,
                "seated": list(game.seated),
                "seed": game.seed,
                "first": game.first,
                "first_arg": first_arg,
                "names": {str(c): n for c, n in names.items()},
                "bots": sorted(bots),
                "tokens": {str(c): h for c, h in tokens.items()},
                "owner": owner,
            }
        )

    def move(self, state_id: int, compact: Sequence[int]) -> None:
        self.append({"k": "move", "sid": state_id, "m": [int(x) for x in compact]})

    def seat(self, colour: int, name: str, token: str | None) -> None:
        self.append({"k": "seat", "colour": colour, "name": name, "token": token})

    def flush_to_disk(self) -> None:
        """``fsync`` what was appended (for callers that append with ``sync`` off and
        commit a group of records at once); safe to call from a worker thread."""
        os.fsync(self._file.fileno())

    def end(self) -> None:
        self.append({"k": "end"})

    def close(self) -> None:
        self._file.close()


def load(path: Path) -> list[dict[str, Any]]:
    """The complete records of a journal, in order (a torn last line is dropped)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read journal {path}: {exc.strerror}") from None
    lines = data.split(b"\n")
    records: list[dict[str, Any]] = []
    for i, line in enumerate(lines[:-1]):  # the last piece has no newline: torn or empty
        try:
            rec = json.loads(line)
        except ValueError:
            raise JournalError(f"{path}: line {i + 1} is not valid JSON") from None
        if not isinstance(rec, dict) or not isinstance(rec.get("k"), str):
            raise JournalError(f"{path}: line {i + 1} is not a journal record")
        records.append(rec)
    return records


@dataclass
class Restored:
    """A game rebuilt from a journal, with who sat where."""

    game: Game
    names: dict[int, str]
    bots: set[int]
    tokens: dict[int, str]  # colour -> token hash
    owner: int | None = None  # the colour of the host's own player
    moves: int = 0
    games: int = 0  # how many games the journal holds (rematches included)
    history: list[dict[str, Any]] = field(default_factory=list)


def replay(records: Sequence[Mapping[str, Any]]) -> Restored | None:
    """Rebuild the last game in ``records`` by replaying its moves; None if it has none.

    Every move is checked against the engine: it must answer the recorded state id and
    be legal there.  A journal that disagrees raises :class:`JournalError`.
    """
    start = None
    games = 0
    for i, rec in enumerate(records):
        if rec.get("k") == "game":
            start = i
            games += 1
    if start is None:
        return None
    head = records[start]
    try:
        variant = Variant.parse(str(head["variant"]))
        seated = tuple(int(c) for c in head["seated"])
        first_arg = head.get("first_arg")
        game = Game(
            variant,
            seated,
            seed=int(head["seed"]),
            first=None if first_arg is None else int(first_arg),
        )
        if game.first != int(head["first"]):
            raise JournalError("the journal's first player does not follow from its seed")
        names = {int(c): str(n) for c, n in dict(head["names"]).items()}
        bots = {int(c) for c in head["bots"]}
        tokens = {int(c): str(h) for c, h in dict(head["tokens"]).items()}
        owner = None if head.get("owner") is None else int(head["owner"])
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"bad game record: {exc}") from None
    game.start()
    out = Restored(game, names, bots, tokens, owner=owner, games=games)
    for rec in records[start + 1 :]:
        kind = rec.get("k")
        if kind == "move":
            sid, compact = rec.get("sid"), rec.get("m")
            if sid != game.state_id:
                raise JournalError(
                    f"move {out.moves + 1} answers state {sid}, the game is at {game.state_id}"
                )
            try:
                game.play_compact([int(x) for x in compact])  # type: ignore[union-attr]
            except Exception as exc:
                raise JournalError(f"move {out.moves + 1} does not replay: {exc}") from None
            out.moves += 1
        elif kind == "seat":
            colour = int(rec["colour"])
            out.names[colour] = str(rec["name"])
            token = rec.get("token")
            if token is None:
                out.bots.add(colour)
                out.tokens.pop(colour, None)
            else:
                out.bots.discard(colour)
                out.tokens[colour] = str(token)
        elif kind == "end":
            pass
        else:
            raise JournalError(f"unknown journal record {kind!r}")
    return out
