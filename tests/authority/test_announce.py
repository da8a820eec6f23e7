"""Announcer: who is told what about the table, with shared frames where seats agree."""

from __future__ import annotations

from dataclasses import dataclass

from sorry_lan.authority.announce import Announcer, shared
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules import Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import encode


@dataclass(eq=False)
class Listener:
    cid: int
    lobby_revision: int = -1
    protocol: int = 2


Sent = list[tuple[int, m.Message, bytes | None]]


def _announcer(table: Table) -> tuple[Announcer[Listener], Sent]:
    sent: Sent = []

    def send(conn: Listener, msg: m.Message, frame: bytes | None) -> None:
        sent.append((conn.cid, msg, frame))

    return Announcer(table, send), sent


def _kinds(sent: Sent, cid: int) -> list[str]:
    return [type(msg).__name__ for c, msg, _ in sent if c == cid]


def _seated_table(variant: Variant = Variant.STANDARD) -> tuple[Table, Listener, Listener]:
    table = Table(TableConfig(variant=variant, seats=2, seed=11))
    a, _ = table.join(1, "ann")
    table.join(2, "bob")
    table.owner = a.pid
    table.spectate(3)
    return table, Listener(1), Listener(2)


def test_in_the_lobby_the_state_is_the_lobby_alone() -> None:
    table, ann, _bob = _seated_table()
    tell, sent = _announcer(table)
    tell.send_state(ann)
    assert _kinds(sent, 1) == ["Lobby"]
    assert ann.lobby_revision == table.revision
    lobby = sent[0][1]
    assert isinstance(lobby, m.Lobby)
    assert [p.name for p in lobby.players] == ["ann", "bob"] and lobby.spectators == 1
    assert lobby == tell.lobby_message(ann.protocol)  # (hints only from protocol 4 on)


def test_a_started_game_is_told_to_each_seat_and_only_the_mover_gets_the_offer() -> None:
    table, ann, bob = _seated_table()
    watcher = Listener(3)
    table.start(1, 0.0)  # ann (connection 1) owns the table
    game = table.game
    assert game is not None
    tell, sent = _announcer(table)
    tell.begin_game([ann, bob, watcher])
    mover = ann if tell.seat_of(ann) == game.turn else bob
    other = bob if mover is ann else ann
    assert tell.seat_of(watcher) is None
    assert _kinds(sent, mover.cid) == ["Lobby", "Snapshot", "Turn", "LegalMoves"]
    assert _kinds(sent, other.cid) == ["Lobby", "Snapshot", "Turn"]
    assert _kinds(sent, 3) == ["Lobby", "Snapshot", "Turn"]
    snaps = {c: msg for c, msg, _ in sent if isinstance(msg, m.Snapshot)}
    assert snaps[mover.cid].you == tell.seat_of(mover) and snaps[3].you is None
    # the lobby and the public turn are encoded once and the same bytes go to all
    for kind in (m.Lobby, m.Turn):
        frames = {frame for _, msg, frame in sent if isinstance(msg, kind)}
        assert len(frames) == 1 and None not in frames
    sent.clear()
    tell.send_state(other)  # a resync: the same as at the start, for that seat
    assert _kinds(sent, other.cid) == ["Lobby", "Snapshot", "Turn"]


def test_events_go_to_everyone_with_the_same_bytes_then_the_turn() -> None:
    table, ann, bob = _seated_table()
    table.start(1, 0.0)  # ann (connection 1) owns the table
    game = table.game
    assert game is not None
    tell, sent = _announcer(table)
    mover = ann if tell.seat_of(ann) == game.turn else bob
    events = table.play(mover.cid, game.state_id, 0, 1.0)
    tell.events([ann, bob], events)
    for conn in (ann, bob):
        kinds = _kinds(sent, conn.cid)
        assert kinds[0] == "Events" and "Turn" in kinds
    per_conn = {
        c: [frame for cc, msg, frame in sent if cc == c and isinstance(msg, m.Events)]
        for c in (1, 2)
    }
    assert per_conn[1] == per_conn[2] and all(per_conn[1])
    on_turn = ann if tell.seat_of(ann) == game.turn else bob
    assert _kinds(sent, on_turn.cid)[-1] == "LegalMoves"
    sent.clear()
    tell.events([ann, bob], [])  # nothing happened: nothing said
    tell.events([], events)
    assert sent == []


def test_a_hand_travels_only_in_its_owners_turn() -> None:
    table, ann, bob = _seated_table(Variant.POINTS)
    table.start(1, 0.0)  # ann (connection 1) owns the table
    game = table.game
    assert game is not None and game.variant.rules.deals_hands
    tell, sent = _announcer(table)
    tell.begin_game([ann, bob])
    turns = {c: msg for c, msg, _ in sent if isinstance(msg, m.Turn)}
    mover = ann if tell.seat_of(ann) == game.turn else bob
    other = bob if mover is ann else ann
    own, public = turns[mover.cid], turns[other.cid]
    assert isinstance(own, m.Turn) and isinstance(public, m.Turn)
    assert own.hand is not None and public.hand is None


def test_shared_encodes_once() -> None:
    msg = m.Chat(pid=1, text="hi")
    assert shared(msg) == (msg, encode(msg))


def test_after_a_game_ready_says_who_wants_a_rematch() -> None:
    """SPEC, lobby: after a game a player's ``ready`` flag means "wants a rematch"."""
    table, _ann, _bob = _seated_table()
    table.set_ready(2, True)
    table.start(1, 0.0)
    game = table.game
    assert game is not None
    while not game.over:
        mover = table.by_colour(game.turn)
        assert mover is not None and mover.conn is not None
        table.play(mover.conn, game.state_id, 0, 0.0)
    tell, _sent = _announcer(table)
    assert [p.ready for p in tell.lobby_message().players] == [False, False]
    table.ask_rematch(2, 0.0)  # bob (not the owner: no new game yet)
    assert [(p.name, p.ready) for p in tell.lobby_message().players] == [
        ("ann", False), ("bob", True)
    ]
