"""What each laptop keeps of an evening, read back as ``sorry-lan games`` reads it, and
whether the laptops agree (issue 32: one truth of the evening).

A laptop's data directory holds the journals of the tables it hosted (``journals/``)
and the records its client filed (``played/``, ``net/played``).  :func:`seen` reads
one back into what the listing, ``--stats``, ``--export``/``replay`` and the
end-of-game figures show of each finished game (:class:`Row`); :func:`differ` sets
laptops side by side; :func:`tally` counts, for the simulator's report, the laptops x
games that disagree with the others.  It changes nothing in an evening: it reads
what the laptops kept once the evening is over.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sorry_lan.authority.journal_format import encode, frame
from sorry_lan.client.figures import count
from sorry_lan.net.journal import SUFFIX
from sorry_lan.net.kept import listed_games, record_of
from sorry_lan.net.played import PlayedStore
from sorry_lan.net.saved import SavedGame
from sorry_lan.net.scoreboard import scoreboard

if TYPE_CHECKING:
    from .evening import Evening


def write_journal(path: Path, records: list[dict[str, Any]]) -> None:
    """``records`` as a journal file (checksummed lines, as ``net/journal`` writes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    chain: int | None = 0
    out = bytearray()
    for record in records:
        line, chain = frame(encode(record), chain)
        out += line
    path.write_bytes(bytes(out))


@dataclass(frozen=True)
class Row:
    """A finished game as a laptop lists and counts it, and its record's figures."""

    key: tuple[Any, ...]  # the table, the start and the players listed
    number: int
    first: str
    turns: int  # the record's turn entries, table events included
    moves: int
    from_one: bool  # the record's turns are numbered from 1 up
    figures: tuple[tuple[int, int, int, int], ...]
    winners: tuple[str, ...]
    started: bool  # STARTED and TOOK are shown
    seconds: bool

    @property
    def whole(self) -> bool:
        return self.from_one and self.started and self.seconds


@dataclass
class Seen:
    listed: list[SavedGame]
    rows: list[Row]
    stats: list[dict[str, Any]]


def seen(root: Path) -> Seen:
    """What the data directory ``root`` shows of its finished games."""
    games, notes = listed_games(root / "journals", root / "played")
    assert not notes, notes
    rows = []
    for g in games:
        for p in g.games:
            if not p.over:
                continue
            record = record_of(g, p.number)
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
    once, the same games with the same figures, whole, the same scoreboard."""
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
            if not row.whole:
                out.append(f"{name}: game {row.number} is not whole: {row}")
    return out


@dataclass(frozen=True)
class Agreement:
    """An evening's laptops x games, and how many of them disagree with the rest (a
    game listed twice, missing, not whole, other figures, or another scoreboard)."""

    laptops: int
    pairs: int
    disagree: int
    texts: tuple[str, ...] = ()


def tally(ev: Evening) -> Agreement:
    """Set the laptops of ``ev`` that learned the end of its game side by side: each
    files the records its client was sent and writes the journals of the (honest)
    hosts it ran, in a directory of its own; a (laptop, game) disagrees when its row
    is not the one most laptops show, or not whole, or its scoreboard is not theirs."""
    laps = [lap for lap in ev.laptops if lap.alive and lap.model.over is not None]
    with tempfile.TemporaryDirectory(prefix="sim-kept-") as tmp:
        views: dict[str, Seen] = {}
        for lap in laps:
            root = Path(tmp) / lap.name
            store = PlayedStore(root / "played")
            for record in lap.filed:
                store.save(record)
            mine = [h for h in ev.hosts if h.lap is lap and not h.rogue]
            for n, host in enumerate(mine, 1):
                name = f"n{n:06d}-20260921-141320-{lap.n}{SUFFIX}"
                write_journal(root / "journals" / name, list(host.journal))
            views[lap.name] = seen(root)
    if not views:
        return Agreement(0, 0, 0)
    common: dict[int, Counter[Row]] = {}
    for view in views.values():
        for row in view.rows:
            common.setdefault(row.number, Counter())[row] += 1
    stats = Counter(repr(v.stats) for v in views.values()).most_common(1)[0][0]
    pairs = disagree = 0
    texts = []
    for name, view in views.items():
        for number, rows in sorted(common.items()):
            pairs += 1
            want = rows.most_common(1)[0][0]
            got = [r for r in view.rows if r.number == number]
            if got != [want] or not want.whole or repr(view.stats) != stats:
                disagree += 1
                texts.append(f"{name} game {number}: {got} (most: {want})")
    return Agreement(len(views), pairs, disagree, tuple(texts))
