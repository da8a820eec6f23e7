"""The saved games in a journal directory: what each is, which one to resume, salvage.

:func:`saved_games` reads every journal in a directory and describes it
(:class:`SavedGame`: id, table name, variant, players, moves, when it started and
last moved, and its state: ``unfinished``, ``finished``, ``moved`` (its table went on
at another laptop: handed over, or this host stepped down) or ``damaged``, with what is
wrong, and whether a running host holds it, and each of its games as a
:class:`PlayedGame`: a rematch is a game of its own, with its winners, points, players
and how long it took; :func:`hosted_by` says who hosted a game read back).  Journals
are ordered by :func:`journal_order` (a sequence number in the name, the next one
given by :func:`new_journal_path`), never by a clock.  :func:`pick`
decides what ``host --resume`` does with them: resume one, or ask (:class:`Ask`,
with why), and :func:`answered` which one a person's answer chose; :func:`resumable`
says whether the game chosen can be resumed, as it is or salvaged.  :func:`salvage`
keeps a damaged journal's intact records (after copying the damaged file aside) so
that they can be resumed.

It does not ask anyone anything or print (``commands`` do), and it does not open a
journal for writing (:class:`~sorry_lan.net.journal.Journal` does, and takes the
lock).
"""

from __future__ import annotations

import os
import re
import shutil
import time
from dataclasses import dataclass, field
from enum import Enum
from itertools import pairwise
from pathlib import Path
from typing import Any

from sorry_lan.authority.journal_format import scan
from sorry_lan.authority.restore import BadRecord, moved_to, replay
from sorry_lan.authority.table import Restored
from sorry_lan.codes import HostFailure, JournalFailure, Place, Resume, Said
from sorry_lan.records.build import ended_at, game_starts, identity, iso

from .filelock import is_locked
from .holder import Holder, read_holder
from .journal import SUFFIX, JournalError

UNFINISHED = "unfinished"
FINISHED = "finished"
MOVED = "moved"
DAMAGED = "damaged"


@dataclass
class PlayedGame:
    """One game of a journal (a rematch is a game of its own), as the listing shows it."""

    number: int  # from 1: the table's first game, then each rematch
    variant: str
    players: list[str]  # in seat order, as the game ended
    bots: list[str]  # those of ``players`` that are bots
    moves: int = 0
    winners: list[str] = field(default_factory=list)  # the winner, or the winning team
    points: dict[str, int] = field(default_factory=dict)  # the points variant only
    started: float | None = None  # Unix seconds
    ended: float | None = None  # Unix seconds (a rematch: when the next game started)
    seed: int | None = None  # with ``started``, what tells one game from another
    tid: str | None = None  # the table's id: with ``number``, what names the game anywhere
    hosts: list[str | None] = field(default_factory=list)  # the hosts it passed through
    at: int = 0  # its place among its journal's games, from 1 (0: a kept game)

    @property
    def moved(self) -> bool:
        """Another host took the game over (its record is stitched from two or more)."""
        return len(self.hosts) > 1

    @property
    def over(self) -> bool:
        return bool(self.winners)

    @property
    def seconds(self) -> float | None:
        """How long it took, if both ends are known."""
        if self.started is None or self.ended is None:
            return None
        return max(0.0, self.ended - self.started)

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "variant": self.variant,
            "players": self.players,
            "bots": self.bots,
            "moves": self.moves,
            "winners": self.winners,
            "points": self.points,
            "started": iso(self.started),
            "ended": iso(self.ended),
            "seconds": self.seconds,
            "tid": self.tid,
            "hosts": self.hosts,
        }


def played(restored: Restored, number: int, ended: float | None) -> PlayedGame:
    """The game ``restored`` (the table's game ``number``) as the listing shows it;
    ``ended`` is when it ended, written only if it is over."""
    g = restored.game
    names = {c: restored.names.get(c, f"seat {c}") for c in g.seated}
    return PlayedGame(
        number=number,
        variant=g.variant.value,
        players=[names[c] for c in g.seated],
        bots=[names[c] for c in g.seated if c in restored.bots],
        moves=restored.moves,
        winners=[names[c] for c in g.winners],
        points=(
            {names[c]: n for c, n in g.final_scores.items()}
            if g.over and g.variant.rules.scores_points
            else {}
        ),
        started=restored.started,
        ended=ended if g.over else None,
        seed=g.seed,
    )


