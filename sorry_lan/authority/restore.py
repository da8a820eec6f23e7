"""A table's game rebuilt from its journal's records: :func:`replay` gives a ``Restored``.

The engine is deterministic from its seed and the moves chosen, so replaying a
journal's ``game`` record and the moves after it restores the same deck order, the
same turn and the same hands; ``seat`` records rebind seats (``cover`` and ``back``,
a bot playing for an away person and their return, are only checked), ``chat``
records give back what was said and an ``end`` mark says the table was closed on purpose (the
records are described in ``sorry_lan.net.journal``).  Every move is checked against
the engine, and a record that disagrees or is malformed raises :class:`BadRecord`,
naming it.

This module reads records that were already read from a file (``journal_format``
turns bytes into records, ``sorry_lan.net.journal`` reads the file); it does not
decide which saved game to resume, nor build the table (``Table.restore`` does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sorry_lan.codes import JournalFailure
from sorry_lan.rules import Game, Variant

from .journal_format import JournalError
from .table import Restored


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
        if rec.get("k") == "game":
            start = i
            games += 1
    if start is None:
        return None
    out = _start(records[start], start, games)
    out.history = [dict(rec) for rec in records[start:] if rec.get("k") != "end"]
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
            else:
                raise BadRecord(i, f"unknown journal record {kind!r}")
        except (KeyError, TypeError, ValueError) as exc:
            raise BadRecord(i, f"a malformed {kind} record: {_field(exc)}") from None
    return out


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
