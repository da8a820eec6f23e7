"""A tape from what one client was told of a game: read from its table view.

A host that sends no game record (protocol version 2, or a record not arrived) still
told every player each move as ``events``.  The client model folds them once into
the game so far (``client.so_far``: the turn entries a record writes, each with the
board after it); :func:`tape_of` reads that history from the model's
:class:`~sorry_lan.client.view.TableView` as a :class:`~.tape.Tape`, so the replay
screen shows it as it shows a record's.  A history that does not begin at the
game's start (a client that was away, or joined late, or a game whose first turns
were lost in an order nobody was told) gives a tape that says it is not the whole
game (``Tape.whole`` False); an entry of the host's record from before this client
held the board (no board after it) is not a step of it.

Pure and keeps nothing: no I/O, no board, no history of its own.
"""

from __future__ import annotations

from sorry_lan.client.told import entries_of
from sorry_lan.client.view import TableView
from sorry_lan.rules import Colour

from .tape import Step, Tape

__all__ = ["entries_of", "tape_of"]

_COLOURS = {c.label: int(c) for c in Colour}


def tape_of(view: TableView) -> Tape | None:
    """The game ``view`` shows so far, as a tape (None: no game seen)."""
    if not view.seated:
        return None
    history, seated, rules = view.history, view.seated, view.variant.rules
    steps: list[Step] = []
    for entry, pawns in zip(history.entries, history.boards, strict=True):
        if pawns is None:
            continue
        scores = rules.scores(pawns, seated, None) if rules.scores_points else {}
        steps.append(Step(entry, pawns, scores))
    over = view.over
    winners = () if over is None else tuple(int(c) for c in over.winners)
    points: dict[int, int] = {}
    if over is not None and over.scores is not None and rules.scores_points:
        points = {c: s for c, s in enumerate(over.scores) if c in seated}
        if steps:
            steps[-1] = Step(steps[-1].entry, steps[-1].pawns, points)
    whole = history.whole and len(steps) == history.count
    players = () if view.lobby is None else view.lobby.players
    at = [p for p in players if p.colour is not None and int(p.colour) in seated]
    first = history.head.get("first") if whole else None
    return Tape(
        variant=view.variant,
        seated=seated,
        names={int(p.colour): p.name for p in at},  # type: ignore[arg-type]
        bots=frozenset(int(p.colour) for p in at if p.bot),  # type: ignore[arg-type]
        start=history.start,
        steps=tuple(steps),
        first=_COLOURS.get(str(first)) if first is not None else None,
        winners=winners,
        points=points,
        whole=whole,
    )
