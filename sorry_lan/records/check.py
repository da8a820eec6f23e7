"""A game record checked by replaying it through the rules engine.

:func:`check` first refuses any field RECORD.md does not allow (``fields.validate``)
and a record without a seed (the game so far, or one another host took over: no one
seed deals it).  Then it rebuilds the game from the record's header (variant, seats,
seed, the first player if it was chosen), refuses a ``first`` that is not who the
deal makes first, and replays its turns in order: each ``move`` must be the turn of
the colour it names, play the card the engine dealt and be one of the legal moves
there (found by its parts), with the notation and effects the engine gives it; each
``lost`` turn and ``reshuffle`` must be the one the engine makes.  Then the record's
result, final board and deck order must be the game's.  The first turn that does not
follow refuses the record (:class:`~sorry_lan.records.RecordError`, naming the turn
from 1 and the reason); a record that follows gives a :class:`Checked`.

It reads a record already loaded (``read.load``); it writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sorry_lan.codes import RecordFailure
from sorry_lan.rules import Colour, Game, Move, Variant

from .entries import (
    FORMAT,
    KIND_WORDS,
    PAWNS,
    PLACES,
    VERSION,
    VERSIONS,
    Entry,
    RecordError,
    board,
    colour_word,
    entries_of,
    move_entry,
    result,
)
from .fields import validate


@dataclass
class Checked:
    """A record that replays: the game at its end, how many turns it has, and where
    every pawn stood after each of them (``boards[n - 1]`` after turn ``n``)."""

    game: Game
    turns: int
    boards: list[tuple[int, ...]]


def _field(record: Mapping[str, Any], key: str, kind: type | tuple[type, ...], path: str) -> Any:
    value = record.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RecordError(RecordFailure.MALFORMED, path=path, field=key)
    return value


def _colour(text: object, path: str, key: str) -> int:
    try:
        return int(Colour.parse(str(text)))
    except ValueError:
        raise RecordError(RecordFailure.MALFORMED, path=path, field=key) from None


def new_game(record: Mapping[str, Any], path: str = "the record") -> Game:
    """The game a record's header describes, not yet started."""
    if record.get("format") != FORMAT:
        raise RecordError(RecordFailure.NOT_RECORD, path=path)
    version = record.get("version")
    if version not in VERSIONS:
        raise RecordError(RecordFailure.VERSION, path=path, version=version, known=VERSION)
    seats = _field(record, "seats", list, path)
    if not all(isinstance(s, dict) for s in seats):
        raise RecordError(RecordFailure.MALFORMED, path=path, field="seats")
    seated = [_colour(s.get("colour"), path, "seats") for s in seats]
    options = _field(record, "options", dict, path)
    first = options.get("first")
    try:
        game = Game(
            Variant.parse(str(_field(record, "variant", str, path))),
            seated,
            seed=_field(record, "seed", int, path),
            first=None if first is None else _colour(first, path, "options"),
        )
    except ValueError:
        raise RecordError(RecordFailure.MALFORMED, path=path, field="seats") from None
    return game


#: Told each decision while a record replays: the turn's number, the game just before
#: the move (as the player to move saw it then, and more), and the move played.
Decided = Callable[[int, Game, Move], None]


