"""The games ``sorry-lan games`` lists: this machine's journals, then the games it kept.

A kept game is a record another host sent at game over, filed by a client in the
data directory's ``played/`` (``net/played``).  :func:`kept_game` reads one (bounded,
as any record) into the :class:`~sorry_lan.net.saved.SavedGame` shape the listing,
the scoreboard and ``--export`` use (``kept`` true, one game).  :func:`listed_games`
gives the journals of a directory and then the kept games beside it, newest first,
each game once: a game is named by its table's id and its number there
(:func:`game_key`; a record from before: its seed and start), so a kept copy of a game
this machine also hosted, a successor's journal of a game it took over at game over
and the piece a host journalled before its table moved are one game, listed and
counted from the copy that holds it whole (a game taken over: from its record,
stitched from its hosts'; a journal whose end a successor played again from an
earlier board, as every other laptop keeps it: from the successor's record).
:func:`record_of` is the record of either kind, for ``--export`` and ``replay ID``
(``--game N``: the table's game N).

It writes nothing; a kept file that cannot be read is left out of the listing with
a note (``sorry-lan games`` prints it), like a journal of another user.
"""

from __future__ import annotations

import calendar
import time
from pathlib import Path
from typing import Any

from sorry_lan.authority.journal_format import scan
from sorry_lan.codes import RecordFailure, Said
from sorry_lan.records import MAX_BYTES, RecordError, from_journal, load

from .played import SUFFIX, kept_paths
from .saved import FINISHED, PlayedGame, SavedGame, saved_games


def _time(text: object) -> float | None:
    if not isinstance(text, str):
        return None
    try:
        return float(calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ")))
    except ValueError:
        return None


def read_kept(path: Path) -> dict[str, Any]:
    """The record in ``path`` (a kept game, or any record file), read in bounded
    memory; :class:`RecordError` (one sentence) if none."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise RecordError(RecordFailure.CANNOT_READ, path=path, why=exc.strerror or exc) from None
    return load(data, str(path))


def played_of(record: dict[str, Any], at: int = 0) -> PlayedGame:
    """A game's record as the listing and the scoreboard count it (its number, players,
    winners, moves, start and end, identity); ``KeyError``, ``TypeError``,
    ``ValueError`` or ``AttributeError`` when it is not one."""
    seats = [s for s in record["seats"] if isinstance(s, dict)]
    names = {s["colour"]: str(s["name"]) for s in seats}
    result = record.get("result") or {}
    winners = [names.get(c, str(c)) for c in result.get("winners") or []]
    points = result.get("points") or {}
    variant = str(record["variant"])
    seed, number, tid = record.get("seed"), record.get("game"), record.get("tid")
    hosts = record.get("hosts")
    return PlayedGame(
        number=number if isinstance(number, int) and number > 0 else 1,
        variant=variant,
        players=list(names.values()),
        bots=[str(s["name"]) for s in seats if s.get("player") == "bot"],
        moves=sum(1 for t in record["turns"] if isinstance(t, dict) and t["type"] == "move"),
        winners=winners,
        points=(
            {names.get(c, str(c)): int(n) for c, n in points.items()}
            if variant == "points" else {}
        ),
        started=_time(record.get("started")),
        ended=_time(record.get("ended")),
        seed=seed if isinstance(seed, int) else None,
        tid=tid if isinstance(tid, str) else None,
        hosts=[h.get("host") if isinstance(h, dict) else None
               for h in (hosts if isinstance(hosts, list) else ())],
        at=at,
    )  # fmt: skip


def kept_game(path: Path) -> SavedGame:
    """The kept record in ``path`` as the listing shows a saved game;
    :class:`RecordError` when it cannot be read."""
    record = read_kept(path)
    try:
        game = played_of(record)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise RecordError(RecordFailure.NOT_RECORD, path=path) from None
    table, host = record.get("table"), record.get("host")
    return SavedGame(
        id=path.name.removesuffix(SUFFIX),
        path=path,
        state=FINISHED,
        table=table if isinstance(table, str) else None,
        host=host if isinstance(host, str) else None,
        variant=game.variant,
        players=game.players,
        moves=game.moves,
        started=game.started,
        last_move=game.ended,
        over=game.over,
        games=[game],
        kept=True,
    )


Key = tuple[object, ...]


def game_key(saved: SavedGame, game: PlayedGame) -> Key:
    """What names ``game`` (of ``saved``) on every laptop: its table's id and number.
    A game recorded before they were written: a kept one, its seed and start (as the
    journal of the same game is told); a journal's, its place there."""
    if game.tid is not None:
        return ("table", game.tid, game.number)
    if saved.kept:
        return ("seed", game.seed, game.started)
    return ("journal", saved.id, game.at)


def _rank(saved: SavedGame, game: PlayedGame) -> tuple[object, ...]:
    """Which copy of one game stands for it (the least first): a finished one, then
    one not taken over (a successor's at game over is the same game, without its
    seed), then the host's own journal, then the longest."""
    return (not game.over, len(game.hosts) > 1, saved.kept, -game.moves)