def earlier_games(records: list[dict[str, Any]]) -> list[PlayedGame]:
    """Every game of a journal's records before its last one (the games a rematch
    followed), oldest first; each ended when its journal says (a journal from before
    that: at the latest, when the next one started)."""
    starts = game_starts(records)
    out: list[PlayedGame] = []
    for n, (first, stop) in enumerate(pairwise(starts), 1):
        try:
            restored = replay(records[first:stop])
        except BadRecord:
            continue
        if restored is None:
            continue
        end = ended_at(records[first:stop])
        out.append(named(
            played(restored, n, _start_time(records[stop]) if end is None else end),
            records, starts, n - 1,
        ))  # fmt: skip
    return out


def named(game: PlayedGame, records: list[dict[str, Any]], starts: list[int], k: int) -> PlayedGame:
    """``game``, game ``k`` (from 0) of a journal, with its identity (the table's id,
    its number among the table's games, the hosts it passed through)."""
    found = identity(records, starts, k)
    game.at = k + 1
    game.number = int(found["game"])
    game.tid = found["tid"]
    game.hosts = [h["host"] for h in found["hosts"]]
    return game


def _start_time(head: dict[str, Any]) -> float | None:
    t = head.get("t")
    return float(t) if isinstance(t, int | float) else None


@dataclass
class SavedGame:
    """One journal, described for people and for ``host --resume``."""

    id: str  # the file name without its suffix
    path: Path
    state: str  # UNFINISHED, FINISHED, MOVED or DAMAGED
    table: str | None = None  # the table's name, if the journal says
    host: str | None = None  # who hosted it, if the journal says
    variant: str | None = None
    players: list[str] = field(default_factory=list)  # in seat order ("bot 1" for bots)
    moves: int = 0
    started: float | None = None  # Unix seconds
    last_move: float | None = None  # the file's last change, Unix seconds
    over: bool = False  # the game ended (an unfinished journal: no end mark yet)
    running: bool = False  # a running host holds the journal now
    holder: Holder | None = None  # running: which process holds it, if it noted itself
    problem: str | None = None  # what is wrong, for a damaged journal
    salvage_bytes: int = 0  # damaged: the length of the intact part worth resuming
    salvage_moves: int = 0  # damaged: the moves in that part
    games: list[PlayedGame] = field(default_factory=list)  # oldest first, rematches apart
    kept: bool = False  # not a journal: a game record another host sent (``net/kept``)
    moved_to: str | None = None  # MOVED: the name of the laptop's player that hosts it now

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "path": str(self.path),
            "state": self.state,
            "table": self.table,
            "host": self.host,
            "variant": self.variant,
            "players": self.players,
            "moves": self.moves,
            "started": iso(self.started),
            "last_move": iso(self.last_move),
            "over": self.over,
            "running": self.running,
            "problem": self.problem,
            "games": [g.as_json() for g in self.games],
            "kept": self.kept,
            "moved_to": self.moved_to,
        }

    def mine(self, name: str) -> bool:
        """Whether ``name`` hosted this game (the table's host, or its owner's seat)."""
        return self.host is not None and self.host.casefold() == name.casefold()


def describe(path: Path) -> SavedGame:
    """Read one journal (all of it, replaying every move) and describe it."""
    game = SavedGame(id=path.name[: -len(SUFFIX)], path=path, state=UNFINISHED)
    try:
        data = path.read_bytes()
        game.last_move = path.stat().st_mtime
    except OSError as exc:
        game.state, game.problem = DAMAGED, f"it cannot be read ({exc.strerror or exc})"
        return game
    game.running = is_locked(path)
    game.holder = read_holder(path) if game.running else None
    found = scan(data)
    records = found.records
    if found.damage is not None:
        line, problem = found.damage
        game.state, game.problem = DAMAGED, f"line {line}: {problem}"
    restored = None
    try:
        restored = replay(records)
    except BadRecord as exc:
        if game.state != DAMAGED:
            game.state, game.problem = DAMAGED, f"line {exc.index + 1}: {exc.text}"
        records = records[: exc.index]
        try:
            restored = replay(records)
        except JournalError:
            restored = None
    if restored is None:
        if game.state != DAMAGED and not records:
            game.state = FINISHED  # nothing was ever recorded (or only a torn first line)
            return game
        if game.state != DAMAGED:
            game.state, game.problem = DAMAGED, "it holds no game"
        return game
    _fill(game, restored)
    game.games = earlier_games(records)
    starts = game_starts(records)
    end = ended_at(records[starts[-1] :]) if starts else None
    last = played(restored, restored.games, game.last_move if end is None else end)
    game.games.append(named(last, records, starts, len(starts) - 1) if starts else last)
    if game.state == DAMAGED:
        game.salvage_moves = restored.moves
        game.salvage_bytes = found.ends[len(records) - 1] if records else 0
    elif restored.ended:
        game.state = FINISHED
    else:
        _moved(game, records, restored)
    return game


