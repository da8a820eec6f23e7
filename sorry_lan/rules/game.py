"""Whole turns: draw, offer the legal moves, apply the chosen one, draw again after a 2,
lose the turn, pass to the next player, end the game.

A :class:`Game` is deterministic given its seed and the moves chosen, so replaying a
journal of choices restores a game exactly.  It reports what happened as plain event
values (see ``events.py``) for the network layer to send; it does no I/O and does not
decide what a seat may see (``view.py`` does).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

from sorry_lan.errors import SorryLanError

from .board import HOME, NUM_PAWNS
from .cards import Card, Deck
from .events import (
    CardDrawn,
    DrawAgain,
    Event,
    GameOver,
    MovePlayed,
    Reshuffled,
    TurnLost,
    TurnStarted,
)
from .movegen import generate
from .moves import Move, MoveContext, MoveKind
from .variants import Variant, all_home, check_seating

MAX_IDLE_DRAWS = 10_000


class Phase(StrEnum):
    """Where a table is in its life: seats being taken, a game under way, the game won
    (a rematch goes back to the lobby).  The value is the word a table's network
    advert carries."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


def hand_moves(pawns: Sequence[int], hand: Sequence[Card], ctx: MoveContext) -> list[Move]:
    """Play for points: the legal moves of each card kind in ``hand`` (in card order),
    and a discard of each kind when no move other than an 11 swap is possible."""
    kinds = sorted(set(hand))
    moves: list[Move] = []
    for card in kinds:
        moves += generate(pawns, card, ctx)
    if all(m.kind == MoveKind.SWAP for m in moves):
        moves += [Move(MoveKind.DISCARD, card, (), ()) for card in kinds]
    return moves


class IllegalMoveError(SorryLanError, ValueError):
    """The move offered is not one of the legal moves of the current state."""


class GameOverError(SorryLanError, RuntimeError):
    """The game has ended; no more moves are taken."""


