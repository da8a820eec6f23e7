"""What each laptop of an in-memory evening keeps, and reads back as ``sorry-lan games``
does: the journals of the tables it hosted (``journals/``) and the records its client
was sent and filed (``played/``, ``net/played``), in a data directory of its own.

:class:`Keeper` files a laptop's records as ``GameClient`` does and writes the
journals of the hosts it ran as ``net/journal`` does; :func:`seen` reads a data
directory back into what the listing, ``--stats``, ``--export``/``replay`` and the
end-of-game figures show, so that two laptops can be set side by side (:func:`differ`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair

from sorry_lan.authority.journal_format import encode, frame
from sorry_lan.client.figures import count
from sorry_lan.client.model import ClientModel
from sorry_lan.net.journal import SUFFIX
from sorry_lan.net.kept import listed_games, record_of
from sorry_lan.net.played import PlayedStore
from sorry_lan.net.saved import SavedGame
from sorry_lan.net.scoreboard import scoreboard


def write_journal(path: Path, records: list[dict[str, Any]]) -> None:
    """``records`` as a journal file (checksummed lines, as ``net/journal`` writes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    chain: int | None = 0
    out = bytearray()
    for record in records:
        line, chain = frame(encode(record), chain)
        out += line
    path.write_bytes(bytes(out))


def journal_of(pair: Pair) -> list[dict[str, Any]]:
    """A host's journal: a successor's begins with its takeover record."""
    return [*pair.table.history[:1], *pair.journal]


@dataclass
class Keeper:
    """One laptop's data directory: the journals it hosted, the games its client filed."""

    root: Path
    hosted: list[Pair] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.store = PlayedStore(self.root / "played")

    def file(self, model: ClientModel) -> None:
        """File the whole games ``model`` was sent since the last call (``GameClient``)."""
        for got in model.take_records():
            self.store.save(got.record)

    def host(self, pair: Pair) -> None:
        self.hosted.append(pair)

    def write(self) -> None:
        for n, pair in enumerate(self.hosted, 1):
            name = f"n{n:06d}-20260921-141320-1{SUFFIX}"
            write_journal(self.root / "journals" / name, journal_of(pair))


@dataclass(frozen=True)
class Row:
    """A finished game as a laptop lists and counts it, and its record's figures."""

    key: tuple[Any, ...]  # what the listing says makes the game
    number: int
    first: str
    turns: int  # the record's turn entries, table events included
    moves: int
    from_one: bool  # the record's turns are numbered from 1 up
    figures: tuple[tuple[int, int, int, int], ...]
    winners: tuple[str, ...]
    started: bool  # STARTED and TOOK are shown
    seconds: bool


@dataclass
class Seen:
    listed: list[SavedGame]
    rows: list[Row]
    stats: list[dict[str, Any]]


def seen(root: Path) -> Seen:
    games, notes = listed_games(root / "journals", root / "played")
    assert not notes, notes
    rows = []
    for g in games:
        for p in g.games:
            if not p.over:
                continue
            record = record_of(g, None if g.kept else p.number)
            turns = record["turns"]
            rows.append(Row(
                key=(g.table, p.started, tuple(p.players)),
                number=p.number,
                first=str(record["first"]),
                turns=len(turns),
                moves=sum(1 for t in turns if t["type"] == "move"),
                from_one=[t["n"] for t in turns] == list(range(1, len(turns) + 1)),
                figures=count(turns).counts,
                winners=tuple(record["result"]["winners"]),
                started=p.started is not None,
                seconds=p.seconds is not None,
            ))  # fmt: skip
    stats = [s.as_json() for s in scoreboard(games)]
    return Seen(games, sorted(rows, key=lambda r: r.number), stats)


def differ(evening: dict[str, Seen]) -> list[str]:
    """What the laptops of ``evening`` (by name) do not agree on: each game listed
    once, the same games with the same figures, the same scoreboard."""
    out = []
    names = list(evening)
    first = evening[names[0]]
    for name in names:
        got = evening[name]
        numbers = [r.number for r in got.rows]
        if len(set(numbers)) != len(numbers):
            out.append(f"{name} lists a game twice: {numbers}")
        if got.rows != first.rows:
            out.append(f"{name} shows {got.rows}, {names[0]} {first.rows}")
        if got.stats != first.stats:
            out.append(f"{name} counts {got.stats}, {names[0]} {first.stats}")
        for row in got.rows:
            if not (row.from_one and row.started and row.seconds):
                out.append(f"{name}: game {row.number} is not whole: {row}")
    return out
