"""What the host tells each seat, built from engine values: snapshots, turns, moves, events.

Everything a seat is sent about a game is built here, from ``rules.view`` (which
already leaves out the draw order and other players' hands) and from the engine
events filtered by ``rules.view.visible_events``.  The functions are pure; they do not
send anything, and they do not decide *who* gets a message (the server does).  What a
client does with the events it is told is ``wire.apply``, not here.

The per-move messages (``events``, ``turn``, ``moves``) are built with the messages'
``trusted`` constructors: their values come from the engine, already in normal form,
so they are not checked field by field again (``tests/authority/test_seat_messages.py`` checks
over whole games that the checking constructors would build exactly the same).
"""

from __future__ import annotations

from collections.abc import Sequence

from sorry_lan.rules import (
    START,
    CardDrawn,
    DrawAgain,
    Event,
    Game,
    GameOver,
    Move,
    MoveKind,
    MovePlayed,
    Part,
    Reshuffled,
    TurnLost,
    Variant,
)
from sorry_lan.rules.board import Colour
from sorry_lan.rules.view import view_for, visible_events
from sorry_lan.wire import messages as m
from sorry_lan.wire import records as r
from sorry_lan.wire.limits import EVENTS_MAX, MOVES_MAX, NOTATION_MAX, SUPPORTED_VERSIONS


def _scores(variant: Variant, scores: dict[int, int]) -> tuple[int, ...] | None:
    """Scores by colour (0 for colours not in play) in play for points; else None."""
    if not variant.rules.scores_points:
        return None
    return tuple(scores.get(c, 0) for c in range(4))


def snapshot(game: Game, seat: int | None, version: int = SUPPORTED_VERSIONS[-1]
             ) -> m.Snapshot:
    """Everything ``seat`` (None: a spectator) may see of ``game`` now, as a connection
    on protocol ``version`` may be told it (version 1 knows no ``discarded``)."""
    v = view_for(game, seat)
    return m.Snapshot(
        sid=v.state_id,
        variant=v.variant,
        you=None if seat is None else Colour(seat),
        colours=tuple(Colour(c) for c in v.seated),
        pawns=v.pawns,
        turn=None if game.over else Colour(v.turn),
        card=v.card,
        hand=v.hand,
        pile=v.draw_pile,
        discards=v.discard_pile,
        top=v.discard_top,
        discarded=v.discard_counts if version >= 2 else None,
        scores=_scores(v.variant, v.scores),
    )


def turn(game: Game, seat: int | None) -> m.Turn:
    """Who is to play and the card drawn; the hand only for the seat that holds it."""
    hand = None
    if game.rules.deals_hands and seat == game.turn:
        hand = tuple(game.hands.get(seat, ()))
    return m.Turn.trusted(
        sid=game.state_id,
        colour=Colour(game.turn),
        card=game.card,
        hand=hand,
        pile=len(game.deck.pile),
    )


def legal_moves(game: Game, timeout: float | None = None) -> m.LegalMoves:
    """The offer for the seat to move: every legal move, numbered in the engine's order."""
    options = tuple(
        r.MoveOption.trusted(i, _clip(mv.notation()), tuple(map(int, mv.compact())))
        for i, mv in enumerate(game.legal_moves())
    )
    secs = None if timeout is None else max(1, min(3600, round(timeout)))
    if not 1 <= len(options) <= MOVES_MAX:  # let the checking constructor say why
        return m.LegalMoves(sid=game.state_id, moves=options, timeout=secs)
    return m.LegalMoves.trusted(sid=game.state_id, moves=options, timeout=secs)


def _clip(text: str) -> str:
    return text if len(text) <= NOTATION_MAX else text[: NOTATION_MAX - 3] + "..."


_MOVE = int(r.EventKind.MOVE)
_SLIDE = int(r.EventKind.SLIDE)
_BUMP = int(r.EventKind.BUMP)
_PLAY = int(r.EventKind.PLAY)
_DISCARD = int(r.EventKind.DISCARD)
_TURN_LOST = int(r.EventKind.TURN_LOST)
_DRAW_AGAIN = int(r.EventKind.DRAW_AGAIN)
_RESHUFFLE = int(r.EventKind.RESHUFFLE)


