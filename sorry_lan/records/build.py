"""A game record built from a journal's records (``authority.journal_records`` writes
them): the game's ``game`` record, its ``move`` records replayed through the engine to
learn every card, lost turn and reshuffle, its ``seat``, ``cover`` (a bot playing for
an away person) and ``back`` (their return) records as table events and,
if asked, its ``chat`` records.

A journal holds a table's games one after another (a rematch starts a new ``game``
record); :func:`game_starts` finds them and :func:`from_journal` writes one.  The
deck's order (every card drawn) is written only when the game is over.  Nothing here
reads a file or a clock: the caller gives the records and the end time.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from sorry_lan import __version__
from sorry_lan.bots.base import level_of
from sorry_lan.codes import RecordFailure
from sorry_lan.rules import Card, Game, Variant
from sorry_lan.rules.midgame import Midgame, MidgameError, rebuild, reveal_hand
from sorry_lan.rules.variants import team_of

from .entries import FORMAT, VERSION, Entry, RecordError, board, colour_word, entries_of, result

JournalRecord = Mapping[str, Any]


def game_starts(records: Sequence[JournalRecord]) -> list[int]:
    """Where each game in ``records`` starts (the indexes of its ``game`` records)."""
    return [i for i, rec in enumerate(records) if rec.get("k") in ("game", "takeover")]


def iso(t: float | None) -> str | None:
    """A time as the record writes it: UTC, to the second (None: not known)."""
    return None if t is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def from_journal(
    records: Sequence[JournalRecord],
    number: int | None = None,
    *,
    name: str = "journal",
    ended: float | None = None,
    chat: bool = False,
) -> dict[str, Any]:
    """The record of game ``number`` (from 1; None: the last) in a journal's records.

    ``ended`` is when the game ended (Unix seconds), written if it is over and its
    journal does not say (the move that ended it carries the time since it does); ``chat``
    keeps what was said.  A journal record that does not replay raises
    :class:`RecordError` (``RecordFailure.JOURNAL``, numbered from 1)."""
    starts = game_starts(records)
    if not starts or (number is not None and not 1 <= number <= len(starts)):
        raise RecordError(RecordFailure.NO_GAME, id=name, number=number or 1)
    k = len(starts) - 1 if number is None else number - 1
    first = starts[k]
    stop = starts[k + 1] if k + 1 < len(starts) else len(records)
    head = records[first]
    taken = head.get("k") == "takeover"
    draws: list[str] = []
    try:
        if taken:
            game, record, turns = _taken_over(head)
        else:
            game, record = _header(head)
            turns = entries_of(game.start(), draws)
    except (KeyError, TypeError, ValueError, MidgameError) as exc:
        raise RecordError(RecordFailure.JOURNAL, number=first + 1, why=exc) from None
    known = Midgame.from_json(head).known() if taken else {}
    for i in range(first + 1, stop):
        rec = records[i]
        kind = rec.get("k")
        try:
            if kind == "reveal":
                hand = [Card(int(c)) for c in rec["hand"]]
                reveal_hand(game, int(rec["colour"]), hand, known)
                known[int(rec["colour"])] = len(hand)
            elif kind == "move":
                turns += entries_of(game.play_compact([int(x) for x in rec["m"]]), draws)
            elif kind == "seat":
                turns.append(seat_entry(int(rec["colour"]), str(rec["name"]), rec["token"] is None))
            elif kind == "cover":
                turns.append({"type": "cover", "colour": colour_word(int(rec["colour"])),
                              "strength": str(rec["level"])})  # fmt: skip
            elif kind == "back":
                turns.append({"type": "back", "colour": colour_word(int(rec["colour"])),
                              "name": str(rec["name"])})  # fmt: skip
            elif kind == "chat" and chat:
                turns.append(
                    {"type": "chat", "colour": colour_word(int(rec["colour"])),
                     "text": str(rec["text"])}
                )  # fmt: skip
        except (KeyError, TypeError, ValueError, RuntimeError, MidgameError) as exc:
            raise RecordError(RecordFailure.JOURNAL, number=i + 1, why=exc) from None
    turns = [{"n": n, **entry} for n, entry in enumerate(turns, 1)]
    record = _named(record, identity(records, starts, k))
    recorded = ended_at(records[first:stop])
    record["ended"] = iso(recorded if recorded is not None else ended) if game.over else None
    record["result"] = result(game.winner, game.winners, game.final_scores)
    record["board"] = board(game.pawns, game.seated)
    record["turns"] = turns
    if game.over and not taken:  # a game taken over was dealt from two shuffles
        record["deck"] = draws
    return record


def identity(records: Sequence[JournalRecord], starts: Sequence[int], k: int) -> dict[str, Any]:
    """What names game ``k`` (from 0) of a journal whose games start at ``starts`` on
    every laptop: the table's id (``tid``; None in a journal from before it was
    written), the game's number among the table's (``game``: a successor's takeover
    record says which it took over; a rematch is the next) and the hosts it passed
    through, oldest first (``hosts``: each ``{"epoch", "host"}``, a takeover's from the
    game so far it was handed, else the host it took over from)."""
    number = 0
    for i in starts[: k + 1]:
        games = records[i].get("games")
        taken = records[i].get("k") == "takeover" and isinstance(games, int)
        number = games if taken and isinstance(games, int) else number + 1
    head = records[starts[k]]
    here = {"epoch": _epoch(head.get("epoch")), "host": _text(head.get("host"))}
    if head.get("k") == "takeover":
        seen = head.get("so_far") or {}
        told = seen.get("hosts") if isinstance(seen, Mapping) else None
        before = [
            {"epoch": _epoch(h.get("epoch")), "host": _text(h.get("host"))}
            for h in (told if isinstance(told, list) else ()) if isinstance(h, Mapping)
        ] or [{"epoch": _epoch(head.get("from_epoch")), "host": None}]
        hosts = [*before, here]
    else:
        hosts = [here]
    return {"tid": _text(head.get("tid")), "game": number, "hosts": hosts}


def _epoch(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 1


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _named(record: dict[str, Any], names: dict[str, Any]) -> dict[str, Any]:
    """``record``'s header with the game's identity (:func:`identity`) after its host."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        out[key] = value
        if key == "host":
            out |= names
    return out


