"""The host core is the authority: refused moves change nothing; nobody learns hidden
cards; host bots fill a team table."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from pair import Pair, RawClient, SessionClient, hello, spectate

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.restore import replay
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules import Variant
from sorry_lan.succession.commitment import hand_matches
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import Decoder
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.records import EventKind
from sorry_lan.wire.vocab import RefuseReason

QUIET = HostOptions(heartbeat=1000.0, dead_after=5000.0)


def _headless(variant: Variant, seats: int, seed: int, bots: int = 0) -> Pair:
    table = Table(TableConfig(variant=variant, seats=seats, auto_start=True, seed=seed))
    for _ in range(bots):
        table.add_bot(None)
    return Pair(table, QUIET)


def state(pair: Pair) -> tuple[object, ...]:
    game = pair.table.game
    assert game is not None
    return (game.state_id, game.pawns, game.turn, game.card, len(game.deck.pile), game.moves_played)


def test_bad_moves_are_refused_with_their_reason_and_change_nothing() -> None:
    pair = _headless(Variant.STANDARD, 2, 11)
    _a, a = pair.connect(RawClient())
    _b, b = pair.connect(RawClient())
    a.send(hello("alice"))
    b.send(hello("bob"))
    pair.pump()
    snap_a = next(x for x in a.inbox if isinstance(x, m.Snapshot))
    mover, other = (a, b) if snap_a.turn == snap_a.you else (b, a)
    offer = next(x for x in mover.inbox if isinstance(x, m.LegalMoves))
    before = state(pair)

    def refused(client: RawClient, move: m.Move) -> ErrorReason:
        client.inbox.clear()
        client.send(move)
        pair.pump()
        (err,) = client.inbox
        assert isinstance(err, m.Error) and not err.fatal
        assert state(pair) == before
        return err.reason

    bad_id = len(offer.moves) + 3
    assert refused(mover, m.Move(sid=offer.sid, id=bad_id)) is ErrorReason.ILLEGAL
    assert refused(other, m.Move(sid=offer.sid, id=0)) is ErrorReason.NOT_YOUR_TURN
    assert refused(mover, m.Move(sid=offer.sid - 1, id=0)) is ErrorReason.STALE
    _s, spectator = pair.connect(RawClient())
    spectator.send(spectate("eve"))
    pair.pump()
    assert any(isinstance(x, m.Snapshot) for x in spectator.inbox)
    # a connection without the seat cannot move for it
    assert refused(spectator, m.Move(sid=offer.sid, id=0)) is ErrorReason.FORBIDDEN

    _cid, intruder = pair.join("mallory", token=os.urandom(16))
    assert intruder.last(m.Refuse).reason is RefuseReason.BAD_TOKEN
    assert state(pair) == before

    # and the right move from the right seat is taken
    mover.inbox.clear()
    mover.send(m.Move(sid=offer.sid, id=0))
    pair.pump()
    assert any(isinstance(x, m.Events) for x in mover.inbox)
    assert state(pair) != before


History = dict[int, tuple[object, dict[int, tuple[object, ...]]]]


def _card_history(records: list[dict[str, object]]) -> History:
    """sid -> (card in play, hands) at every state of the journalled game."""
    seen: History = {}
    moves = [i for i, r in enumerate(records) if r["k"] == "move"]
    for end in [moves[0], *(i + 1 for i in moves)]:
        restored = replay(records[:end])
        assert restored is not None
        game = restored.game
        seen[game.state_id] = (game.card, {c: tuple(h) for c, h in game.hands.items()})
    return seen


@pytest.mark.parametrize("variant", [Variant.POINTS, Variant.STANDARD])
def test_nothing_received_reveals_a_hand_or_a_card_before_its_draw(variant: Variant) -> None:
    pair = _headless(variant, 3, 23)
    clients = [pair.join(f"p{i}")[1] for i in range(3)]
    pair.play_first_moves(clients)
    game = pair.table.game
    assert game is not None and game.over
    history = _card_history(pair.journal)
    tokens = [c.token for c in clients]
    for i, client in enumerate(clients):
        raw = bytes(client.raw)
        for j, token in enumerate(tokens):
            assert token is not None
            assert (token in raw) == (i == j)  # one's own token only
        you = _colour(client)
        checked_hands = commits = 0
        known: Counter[int] = Counter()
        over = False
        told = -1  # the newest state it was told
        for msg in Decoder().feed(raw):
            over = over or isinstance(msg, m.GameOver)
            if isinstance(msg, m.Settled):  # a state it was told already: nothing more
                assert msg.sid <= told
            told = max(told, getattr(msg, "sid", told))
            if isinstance(msg, m.RecordPart):
                assert over, "a game record (its seed and deck) is sent only after over"
            elif isinstance(msg, m.Turn | m.Snapshot):
                card, hands = history[msg.sid]
                assert msg.card == card  # the card in play, never one still in the pile
                if msg.hand is not None:
                    known = Counter(int(c) for c in msg.hand)
                    assert you is not None
                    assert (msg.colour if isinstance(msg, m.Turn) else msg.you) == you
                    assert tuple(msg.hand) == hands[you]
                    checked_hands += 1
            elif isinstance(msg, m.Commit):  # digests: its own salt opens what it knows
                assert not over and you is not None and msg.salt is not None
                assert hand_matches(msg.digests[you], msg.salt, known.elements())
                commits += 1
            else:
                if isinstance(msg, m.Events):
                    for ev in msg.events:  # a card it played is no longer in its hand
                        if ev[0] in (EventKind.PLAY, EventKind.DISCARD) and ev[1] == you:
                            known[ev[2]] -= 1
                allowed = (m.Welcome, m.Lobby, m.Events, m.LegalMoves, m.GameOver, m.Ping,
                           m.Settled)
                assert isinstance(msg, allowed), f"unexpected message {msg.TYPE}"
        if variant is Variant.POINTS:
            assert checked_hands > 0 and commits > 0
        else:
            assert commits == 0


def _colour(client: SessionClient) -> int | None:
    snap = client.last(m.Snapshot)
    return None if snap.you is None else int(snap.you)


def test_team_game_with_host_bots_filling_seats() -> None:
    pair = _headless(Variant.TEAM, 4, 5, bots=3)
    _cid, human = pair.join("only human")
    pair.play_first_moves([human])
    over = human.last(m.GameOver)
    assert len(over.winners) == 2
