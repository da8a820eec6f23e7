"""A table's game rebuilt from its journal's records: :func:`replay` gives a ``Restored``.

The engine is deterministic from its seed and the moves chosen, so replaying a
journal's ``game`` record and the moves after it restores the same deck order, the
same turn and the same hands; ``seat`` records rebind seats (``cover`` and ``back``,
a bot playing for an away person and their return, are only checked), ``chat``
records give back what was said and an ``end`` mark says the table was closed on purpose (the
records are described in ``sorry_lan.net.journal``).  A successor's journal (issue 19)
begins with a ``takeover`` record instead of a ``game`` record: the game is rebuilt at
that position from its seed (``rules.midgame``), ``reveal`` records give back the hands
players revealed to it, and moves follow as usual; a journal that ends in ``moved``
was handed on (:func:`moved_to` says to whom) and is not resumed.  Every move is checked against
the engine, and a record that disagrees or is malformed raises :class:`BadRecord`,
naming it.

This module reads records that were already read from a file (``journal_format``
turns bytes into records, ``sorry_lan.net.journal`` reads the file); it does not
decide which saved game to resume, nor build the table (``Table.restore`` does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sorry_lan.codes import JournalFailure
from sorry_lan.rules import Card, Game, Variant
from sorry_lan.rules.midgame import Midgame, MidgameError, rebuild, reveal_hand

from .electorate import Laptop
from .journal_format import JournalError
from .table import Restored

#: The records a game's journal begins with: its own host's start, or a takeover.
STARTS = ("game", "takeover")
_NOT_HISTORY = ("end", "moved", "laptop")


@dataclass(frozen=True)
class Moved:
    """A journal's host handed the table on (or stepped down): seat ``pid`` (``name``)
    hosts it at ``epoch``."""

    epoch: int
    pid: int
    name: str | None


@dataclass(frozen=True)
class TakeoverStart:
    """The takeover a successor's journal began with: the table ``tid``, the epoch it
    took over from and the one it hosts at, each seat's pid by colour, and the seat
    (pid) whose laptop hosts it (None: not known, a headless table's successor
    journalled before the record named it), and the port it hosted on (None: a journal
    from before the record named it)."""

    tid: str
    from_epoch: int
    epoch: int
    pids: dict[int, int]
    seat: int | None = None
    port: int | None = None  # where it hosted (its standby's port), if journalled


class BadRecord(JournalError):
    """A record that does not replay: :attr:`index` is its place in the records."""

    def __init__(self, index: int, text: str) -> None:
        super().__init__(JournalFailure.BAD_RECORD, number=index + 1, text=text)
        self.index = index
        self.text = text


def replay(records: Sequence[Mapping[str, Any]]) -> Restored | None:
    """Rebuild the last game in ``records`` by replaying its moves; None if it has none.

    Every move is checked against the engine: it must answer the recorded state id and
    be legal there.  A record that disagrees or is malformed raises :class:`BadRecord`.
    """
    start = None
    games = 0
    for i, rec in enumerate(records):
        if rec.get("k") in STARTS:
            start = i
            games += 1
            if rec.get("k") == "takeover":  # the game numbers on from the old host's
                games = _games(rec, i)
    if start is None:
        return None
    head = records[start]
    known: dict[int, int] = {}
    if head.get("k") == "takeover":
        out, known = _taken_over(head, start)
    else:
        out = _start(head, start, games)
    out.history = [dict(rec) for rec in records[start:] if rec.get("k") not in _NOT_HISTORY]
    game = out.game
    for i in range(start + 1, len(records)):
        rec = records[i]
        kind = rec.get("k")
        try:
            if kind == "move":
                sid, compact = rec["sid"], rec["m"]
                if sid != game.state_id:
                    raise BadRecord(
                        i, f"move {out.moves + 1} answers state {sid}, the game is at "
                        f"{game.state_id}"
                    )
                try:
                    game.play_compact([int(x) for x in compact])
                except Exception as exc:
                    raise BadRecord(i, f"move {out.moves + 1} does not replay: {exc}") from None
                out.moves += 1
            elif kind == "seat":
                colour = int(rec["colour"])
                if colour not in game.seated:
                    raise BadRecord(i, f"a seat record for colour {colour}, not at the table")
                out.names[colour] = _text(rec["name"])
                token = rec["token"]
                if token is None:
                    out.bots.add(colour)
                    out.tokens.pop(colour, None)
                else:
                    out.bots.discard(colour)
                    out.tokens[colour] = _text(token)
            elif kind in ("cover", "back"):  # a table event: nothing to restore but its check
                if int(rec["colour"]) not in game.seated:
                    raise BadRecord(i, f"a {kind} record for colour {rec['colour']}, "
                                    "not at the table")  # fmt: skip
            elif kind == "chat":
                out.chat.append((int(rec["colour"]), _text(rec["text"])))
            elif kind == "end":
                out.ended = True
            elif kind == "reveal":
                colour = int(rec["colour"])
                if out.moves:
                    raise BadRecord(i, "a hand revealed after the game went on")
                try:
                    hand = [Card(int(c)) for c in rec["hand"]]
                    reveal_hand(game, colour, hand, known)
                except MidgameError as exc:
                    raise BadRecord(i, f"a hand revealed does not fit: {exc}") from None
                known[colour] = len(hand)
            elif kind == "laptop":
                pass  # (where a laptop offered to host: :func:`offers`)
            elif kind == "moved":
                int(rec["epoch"]), int(rec["pid"])  # checked: what it says is moved_to's
            else:
                raise BadRecord(i, f"unknown journal record {kind!r}")
        except (KeyError, TypeError, ValueError) as exc:
            raise BadRecord(i, f"a malformed {kind} record: {_field(exc)}") from None
    return out


def moved_to(records: Sequence[Mapping[str, Any]]) -> Moved | None:
    """Where the table went, if the last record says it moved to another host (a
    journal ending so is not resumed: that host has the game)."""
    if not records or records[-1].get("k") != "moved":
        return None
    rec = records[-1]
    name = rec.get("name")
    try:
        return Moved(int(rec["epoch"]), int(rec["pid"]), None if name is None else _text(name))
    except (KeyError, TypeError, ValueError) as exc:
        raise BadRecord(len(records) - 1, f"a malformed moved record: {_field(exc)}") from None


def offers(records: Sequence[Mapping[str, Any]]) -> list[Laptop]:
    """Where each seat's laptop last offered to host next (``laptop`` records), by pid:
    a resumed host asks them there whether the table moved on without it.  A malformed
    record raises :class:`BadRecord`."""
    found: dict[int, Laptop] = {}
    for i, rec in enumerate(records):
        if rec.get("k") != "laptop":
            continue
        try:
            pid = int(rec["pid"])
            found[pid] = Laptop(pid, tuple(_text(a) for a in rec["addrs"]), int(rec["port"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise BadRecord(i, f"a malformed laptop record: {_field(exc)}") from None
    return list(found.values())


def taken_over(records: Sequence[Mapping[str, Any]]) -> TakeoverStart | None:
    """The takeover the last game in ``records`` began with (None: a game its own host
    began): the table's id, the epoch this journal's host took it at, and each seat's
    pid by colour."""
    start = None
    for i, rec in enumerate(records):
        if rec.get("k") in STARTS:
            start = i
    if start is None or records[start].get("k") != "takeover":
        return None
    rec = records[start]
    try:
        pids = {int(c): int(p) for c, p in dict(rec["pids"]).items()}
        seat, owner, port = rec.get("seat"), rec.get("owner"), rec.get("port")
        if seat is None and owner is not None:  # (the owner's laptop hosts its table)
            seat = pids.get(int(owner))
        return TakeoverStart(
            _text(rec["tid"]), int(rec["from_epoch"]), int(rec["epoch"]), pids,
            None if seat is None else int(seat), None if port is None else int(port),
        )  # fmt: skip
    except (KeyError, TypeError, ValueError) as exc:
        raise BadRecord(start, f"a malformed takeover record: {_field(exc)}") from None


def _taken_over(head: Mapping[str, Any], index: int) -> tuple[Restored, dict[int, int]]:
    """The game a ``takeover`` record starts, rebuilt at its position (and how many
    cards of each hand it knew: a ``reveal`` record may still give back a hand not
    known)."""
    try:
        position = Midgame.from_json(head)
        game = rebuild(position, int(head["seed"]))
        names = {int(c): _text(n) for c, n in dict(head["names"]).items()}
        levels = {int(c): _text(lv) for c, lv in dict(head.get("levels") or {}).items()}
        owner, table, host, started = (head.get(k) for k in ("owner", "table", "host", "t"))
        out = Restored(
            game,
            names,
            {int(c) for c in head["bots"]},
            {int(c): _text(h) for c, h in dict(head["tokens"]).items()},
            owner=None if owner is None else int(owner),
            games=_games(head, index),
            table=None if table is None else _text(table),
            host=None if host is None else _text(host),
            started=None if started is None else float(started),
            levels=levels,
        )
    except MidgameError as exc:
        raise BadRecord(index, f"the takeover's position is not a game's: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise BadRecord(index, f"a malformed takeover record: {_field(exc)}") from None
    return out, position.known()


def _games(head: Mapping[str, Any], index: int) -> int:
    try:
        return int(head["games"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BadRecord(index, f"a malformed takeover record: {_field(exc)}") from None


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not text")
    return value


def _field(exc: Exception) -> str:
    return f"no {exc.args[0]!r} field" if isinstance(exc, KeyError) else str(exc)


def _start(head: Mapping[str, Any], index: int, games: int) -> Restored:
    """The game a ``game`` record starts, dealt and ready for its first move."""
    try:
        variant = Variant.parse(str(head["variant"]))
        seated = tuple(int(c) for c in head["seated"])
        first_arg = head.get("first_arg")
        game = Game(
            variant,
            seated,
            seed=int(head["seed"]),
            first=None if first_arg is None else int(first_arg),
            first_sid=int(head.get("sid0", 0)),
        )
        if game.first != int(head["first"]):
            raise BadRecord(index, "the first player does not follow from the seed")
        names = {int(c): _text(n) for c, n in dict(head["names"]).items()}
        bots = {int(c) for c in head["bots"]}
        levels = {int(c): _text(lv) for c, lv in dict(head.get("levels") or {}).items()}
        tokens = {int(c): _text(h) for c, h in dict(head["tokens"]).items()}
        owner = None if head.get("owner") is None else int(head["owner"])
        table = head.get("table")
        host = head.get("host")
        started = head.get("t")
        out = Restored(
            game,
            names,
            bots,
            tokens,
            owner=owner,
            games=games,
            table=None if table is None else _text(table),
            host=None if host is None else _text(host),
            started=None if started is None else float(started),
            levels=levels,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BadRecord(index, f"a malformed game record: {_field(exc)}") from None
    game.start()
    return out
