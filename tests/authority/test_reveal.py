"""A successor's host core, in play for points: a player reveals its hand over the wire,
a matching one is kept (and committed to afresh), a forged one is refused by name; a
successor starts at its own epoch, tells it, and takes the old host's PIN key."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heirs import TID, Commitments, knowledge_of
from pair import Pair, SessionClient
from test_takeover_pair import old_table, play

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.takeover import MISMATCH, build_table
from sorry_lan.rules import Card, Variant
from sorry_lan.succession.commitment import hand_matches
from sorry_lan.wire import messages as m
from sorry_lan.wire.auth import pin_key
from sorry_lan.wire.errors import ErrorReason


def _successor(pin: bytes | None = None) -> tuple[Pair, list[SessionClient], Commitments]:
    """Three people play for points; ann's laptop takes the table over at epoch 2 and
    bob and cy come back to it on version 4."""
    old, ends = old_table(Variant.POINTS, 3, 0, seed=5)
    play(old, ends, random.Random(5), until=20)
    promised = Commitments()
    know = knowledge_of(old.table, ends[0], commitments=promised, pin_verifier=pin)
    table = build_table(know, epoch=2, now=0.0, seed=2024, wall=1.79e9)
    new = Pair(table, HostOptions(heartbeat=1000.0, dead_after=5000.0, table_id=TID,
                                  epoch=table.epoch, pin_key=pin))  # fmt: skip
    clients = []
    for end in ends:
        token = end.model.token
        assert token is not None
        clients.append(new.join(end.model.name, token=token)[1])
    return new, clients, promised


def test_a_hand_that_matches_is_kept_and_committed_to_afresh() -> None:
    new, (_ann, bob, _cy), promised = _successor()
    assert bob.last(m.Succession).epoch == 2 and new.core.epoch == 2
    colour = new.table.players[bob.pid or 0].colour
    hand = promised.hands[colour]
    bob.take()
    bob.send(m.Reveal(hand=hand, salt=promised.salts[colour]))
    new.pump()
    assert not bob.all(m.Error)
    game = new.table.game
    assert game is not None and tuple(game.hands[colour]) == hand
    assert tuple(bob.last(m.Snapshot).hand or ()) == hand  # told it as the host holds it
    commit = bob.last(m.Commit)
    assert commit.salt is not None and hand_matches(commit.digests[colour], commit.salt, hand)
    assert [r["colour"] for r in new.journal if r["k"] == "reveal"] == [colour]


def test_a_forged_hand_is_refused_by_name_and_the_fresh_one_stays() -> None:
    new, (_ann, _bob, cy), promised = _successor()
    colour = new.table.players[cy.pid or 0].colour
    game = new.table.game
    assert game is not None
    fresh = list(game.hands[colour])
    cy.take()
    cy.send(m.Reveal(hand=(Card.SORRY,) * 4 + (Card.ONE,), salt=promised.salts[colour]))
    new.pump()
    error = cy.last(m.Error)
    assert (error.reason, error.text, error.fatal) == (ErrorReason.BAD_VALUE, MISMATCH, False)
    assert game.hands[colour] == fresh and not cy.session.closed


def test_a_host_that_dealt_the_hands_has_nothing_to_be_revealed() -> None:
    pair = Pair(None, HostOptions(table_id=TID))
    _a, ann = pair.join("ann")
    ann.send(m.Reveal(hand=(Card.ONE,), salt=bytes(16)))
    pair.pump()
    assert ann.last(m.Error).reason is ErrorReason.UNEXPECTED


def test_a_successor_checks_pins_with_the_old_hosts_key() -> None:
    key = pin_key("2468")
    new, _clients, _promised = _successor(pin=key)
    assert new.core.pin_key == key
    _s, late = new.join("late", spectate=True, pin="2468")
    assert late.all(m.Welcome) and late.last(m.Succession).config.pin_verifier == key
    _w, wrong = new.join("wrong", spectate=True, pin="1111")
    assert not wrong.all(m.Welcome)