def listed_games(journals: Path, played: Path | None = None) -> tuple[list[SavedGame], list[Said]]:
    """The journals in ``journals`` (newest first, as ``saved_games``), then the games
    kept in ``played`` (default: ``played`` beside ``journals``), newest first, each
    game once: where several copies name one game (:func:`game_key`: a kept copy of a
    game this machine hosted, a successor's journal, the piece a host journalled
    before the table moved) the one :func:`_rank` puts first stands for it, and a game
    another host took over is counted from its whole record.  Also notes about files
    left out."""
    games, notes = saved_games(journals)
    for path in reversed(kept_paths(played if played is not None else journals.parent / "played")):
        try:
            games.append(kept_game(path))
        except RecordError as exc:
            notes.append(exc.said)
    best: dict[Key, tuple[tuple[object, ...], int]] = {}
    for i, saved in enumerate(games):
        for game in saved.games:
            rank = (_rank(saved, game), i)
            key = game_key(saved, game)
            if not saved.kept and game.tid is None and game.seed is not None:
                best[("seed", game.seed, game.started)] = ((), i)  # (a kept copy: its own)
            if key not in best or rank < best[key]:
                best[key] = rank
    for key, (_, i) in list(best.items()):
        later = _went_on(games, i, key)
        if later is not None:
            best[key] = ((), later)
    out: list[SavedGame] = []
    for i, saved in enumerate(games):
        kept = [g for g in saved.games if best[game_key(saved, g)][1] == i]
        if saved.games and not kept:
            continue  # every game of it is listed from another copy
        saved.games = [_whole(saved, g) for g in kept]
        out.append(saved)
    return out, notes


def _went_on(games: list[SavedGame], i: int, key: Key) -> int | None:
    """Where the game ``key``, listed from ``games[i]``, a journal of a game that ended
    at this machine's host, is listed from instead: a copy from a later host of the
    table (a kept record, or this machine's own journal as a later successor: its
    ``hosts`` go on past this one's) that holds as many moves but other turns, the
    one that passed through the most hosts.  That host carried the game on from a
    state before this journal's end (its last states, never settled, were shown to
    nobody else: SPEC 13), so the end every other laptop keeps is the later one's.
    None: this journal stands (a successor that took over at game over holds the
    same turns, without the seed)."""
    saved = games[i]
    mine = [g for g in saved.games if game_key(saved, g) == key]
    if saved.kept or len(mine) != 1 or not mine[0].over:
        return None
    found: tuple[int, int] | None = None  # (hosts, index)
    for j, other in enumerate(games):
        theirs = [g for g in other.games if game_key(other, g) == key]
        if len(theirs) != 1 or len(theirs[0].hosts) <= len(mine[0].hosts) or not theirs[0].over:
            continue
        if found is not None and len(theirs[0].hosts) <= found[0]:
            continue
        try:
            here = record_of(saved, mine[0].number)
            there = record_of(other, theirs[0].number)
        except RecordError:
            continue
        if _moves(there) < _moves(here):
            continue  # (its record began at its takeover: this journal holds more)
        if here.get("turns") != there.get("turns"):
            found = (len(theirs[0].hosts), j)
    return None if found is None else found[1]


def _moves(record: dict[str, Any]) -> int:
    turns = record.get("turns")
    if not isinstance(turns, list):
        return 0
    return sum(1 for t in turns if isinstance(t, dict) and t.get("type") == "move")


def _whole(saved: SavedGame, game: PlayedGame) -> PlayedGame:
    """A journal's game another host took over, counted from its record (stitched from
    the game so far the successor was handed); any other as it is."""
    if saved.kept or not game.moved or not game.over:
        return game
    try:
        return played_of(record_of(saved, game.number), game.at)
    except (RecordError, KeyError, TypeError, ValueError, AttributeError):
        return game


def record_of(game: SavedGame, number: int | None = None, chat: bool = False) -> dict[str, Any]:
    """The record of game ``number`` (None: the last) of a saved table, or the kept
    record (its only game); :class:`RecordError` if there is none."""
    if game.kept:
        if number is not None and all(p.number != number for p in game.games):
            raise RecordError(RecordFailure.NO_GAME, id=game.id, number=number)
        return read_kept(game.path)
    played = game.games if number is None else [p for p in game.games if p.number == number]
    if not played and number is not None:
        raise RecordError(RecordFailure.NO_GAME, id=game.id, number=number)
    at = played[-1].at if played and played[-1].at else None
    try:
        data = game.path.read_bytes()
    except OSError as exc:
        raise RecordError(RecordFailure.CANNOT_READ, path=game.path, why=exc.strerror or exc
                          ) from None  # fmt: skip
    records = scan(data).records  # up to any damage: the intact part is exported
    last = not game.games or played[-1] is game.games[-1]
    ended = game.last_move if game.over and last else None
    return from_journal(records, at, name=game.id, ended=ended, chat=chat)