def check(record: Mapping[str, Any], path: str = "the record",
          decided: Decided | None = None) -> Checked:
    """Replay ``record``; :class:`RecordError` at its first field RECORD.md does not
    allow (``fields.validate``), for a record without a seed (it cannot be replayed),
    or at the first turn that does not follow.  ``decided`` (if given) is told each
    move before it is played."""
    validate(record, path)
    if record["seed"] is None:
        raise RecordError(RecordFailure.NO_SEED, path=path)
    game = new_game(record, path)
    if record["first"] != colour_word(game.first):
        raise RecordError(RecordFailure.RESULT, part="first")
    turns = _field(record, "turns", list, path)
    draws: list[str] = []
    pending = entries_of(game.start(), draws)
    boards: list[tuple[int, ...]] = []
    n = 0
    for n, entry in enumerate(turns, 1):
        if not isinstance(entry, dict) or entry.get("n") != n:
            raise RecordError(RecordFailure.MALFORMED, path=path, field=f"turns[{n}]")
        kind = entry.get("type")
        given = {k: v for k, v in entry.items() if k != "n"}
        if kind in ("seat", "cover", "back", "chat"):
            pass
        elif pending:
            _same(n, given, pending.pop(0))
        elif kind != "move" or game.over:
            raise RecordError(RecordFailure.DIFFERS, n=n, expected=_expected(game))
        else:
            pending = _play(game, n, given, draws, decided)
        boards.append(game.pawns)
    if pending or (not game.over and record.get("result") is not None):
        raise RecordError(RecordFailure.ENDS_EARLY, n=n)
    if record.get("result") != result(game.winner, game.winners, game.final_scores):
        raise RecordError(RecordFailure.RESULT, part="result")
    if record.get("board") != board(game.pawns, game.seated):
        raise RecordError(RecordFailure.RESULT, part="board")
    if game.over and record.get("deck") != draws:
        raise RecordError(RecordFailure.RESULT, part="deck")
    if not game.over and "deck" in record:
        raise RecordError(RecordFailure.RESULT, part="deck")
    return Checked(game, len(turns), boards)


def _expected(game: Game) -> str:
    if game.over:
        return "the game was over"
    return f"{Colour(game.turn).label} to play"


def _same(n: int, given: Entry, want: Entry) -> None:
    """A lost turn or reshuffle as the engine made it, or the first difference refused."""
    if given == want:
        return
    if given.get("type") == want.get("type") and "who" in want:
        if given.get("who") != want["who"]:
            raise RecordError(RecordFailure.WRONG_PLAYER, n=n, who=given.get("who"),
                              expected=want["who"])  # fmt: skip
        if given.get("card") != want.get("card"):
            raise RecordError(RecordFailure.EDITED_CARD, n=n, card=given.get("card"),
                              expected=want.get("card"))  # fmt: skip
    raise RecordError(RecordFailure.DIFFERS, n=n, expected=_describe(want))


def _describe(entry: Entry) -> str:
    if entry["type"] == "reshuffle":
        return f"a reshuffle of {entry['cards']} cards"
    if entry["type"] == "lost":
        return f"{entry['who']} lost the turn with a {entry['card']}"
    return f"{entry['who']}: {entry['notation']}"


def _play(game: Game, n: int, given: Entry, draws: list[str],
          decided: Decided | None = None) -> list[Entry]:
    """Play the move ``given`` describes; the entries that follow it, until the next
    decision, are returned for the record's next turns to match."""
    who = colour_word(game.turn)
    if given.get("who") != who:
        raise RecordError(RecordFailure.WRONG_PLAYER, n=n, who=given.get("who"), expected=who)
    legal = game.legal_moves()
    held = game.hands[game.turn] if game.rules.deals_hands else [game.card]
    cards = sorted({c.label for c in held if c is not None})
    if given.get("card") not in cards:
        raise RecordError(RecordFailure.EDITED_CARD, n=n, card=given.get("card"),
                          expected=" / ".join(cards))  # fmt: skip
    wanted = _key(given)
    for move in legal:
        if move.card.label != given.get("card") or _move_key(move) != wanted:
            continue
        want = move_entry(game.turn, move)
        if want != given:
            raise RecordError(RecordFailure.EDITED_MOVE, n=n, expected=want["notation"])
        if decided is not None:
            decided(n, game, move)
        return entries_of(game.play(move), draws)[1:]
    raise RecordError(RecordFailure.ILLEGAL, n=n, move=given.get("notation"))


_KINDS = {word: kind for kind, word in KIND_WORDS.items()}


def _key(entry: Entry) -> tuple[object, ...] | None:
    """What picks a move out of the legal ones: its kind and each part's pawn and
    squares (None: parts that name no move)."""
    parts = entry.get("parts")
    if not isinstance(parts, list) or not all(isinstance(p, dict) for p in parts):
        return None
    return (
        _KINDS.get(str(entry.get("kind"))),
        *((p.get("pawn"), p.get("from"), p.get("to")) for p in parts),
    )


def _move_key(move: Move) -> tuple[object, ...]:
    return (
        move.kind,
        *((PAWNS[p.pawn], PLACES[p.frm], PLACES[p.to]) for p in move.parts),
    )
