"""The games ``sorry-lan games`` lists: this machine's journals, then the games it kept.

A kept game is a record another host sent at game over, filed by a client in the
data directory's ``played/`` (``net/played``).  :func:`kept_game` reads one (bounded,
as any record) into the :class:`~sorry_lan.net.saved.SavedGame` shape the listing,
the scoreboard and ``--export`` use (``kept`` true, one game).  :func:`listed_games`
gives the journals of a directory and then the kept games beside it, newest first,
leaving out a kept game that one of the journals holds too: the same machine hosted
it and played (or watched) it, and the journal, the host's own, counts once.  A game
is told from another by its seed and start time.  :func:`record_of` is the record of
either kind, for ``--export`` and ``replay ID``.

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


def kept_game(path: Path) -> SavedGame:
    """The kept record in ``path`` as the listing shows a saved game;
    :class:`RecordError` when it cannot be read."""
    record = read_kept(path)
    try:
        seats = [s for s in record["seats"] if isinstance(s, dict)]
        names = {s["colour"]: str(s["name"]) for s in seats}
        result = record.get("result") or {}
        winners = [names.get(c, str(c)) for c in result.get("winners") or []]
        points = result.get("points") or {}
        variant = str(record["variant"])
        seed = record.get("seed")
        game = PlayedGame(
            number=1,
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
        )  # fmt: skip
    except (KeyError, TypeError, ValueError, AttributeError):
        raise RecordError(RecordFailure.NOT_RECORD, path=path) from None
    table, host = record.get("table"), record.get("host")
    return SavedGame(
        id=path.name.removesuffix(SUFFIX),
        path=path,
        state=FINISHED,
        table=table if isinstance(table, str) else None,
        host=host if isinstance(host, str) else None,
        variant=variant,
        players=game.players,
        moves=game.moves,
        started=game.started,
        last_move=game.ended,
        over=game.over,
        games=[game],
        kept=True,
    )


def _key(game: PlayedGame) -> tuple[int | None, float | None]:
    return game.seed, game.started


def listed_games(journals: Path, played: Path | None = None) -> tuple[list[SavedGame], list[Said]]:
    """The journals in ``journals`` (newest first, as ``saved_games``), then the games
    kept in ``played`` (default: ``played`` beside ``journals``), newest first, but
    for those a journal holds too; and notes about files left out."""
    games, notes = saved_games(journals)
    hosted = {_key(p) for g in games for p in g.games if p.seed is not None}
    for path in reversed(kept_paths(played if played is not None else journals.parent / "played")):
        try:
            game = kept_game(path)
        except RecordError as exc:
            notes.append(exc.said)
            continue
        if _key(game.games[0]) not in hosted:
            games.append(game)
    return games, notes


def record_of(game: SavedGame, number: int | None = None, chat: bool = False) -> dict[str, Any]:
    """The record of game ``number`` (None: the last) of a saved table, or the kept
    record (its only game); :class:`RecordError` if there is none."""
    if game.kept:
        if number not in (None, 1):
            raise RecordError(RecordFailure.NO_GAME, id=game.id, number=number)
        return read_kept(game.path)
    try:
        data = game.path.read_bytes()
    except OSError as exc:
        raise RecordError(RecordFailure.CANNOT_READ, path=game.path, why=exc.strerror or exc
                          ) from None  # fmt: skip
    records = scan(data).records  # up to any damage: the intact part is exported
    ended = game.last_move if game.over and number is None else None
    return from_journal(records, number, name=game.id, ended=ended, chat=chat)
