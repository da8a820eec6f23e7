"""What a laptop knows of its table, assembled by hand from a host's table and a client
model, for the takeover tests (issue 19): the ``succession`` message the host sends
and the board as the client shows it, the way ``ClientModel.knowledge()`` makes them.

``Watching`` is a client end on a :class:`ClientModel` that keeps what a knowledge
needs and the model does not (whether the decision follows a 2) and every move it was
shown.  Nothing here decides or checks anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sorry_lan.authority.table import Table
from sorry_lan.client.model import ClientEvent, ClientModel
from sorry_lan.rules import Card, Colour
from sorry_lan.succession.commitment import hand_digest
from sorry_lan.succession.knowledge import Board, Knowledge, draws_again
from sorry_lan.wire import messages as m
from sorry_lan.wire.succession import ChatLine, Laptop, SeatRecord, TableSettings

TID = "kitchen7"


class Watching:
    """A client end on ``model`` that remembers each move shown and the draw again."""

    def __init__(self, model: ClientModel) -> None:
        self.model = model
        self.after_two = False
        self.sid = -1
        self.moves: list[tuple[int, str]] = []  # (sid answered, notation) of each move shown
        self.over = 0
        self.errors: list[m.Error] = []

    def receive_data(self, data: bytes, now: float) -> list[ClientEvent]:
        got = self.model.receive_data(data, now)
        for ev in got:
            if isinstance(ev, m.Events):
                self.after_two = draws_again(ev.events, self.after_two)
                if ev.notation:
                    self.moves.append((ev.sid, ev.notation))
            elif isinstance(ev, m.Snapshot) and ev.sid != self.sid:
                self.after_two = False  # a new game (the same sid told again: no news)
            elif isinstance(ev, m.GameOver):
                self.over += 1
            elif isinstance(ev, m.Error):
                self.errors.append(ev)
            self.sid = self.model.sid
        return got

    def data_to_send(self) -> bytes:
        return self.model.data_to_send()


@dataclass
class Commitments:
    """The hand commitments an old host made (a salt per colour), and each seat's hand."""

    salts: dict[int, bytes] = field(default_factory=dict)
    hands: dict[int, tuple[Card, ...]] = field(default_factory=dict)

    def commit(self, table: Table, sid: int) -> m.Commit:
        game = table.game
        assert game is not None
        digests: list[bytes | None] = [None] * 4
        for colour, hand in game.hands.items():
            salt = self.salts.setdefault(colour, bytes([colour + 1]) * 16)
            self.hands[colour] = tuple(hand)
            digests[colour] = hand_digest(salt, hand)
        return m.Commit(sid=sid, digests=tuple(digests), salt=None)


def succession_of(table: Table, *, epoch: int = 1, pin_verifier: bytes | None = None,
                  chat: tuple[ChatLine, ...] = ()) -> m.Succession:  # fmt: skip
    """The ``succession`` message the host of ``table`` sends (every person a laptop)."""
    c = table.config
    people = sorted((p for p in table.players.values() if not p.bot), key=lambda p: p.colour)
    return m.Succession(
        table=TID, epoch=epoch, host=table.owner, delay=15,
        order=tuple(Laptop(p.pid, ("10.0.0.2",), 5000 + p.pid) for p in people),
        config=TableSettings(
            c.title, c.variant, c.seats,
            None if c.turn_timeout is None else round(c.turn_timeout * 1000),
            round(c.grace * 1000), round(c.bot_delay * 1000), c.bot_level,
            None if c.bot_budget is None else round(c.bot_budget * 1000),
            pin_verifier, c.seed is not None, c.auto_start,
        ),
        seats=tuple(
            SeatRecord(p.pid, Colour(p.colour),
                       None if p.bot else bytes.fromhex(p.token_hash or ""),
                       p.level if p.bot else None)
            for p in table.players.values()
        ),
        chat=chat,
    )  # fmt: skip


def knowledge_of(
    table: Table, end: Watching, *, commitments: Commitments | None = None,
    pin_verifier: bytes | None = None, chat: tuple[ChatLine, ...] = (),
    so_far: dict[str, Any] | None = None,
) -> Knowledge:
    """What ``end``'s laptop knows at the table ``table`` hosts (its own hand and the
    commitments from ``commitments``, in play for points)."""
    model = end.model
    assert model.pid is not None and model.token is not None and model.lobby is not None
    board = None
    snap = model.snapshot
    if snap is not None:
        turn = model.turn
        over = model.over is not None
        board = Board(
            snap.variant, model.sid, tuple(int(c) for c in snap.colours), model.pawns,
            int(turn.colour) if turn is not None else int(snap.turn or 0),
            card=None if over or turn is None else turn.card, after_two=end.after_two,
            discarded=model.discarded, pile=turn.pile if turn is not None else snap.pile,
            over=over, winners=() if model.over is None else tuple(model.over.winners),
        )  # fmt: skip
    commit = hand = salt = None
    if commitments is not None and table.game is not None:
        commit = commitments.commit(table, model.sid)
        colour = model.colour
        if colour is not None:
            hand, salt = commitments.hands[colour], commitments.salts[colour]
    return Knowledge(
        succession_of(table, pin_verifier=pin_verifier, chat=chat), model.lobby, model.pid,
        model.token, board=board, hand=hand, salt=salt, commit=commit, chat=chat, so_far=so_far,
        games_played=table.games_played - (1 if table.game is not None else 0),
    )  # fmt: skip
