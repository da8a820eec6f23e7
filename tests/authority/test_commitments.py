"""In play for points the host commits to every hand each time one changes: every
player on version 4 gets all the digests and its own salt, which opens its own hand
and nobody else's."""

from __future__ import annotations

import itertools
from collections import Counter

from pair import Pair, SessionClient

from sorry_lan.authority.commitments import Commitments
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules import Variant
from sorry_lan.succession.commitment import hand_matches
from sorry_lan.wire import messages as m
from sorry_lan.wire.records import EventKind

QUIET = HostOptions(heartbeat=1000.0, dead_after=5000.0, table_id="tabletest")


def _points(seed: int = 5) -> tuple[Pair, list[SessionClient], SessionClient]:
    table = Table(TableConfig(seats=3, auto_start=True, variant=Variant.POINTS, seed=seed))
    pair = Pair(table, QUIET)
    watcher = pair.join("eve", spectate=True, address="10.0.1.1")[1]
    clients = [pair.join(n, address=f"10.0.0.{i + 2}")[1] for i, n in enumerate("abc")]
    return pair, clients, watcher


def _known_hands(client: SessionClient, colour: int) -> list[tuple[m.Commit, tuple[int, ...]]]:
    """Each ``commit`` ``client`` got, with what it knew of its hand then: the hand last
    told it (``turn``, ``snapshot``) less the cards its colour played since."""
    out = []
    known: Counter[int] = Counter()
    for msg in client.inbox:
        if isinstance(msg, m.Turn | m.Snapshot) and msg.hand is not None:
            known = Counter(int(c) for c in msg.hand)
        elif isinstance(msg, m.Events):
            for ev in msg.events:
                if ev[0] in (EventKind.PLAY, EventKind.DISCARD) and ev[1] == colour:
                    known[ev[2]] -= 1
        elif isinstance(msg, m.Commit):
            out.append((msg, tuple(sorted(known.elements()))))
    return out


def test_every_change_of_a_hand_is_committed_afresh_and_opens_with_ones_own_salt() -> None:
    pair, clients, watcher = _points()
    pair.play_first_moves(clients, rounds=12)
    game = pair.table.game
    assert game is not None
    for client in clients:
        commits = client.all(m.Commit)
        assert len(commits) >= 10
        colour = pair.table.players[client.pid or 0].colour
        for c, hand in _known_hands(client, colour):
            assert c.salt is not None and 4 <= len(hand) <= 5
            assert hand_matches(c.digests[colour], c.salt, hand)
            seated = [d for d in c.digests if d is not None]
            assert len(seated) == 3 and len(set(seated)) == 3
        for a, b in itertools.pairwise(commits):  # a fresh salt and digests each time
            assert a.salt != b.salt and a.digests[colour] != b.digests[colour]
    assert watcher.all(m.Commit) == []  # a spectator holds no hand and never hosts
    # the host keeps the last digests, the ones every player was sent last
    last = clients[0].last(m.Commit)
    assert pair.core.commitments.digests == {
        c: d for c, d in enumerate(last.digests) if d is not None
    }
    assert all(x.last(m.Commit).digests == last.digests for x in clients)


def test_a_player_back_mid_game_gets_its_salt_after_its_state() -> None:
    pair, clients, _w = _points()
    pair.play_first_moves(clients, rounds=3)
    token = clients[1].token
    assert token is not None
    pair.lose(3)  # b's connection
    back = pair.join("b", token=token, address="10.0.0.3")[1]
    kinds = [type(x) for x in back.inbox]
    assert m.Commit in kinds and kinds.index(m.Snapshot) < kinds.index(m.Commit)
    commit = back.last(m.Commit)
    snapshot = back.last(m.Snapshot)
    colour = snapshot.you
    assert colour is not None and snapshot.hand is not None and commit.salt is not None
    assert hand_matches(commit.digests[colour], commit.salt, snapshot.hand)


def test_no_commitment_where_no_hand_is_held() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=5))
    pair = Pair(table, QUIET)
    clients = [pair.join(n, address=f"10.0.0.{i + 2}")[1] for i, n in enumerate("ab")]
    pair.play_first_moves(clients, rounds=6)
    assert not any(c.all(m.Commit) for c in clients)


def test_a_commitment_covers_what_the_owner_knows_of_its_hand() -> None:
    salts = (bytes([i]) * 16 for i in itertools.count(1))
    made = Commitments(salt=lambda: next(salts))
    made.new_game(1)
    made.told(0, [1, 2, 3, 4, 5])
    made.told(2, [7, 8, 10, 11, 12])
    assert made.update(1) and not made.update(2)  # nothing new known
    first = dict(made.digests)
    assert set(first) == {0, 2} and made.sid == 1
    made.played(0, 3)  # red played its 3 and drew a card it has not been told yet
    assert made.known[0] == (1, 2, 4, 5) and made.update(3)
    assert hand_matches(made.digests[0], made.salts[0], (1, 2, 4, 5))
    assert made.digests[2] != first[2]  # every seat's salt is new
    msg = made.message(2)
    assert msg.salt == made.salts[2] and msg.digests[1] is None and msg.digests[3] is None
    assert made.message(None).salt is None
    made.played(1, 5)  # a seat whose owner was never told a hand: nothing known
    for card in (7, 8, 10, 11, 12):
        made.played(2, card)  # a bot played all it knew: nothing left to commit to
    made.update(4)
    assert set(made.digests) == {0}