class Game:
    """One game of Sorry!: the layout, the deck, hands, whose turn, and the card in play.

    Start it with :meth:`start`, then alternate :meth:`legal_moves` and :meth:`play`
    until :attr:`winner` is set.  Each call returns the events it caused.

    :attr:`state_id` names each decision; it starts at ``first_sid`` and only grows
    (by one per decision, lost turns included), so a table can number the states of
    all its games in one sequence.
    """

    def __init__(
        self,
        variant: Variant = Variant.STANDARD,
        seated: Sequence[int] = (0, 2),
        seed: int | None = None,
        first: int | None = None,
        first_sid: int = 0,
    ) -> None:
        check_seating(variant, seated)
        self.variant = variant
        self.rules = variant.rules  # its hooks, looked up once
        self.seated: tuple[int, ...] = tuple(sorted(seated))
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.rng = random.Random(self.seed)
        self.deck = Deck(rng=self.rng)
        drawn_first = self.rng.choice(self.seated)  # always drawn: same deck either way
        if first is None:
            first = drawn_first
        elif first not in self.seated:
            raise ValueError("the first player must be seated")
        self.first = first
        self.pawns: tuple[int, ...] = self.rules.initial_pawns(self.seated)
        self.hands: dict[int, list[Card]] = {}
        self.turn = first
        self.card: Card | None = None
        self.after_two = False
        self.turn_number = 0
        self.first_sid = first_sid  # a table numbers states on across its games
        self.state_id = first_sid
        self.moves_played = 0
        self.winner: int | None = None
        self.final_scores: dict[int, int] = {}
        self._moves: list[Move] | None = None
        self._started = False
        self._idle_draws = 0
        self._contexts: dict[tuple[int, bool, bool], MoveContext] = {}

    # -- queries ---------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning colours: one, or a team of two; empty while the game goes on."""
        if self.winner is None:
            return ()
        return self.rules.winners(self.winner)

    def legal_moves(self) -> list[Move]:
        """The legal moves for the decision in hand (cached until the state changes)."""
        if self._moves is None:
            if not self._started or self.winner is not None:
                self._moves = []
            elif self.rules.deals_hands:
                self._moves = self._hand_moves()
            else:
                assert self.card is not None
                self._moves = generate(self.pawns, self.card, self._context())
        return self._moves

    def move_for(self, compact: Sequence[int]) -> Move:
        """The legal move with this compact form; :class:`IllegalMoveError` if none."""
        want = tuple(compact)
        for move in self.legal_moves():
            if move.compact() == want:
                return move
        raise IllegalMoveError(f"not a legal move now: {list(want)}")

    def scores(self) -> dict[int, int]:
        return self.rules.scores(self.pawns, self.seated, self.winner)

    # -- turn flow ---------------------------------------------------------------

    def start(self) -> list[Event]:
        """Deal (play for points) and begin the first turn."""
        if self._started:
            raise RuntimeError("the game has already started")
        self._started = True
        events: list[Event] = []
        if self.rules.deals_hands:
            for _ in range(self.rules.hand_size):
                for c in self._order_from(self.first):
                    self.hands.setdefault(c, []).append(self._draw(events, c, private=True))
        self._begin_turn(events)
        return events

    def play(self, move: Move) -> list[Event]:
        """Apply ``move`` (which must be legal now) and run the game on to the next decision."""
        if self.winner is not None:
            raise GameOverError("the game is over")
        if not self._started:
            raise RuntimeError("the game has not started")
        if move not in self.legal_moves():
            raise IllegalMoveError(f"not a legal move now: {move.notation()}")
        events: list[Event] = []
        player = self.turn
        card = move.card
        self.moves_played += 1
        if self.rules.deals_hands:
            self.hands[player].remove(card)
        else:
            self.card = None
        self.deck.discard(card)
        self.pawns = move.result(self.pawns)
        events.append(MovePlayed(player, move))
        self._idle_draws = 0
        won = None
        for _pawn, _before, after in move.changes:
            if after == HOME:  # only a pawn reaching HOME can end the game
                won = self.rules.winner(self.pawns, self.seated)
                break
        if won is not None:
            self._finish(events, won)
            return events
        if self.rules.deals_hands:
            self.hands[player].append(self._draw(events, player, private=True))
        if card == Card.TWO and move.kind != MoveKind.DISCARD:
            events.append(DrawAgain(player))
            self.after_two = True
            self._decide(events)
        else:
            self._next_player(events)
        return events

    def play_compact(self, compact: Sequence[int]) -> list[Event]:
        return self.play(self.move_for(compact))

    def resume(
        self,
        *,
        deck: Deck,
        pawns: Sequence[int],
        turn: int,
        card: Card | None,
        after_two: bool,
        hands: dict[int, list[Card]],
        state_id: int,
        moves_played: int = 0,
    ) -> None:
        """Put this game, not started, at a decision of a game already under way (or
        just won): the piles, the layout, whose turn, the card in play or the hands, and
        the state id.  ``rules.midgame`` builds the arguments from a position and
        checks them; this only installs them, as :meth:`start` would have."""
        if self._started:
            raise RuntimeError("the game has already started")
        self._started = True
        self.deck = deck
        self.rng = deck.rng
        self.pawns = tuple(pawns)
        self.hands = hands
        self.turn = turn
        self.card = card
        self.after_two = after_two
        self.turn_number = 1
        self.state_id = state_id
        self.moves_played = moves_played
        self._moves = None
        won = self.rules.winner(self.pawns, self.seated)
        if won is not None:
            self.winner = won
            self._moves = []
            self.final_scores = self.scores()

    def forget_moves(self) -> None:
        """The hands changed outside a move (``rules.midgame``): list the moves again."""
        self._moves = None

    # -- internals ---------------------------------------------------------------

    def _order_from(self, first: int) -> list[int]:
        i = self.seated.index(first)
        return list(self.seated[i:] + self.seated[:i])

    def _draw(self, events: list[Event], player: int, private: bool) -> Card:
        before = self.deck.reshuffles
        card = self.deck.draw()
        if self.deck.reshuffles != before:
            events.append(Reshuffled(len(self.deck.pile) + 1))
        events.append(CardDrawn(player, card, private))
        return card

    def _begin_turn(self, events: list[Event]) -> None:
        self._start_turn(events)
        self._decide(events)

    def _start_turn(self, events: list[Event]) -> None:
        self.turn_number += 1
        self.after_two = False
        events.append(TurnStarted(self.turn, self.turn_number))

    def _next_player(self, events: list[Event]) -> None:
        self._pass_turn(events)
        self._decide(events)

    def _pass_turn(self, events: list[Event]) -> None:
        i = self.seated.index(self.turn)
        self.turn = self.seated[(i + 1) % len(self.seated)]
        self._start_turn(events)

    def _decide(self, events: list[Event]) -> None:
        """Draw until the player to move has a choice to make (or the game is stuck).

        Lost turns are a loop here, not recursion, so any run of them is safe.
        """
        self.state_id += 1
        self._moves = None
        if self.rules.deals_hands:
            return  # a hand always offers a choice: a move or a discard
        while True:
            card = self._draw(events, self.turn, private=False)
            self.card = card
            self._moves = None
            if self.legal_moves():
                return
            self._idle_draws += 1
            if self._idle_draws > MAX_IDLE_DRAWS:
                raise RuntimeError("no legal move for any player over 10000 draws")
            events.append(TurnLost(self.turn, card))
            self.deck.discard(card)
            self.card = None
            if card == Card.TWO:
                events.append(DrawAgain(self.turn))
                self.after_two = True
            else:
                self._pass_turn(events)
            self.state_id += 1

    def _context(self) -> MoveContext:
        """The move context for the player to move (cached: it depends on few facts)."""
        player = self.turn
        done = self.rules.partners and all_home(self.pawns, player)
        key = (player, self.after_two, done)
        ctx = self._contexts.get(key)
        if ctx is None:
            ctx = self._contexts[key] = self.rules.move_context(
                self.pawns, player, self.after_two
            )
        return ctx

    def _hand_moves(self) -> list[Move]:
        return hand_moves(self.pawns, self.hands[self.turn], self._context())

    def _finish(self, events: list[Event], won: int) -> None:
        self.winner = won
        self._moves = []
        self.state_id += 1
        self.final_scores = self.scores()
        events.append(GameOver(won, self.winners, dict(self.final_scores)))

    # -- checks ------------------------------------------------------------------

    def held_cards(self) -> list[Card]:
        """Every card outside the draw and discard piles (hands and the card in play)."""
        held = [card for hand in self.hands.values() for card in hand]
        if self.card is not None:
            held.append(self.card)
        return held

    def check(self) -> None:
        """Raise ``AssertionError`` unless RULES.md section 9 holds; see ``state.py``."""
        from .state import check_invariants

        check_invariants(self.pawns, self.seated, self.deck, self.held_cards())
        assert len(self.pawns) == NUM_PAWNS