def _moved(game: SavedGame, records: list[dict[str, Any]], restored: Restored) -> None:
    """A journal whose table moved to another laptop is not resumed here: say where."""
    try:
        moved = moved_to(records)
    except BadRecord as exc:
        game.state, game.problem = DAMAGED, f"line {exc.index + 1}: {exc.text}"
        return
    if moved is None:
        return
    game.state = MOVED
    game.moved_to = moved.name or f"seat {moved.pid}"


def _fill(game: SavedGame, restored: Restored) -> None:
    g = restored.game
    game.table = restored.table
    game.host = hosted_by(restored)
    game.variant = g.variant.value
    game.players = [restored.names.get(c, f"seat {c}") for c in g.seated]
    game.moves = restored.moves
    game.started = restored.started
    game.over = g.over


def hosted_by(restored: Restored) -> str | None:
    """Who hosted the game read back, if its journal says (journals before ``host``:
    the name in its owner's seat)."""
    if restored.host is not None or restored.owner is None:
        return restored.host
    return restored.names.get(restored.owner)


_SEQUENCE = re.compile(r"n(\d+)-")


def journal_order(gid: str) -> tuple[int, str]:
    """Where the journal ``gid`` stands among the others, oldest first: by the
    sequence number its name starts with (``n000042-...``), which no clock change can
    reorder; names from before sequence numbers come first, by name (their UTC
    creation time)."""
    found = _SEQUENCE.match(gid)
    return (int(found.group(1)), gid) if found else (-1, gid)


def new_journal_path(directory: Path) -> Path:
    """A fresh journal path in ``directory``: the next sequence number after every
    journal there, then (for people) the UTC time and the process id."""
    ids = (path.name.removesuffix(SUFFIX) for path in directory.glob(f"*{SUFFIX}"))
    last = max((journal_order(gid)[0] for gid in ids), default=0)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time()))
    return directory / f"n{max(last, 0) + 1:06d}-{stamp}-{os.getpid()}{SUFFIX}"


def saved_games(directory: Path) -> tuple[list[SavedGame], list[Said]]:
    """The journals in ``directory``, newest first, and notes about files left out
    (journals another user owns are never listed, nor resumed)."""
    if not directory.is_dir():
        return [], []
    games: list[SavedGame] = []
    notes: list[Said] = []
    getuid = getattr(os, "getuid", None)
    paths = directory.glob(f"*{SUFFIX}")
    for path in sorted(paths, key=lambda p: journal_order(p.name[: -len(SUFFIX)]), reverse=True):
        try:
            st = path.lstat()
        except OSError:
            continue
        if getuid is not None and st.st_uid != getuid():
            notes.append(Resume.OTHER_USER(path=path, uid=st.st_uid))
            continue
        if not path.is_file() or path.is_symlink():
            notes.append(Resume.NOT_A_FILE(path=path))
            continue
        game = describe(path)
        if game.state == FINISHED and game.variant is None:
            continue  # a host that never started a game: nothing to list
        games.append(game)
    return games, notes


@dataclass
class Ask:
    """``host --resume`` cannot choose by itself: why (a :class:`~sorry_lan.codes.Resume`
    code with its fields), and the games to choose from."""

    said: Said
    choices: list[SavedGame]

    @property
    def why(self) -> str:
        """Why, in English."""
        return str(self.said)


class NotChosen(JournalError):
    """No saved game answers: ``JournalFailure.NO_ID``, ``AMBIGUOUS``, ``NONE_UNFINISHED``
    or ``BEING_HOSTED``, or ``HostFailure.NOTHING_TO_RESUME`` (only a damaged journal
    with nothing intact) or ``HostFailure.MOVED`` (the newest table moved elsewhere)."""


def being_hosted(game: SavedGame) -> Said:
    """``game`` is being hosted right now: by which process, when its host noted it."""
    held = game.holder
    if held is None:
        return JournalFailure.BEING_HOSTED(id=game.id, holder=Place.HELD_ELSEWHERE())
    who = Place.HELD_BY(pid=held.pid, machine=held.machine)
    return JournalFailure.BEING_HOSTED(id=game.id, holder=who)