def ended_at(records: Sequence[JournalRecord]) -> float | None:
    """When one game's records say it ended (the ``t`` of the move that ended it;
    None in a journal from before it was written)."""
    for rec in reversed(records):
        if rec.get("k") == "move":
            t = rec.get("t")
            return float(t) if isinstance(t, int | float) and not isinstance(t, bool) else None
    return None


def seat_entry(
    colour: int, name: str, bot: bool, key: str = "type", level: str | None = None
) -> Entry:
    """A seat: who holds it, a person or a bot, and the bot's strength: ``level`` as the
    table recorded it, else (a journal from before that) as its name shows it; None
    for a person.  With ``key="type"`` it is a table event in the turns; else a seat
    of the header."""
    entry: Entry = {"type": "seat"} if key == "type" else {}
    entry |= {
        "colour": colour_word(colour),
        "name": name,
        "player": "bot" if bot else "person",
        "strength": (level or level_of(name)) if bot else None,
    }
    return entry


def _taken_over(head: JournalRecord) -> tuple[Game, dict[str, Any], list[Entry]]:
    """The game a successor's ``takeover`` record rebuilds, the record's header and the
    turns before the takeover that it knew (the game so far it was sent, if any): no
    seed, since no one seed deals a game that two hosts shuffled."""
    game = rebuild(Midgame.from_json(head), int(head["seed"]))
    seen = dict(head.get("so_far") or {})
    started = seen.get("started")
    record = _head(
        head, game, seed=None, first=str(seen.get("first") or colour_word(game.first)),
        options=dict(seen.get("options") or {"first": None}),
        started=None if started is None else str(started),
    )  # fmt: skip
    turns = [{k: v for k, v in dict(e).items() if k != "n"} for e in seen.get("turns") or ()]
    return game, record, turns


def _header(head: JournalRecord) -> tuple[Game, dict[str, Any]]:
    variant = Variant.parse(str(head["variant"]))
    seated = tuple(sorted(int(c) for c in head["seated"]))
    first_arg = head.get("first_arg")
    game = Game(
        variant, seated, seed=int(head["seed"]),
        first=None if first_arg is None else int(first_arg),
    )  # fmt: skip
    started = head.get("t")
    record = _head(
        head, game, seed=game.seed, first=colour_word(game.first),
        options={"first": None if first_arg is None else colour_word(int(first_arg))},
        started=iso(None if started is None else float(started)),
    )  # fmt: skip
    return game, record


def _head(
    head: JournalRecord, game: Game, *, seed: int | None, first: str,
    options: dict[str, Any], started: str | None,
) -> dict[str, Any]:
    """A record's header: the game's start record ``head`` names the table and seats."""
    seated = game.seated
    names = {int(c): str(n) for c, n in dict(head["names"]).items()}
    bots = {int(c) for c in head["bots"]}
    levels = {int(c): str(lv) for c, lv in dict(head.get("levels") or {}).items()}
    teams = sorted({team_of(c) for c in seated}) if game.rules.partners else []
    return {
        "format": FORMAT,
        "version": VERSION,
        "program": f"sorry-lan {__version__}",
        "table": head.get("table"),
        "host": head.get("host"),
        "variant": game.variant.value,
        "options": options,
        "seed": seed,
        "first": first,
        "seats": [
            seat_entry(c, names.get(c, colour_word(c)), c in bots, key="colour",
                       level=levels.get(c))
            for c in seated
        ],
        "teams": [[colour_word(a), colour_word(b)] for a, b in teams],
        "started": started,
    }