def move_events(move: Move, player: int) -> list[r.EventTuple]:
    """The wire events for one move, in the order they happen on the board.

    The card first; then each part's MOVE (a part that sends its pawn to START, the
    Sorry!'s victim, is a BUMP), the SLIDE it takes and the BUMPs it causes, each BUMP
    naming where the pawn stood at that moment (a pawn moved by an earlier part of the
    same 7 is bumped from where that part left it).  In a swap and a Sorry! both pawns
    change places at once, so both MOVEs (or the MOVE and the BUMP) come before any
    slide.  Replaying the list over the board before the move gives ``move.result``
    (``tests/wire/test_wire_apply.py`` checks it over thousands of whole games).

    Plain int tuples built from the engine's own move (not checked again here)."""
    card = int(move.card)
    if move.kind == MoveKind.DISCARD:
        return [(_DISCARD, player, card)]
    if move.kind == MoveKind.DECLINE:
        return [(_TURN_LOST, player, card)]
    out: list[r.EventTuple] = [(_PLAY, player, card)]
    at = {pawn: b for pawn, b, _ in move.changes}
    for part in move.parts:
        at.setdefault(part.pawn, part.frm)

    def place(part: Part) -> None:
        if part.to == START:
            out.append((_BUMP, part.pawn, at[part.pawn]))
        else:
            out.append((_MOVE, part.pawn, at[part.pawn], part.to))
        at[part.pawn] = part.to

    def slide_and_bump(part: Part) -> None:
        if at[part.pawn] != part.to:
            return  # bumped meanwhile (a swap partner on the other's slide): no slide
        if part.end != part.to:
            out.append((_SLIDE, part.pawn, part.to, part.end))
            at[part.pawn] = part.end
        for b in part.bumps:
            where = at.get(b, START)
            if where != START:
                out.append((_BUMP, b, where))
                at[b] = START

    if move.kind in (MoveKind.SWAP, MoveKind.SORRY):
        for part in move.parts:
            place(part)
        for part in move.parts:
            slide_and_bump(part)
    else:
        for part in move.parts:
            place(part)
            slide_and_bump(part)
    # Whatever the parts did not say, say it now (none known; the replay test checks).
    for pawn, _b, after in move.changes:
        where = at[pawn]
        if where != after:
            out.append((_BUMP, pawn, where) if after == START else (_MOVE, pawn, where, after))
    return out


def events_messages(game: Game, events: Sequence[Event], seat: int | None) -> list[m.Events]:
    """The ``events`` messages for what ``seat`` may learn of ``events`` (usually one).

    They come out the same for every seat (a card drawn into a hand is never told
    here: it travels in its owner's ``turn``), which lets the host build them once."""
    wire: list[r.EventTuple] = []
    colour: int | None = None
    notation = ""
    for ev in visible_events(list(events), seat):
        if isinstance(ev, MovePlayed):
            colour = ev.player
            notation = _clip(ev.move.notation())
            wire += move_events(ev.move, ev.player)
        elif isinstance(ev, TurnLost):
            colour = colour if colour is not None else ev.player
            wire.append((_TURN_LOST, ev.player, int(ev.card)))
        elif isinstance(ev, DrawAgain):
            wire.append((_DRAW_AGAIN, ev.player))
        elif isinstance(ev, Reshuffled):
            wire.append((_RESHUFFLE, min(ev.cards, 45)))
        elif isinstance(ev, CardDrawn | GameOver):
            pass  # the card drawn travels in ``turn``; the end in ``over``
    return [
        m.Events.trusted(
            sid=game.state_id,
            colour=None if colour is None else Colour(colour),
            notation=notation,
            events=tuple(wire[i : i + EVENTS_MAX]),
        )
        for i in range(0, len(wire), EVENTS_MAX)
    ]


def abandoned(game: Game) -> m.GameOver:
    """``over`` for a game its host ended before anyone won: no winners, and in play
    for points the scores so far."""
    return m.GameOver(sid=game.state_id, winners=(), scores=_scores(game.variant, game.scores()))


def game_over(game: Game) -> m.GameOver:
    return m.GameOver(
        sid=game.state_id,
        winners=tuple(Colour(c) for c in game.winners),
        scores=_scores(game.variant, game.final_scores),
    )