def _nothing_to_choose(games: list[SavedGame]) -> NotChosen:
    """Why no game can be offered, when none is unfinished and free, nor salvageable:
    the newest held by a running host, else the newest damaged one (its file, its
    line, and what to do), else there is none."""
    for game in games:
        if game.running and game.state == UNFINISHED:
            return NotChosen(being_hosted(game))
    if games and games[0].state == MOVED:  # the newest table went on elsewhere: say where
        return NotChosen(HostFailure.MOVED(id=games[0].id, name=games[0].moved_to))
    for game in games:
        if game.state == DAMAGED:
            damage = JournalFailure.DAMAGED_AT(path=game.path, problem=game.problem)
            return NotChosen(HostFailure.NOTHING_TO_RESUME(damage=damage, command="sorry-lan host"))
    return NotChosen(JournalFailure.NONE_UNFINISHED)


def find(games: list[SavedGame], wanted: str) -> SavedGame:
    """The game whose id is ``wanted`` (or starts with it, if only one does)."""
    for game in games:
        if game.id == wanted:
            return game
    matches = [g for g in games if g.id.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise NotChosen(JournalFailure.NO_ID, wanted=repr(wanted), command="sorry-lan games --ids")
    raise NotChosen(JournalFailure.AMBIGUOUS, wanted=repr(wanted), n=len(matches))


def pick(games: list[SavedGame], name: str | None) -> SavedGame | Ask:
    """What ``host --resume`` (no id) resumes for the host called ``name``: the one
    unfinished game, if it is theirs and no newer journal is damaged; else :class:`Ask`.

    ``name`` None (the person gave none): the one unfinished game in this machine's
    journals is theirs, whoever is recorded as its host."""
    unfinished = [g for g in games if g.state == UNFINISHED and not g.running]
    damaged = [g for g in games if g.state == DAMAGED]
    choices = unfinished + [g for g in damaged if g.salvage_moves or g.salvage_bytes]
    if not choices:
        raise _nothing_to_choose(games)
    if len(unfinished) == 1:
        only = unfinished[0]
        newer = [g for g in damaged if journal_order(g.id) > journal_order(only.id)]
        if newer:
            bad = newer[0]
            return Ask(Resume.NEWER_DAMAGED(id=bad.id, problem=bad.problem), choices)
        if name is None or only.mine(name):
            return only
        if only.host is None:
            return Ask(Resume.NOBODY_KNOWN(name=name), choices)
        return Ask(Resume.SOMEONE_ELSE(who=only.host, name=name), choices)
    if not unfinished:
        return Ask(Resume.ONLY_DAMAGED(), choices)
    return Ask(Resume.SEVERAL(n=len(unfinished)), choices)


def answered(choices: list[SavedGame], answer: str) -> SavedGame:
    """The game a person chose among ``choices`` by its number (from 1) or its id."""
    if answer.isdigit() and 1 <= int(answer) <= len(choices):
        return choices[int(answer) - 1]
    return find(choices, answer)


class Resumable(Enum):
    """What ``host --resume`` may do with the game chosen."""

    YES = "yes"  # resume it as it is
    SALVAGE = "salvage"  # damaged: resume its intact part, with consent (:func:`salvage`)
    RUNNING = "running"  # no: a running host holds it
    FINISHED = "finished"  # no: there is nothing to resume
    MOVED = "moved"  # no: the table went on at another laptop (join it there)
    NOTHING_INTACT = "nothing-intact"  # no: damaged before anything that could be resumed


def resumable(game: SavedGame) -> Resumable:
    """Whether ``game`` can be resumed, and how (see :class:`Resumable`)."""
    if game.running:
        return Resumable.RUNNING
    if game.state == FINISHED:
        return Resumable.FINISHED
    if game.state == MOVED:
        return Resumable.MOVED
    if game.state != DAMAGED:
        return Resumable.YES
    return Resumable.SALVAGE if game.salvage_bytes else Resumable.NOTHING_INTACT


def salvage(game: SavedGame) -> Path:
    """Cut a damaged journal back to its intact part, after copying the whole file
    aside (returned: ``ID.damaged``); the journal can then be resumed."""
    if game.state != DAMAGED or game.salvage_bytes <= 0:
        raise JournalError(JournalFailure.NO_INTACT_PART, path=game.path)
    copy = game.path.with_name(f"{game.id}.damaged")
    n = 1
    while copy.exists():
        n += 1
        copy = game.path.with_name(f"{game.id}.damaged-{n}")
    shutil.copy2(game.path, copy)
    os.chmod(copy, 0o600)
    with open(game.path, "r+b") as f:
        f.truncate(game.salvage_bytes)
        f.flush()
        os.fsync(f.fileno())
    return copy
