"""Forged claims to host the table (issue 31, case 3), in memory on one fake clock.

A rogue on the LAN (a spectator knows the whole ``succession``: pids, order, epoch)
answers a lost host's laptops with a welcome and a ``succession`` naming a laptop of
the order as its host, at a newer epoch or at the dead host's, from an address of its
own (an mDNS advert points there), at the dead host's address (a reconnection), or
at a laptop's own standby address without ever showing the board.  None of these may
be followed except as SPEC 13 says, and a laptop that followed a host that vanished
before showing the board never deals a fresh game when it takes over.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from test_takeover_in_memory import Lan, Laptop, play, table

from sorry_lan.authority.seat_messages import snapshot
from sorry_lan.authority.takeover import build_table
from sorry_lan.client.model import TableNews
from sorry_lan.succession import election as el
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import Decoder
from sorry_lan.wire.session import HostSession

ROGUE = ("10.0.0.66",)
ROGUE_PORT = 7066


def claim(lap: Laptop, now: float, *, epoch: int, host: int | None,
          attempt: el.TryCandidate | None, table: str | None = None,
          board: m.Snapshot | None = None, ping: bool = False) -> list[TableNews]:
    """A host that is not the table's answers ``lap``'s hello (at ``attempt``, or the
    old host's address when None): a welcome in its own seat, a ``succession`` copied
    from the one ``lap`` knows with ``epoch`` and ``host`` put in, and the lobby; no
    board unless ``board`` (``table``: another table id in it), then a ``ping`` if
    ``ping``, all in one write.  The table news ``lap`` was told."""
    known = lap.model.succession
    lobby = lap.model.lobby
    assert known is not None and lobby is not None and lap.model.token is not None
    lap.model.join(now, attempt=attempt)
    session = HostSession(pin_key=None)
    session.receive_data(lap.model.data_to_send())
    session.welcome(lap.pid, lap.model.token, name=lap.model.name)
    session.send(m.Succession(
        table=known.table if table is None else table, epoch=epoch, host=host,
        delay=known.delay, order=known.order, config=known.config, seats=known.seats, chat=(),
    ))
    if not session.closed:
        session.send(lobby)
        if board is not None:
            session.send(board)
        if ping:
            session.send(m.Ping(n=7))
    before = len(lap.events)
    lap.receive_data(session.data_to_send(), now)
    return [e for e in lap.events[before:] if isinstance(e, TableNews)]


def lose_host() -> tuple[Lan, list[Laptop], float]:
    old, laptops, _own = table()
    lan = Lan(old, laptops)
    lost = old.now
    lan.host_lost(lost + 0.1, laptops)
    return lan, laptops, lost


def test_an_advert_claim_naming_a_laptop_from_another_address_is_refused() -> None:
    """The rogue advertises the table at epoch 2 from its own address and claims to be
    Ann (the first laptop), at epoch 2 or at the dead host's epoch 1: nobody follows,
    not Bob and Cat, and not Ann herself (she has not taken the table over)."""
    for epoch in (2, 1):
        lan, laptops, lost = lose_host()
        ann = laptops[0]
        for lap in laptops:  # the advert comes first: tried first when the walk begins
            assert lap.election.advert(2, ROGUE, ROGUE_PORT, lost + 5) == []
        lan.now = lost + 15
        for lap in laptops:
            attempt = lap.election.tick(lan.now)[0]
            assert isinstance(attempt, el.TryCandidate) and attempt.port == ROGUE_PORT
            news = claim(lap, lan.now, epoch=epoch, host=ann.pid, attempt=attempt)
            decided = lap.model.take_decisions()
            assert [n.kind for n in news] == ["claim_refused"], (epoch, lap.model.name)
            # (nobody but the first host hosts at the first epoch: an old claim)
            stale = el.Claim.OLD_EPOCH if epoch == 1 else el.Claim.OUT_OF_TURN
            assert news[0].claim is stale
            assert any(isinstance(d, el.RefuseHost) for d in decided)
            assert not any(isinstance(d, el.Follow) for d in decided)
            assert lap.model.epoch == 1


def test_a_reconnection_to_the_old_address_naming_another_host_is_refused() -> None:
    """At the dead host's address, a host at the epoch known that names another seat
    as its host is no host this laptop followed: refused, the election goes on."""
    _lan, laptops, lost = lose_host()
    _ann, bob, cat = laptops
    host = bob.model.succession.host if bob.model.succession is not None else None
    news = claim(bob, lost + 2, epoch=1, host=cat.pid, attempt=None)
    assert [n.kind for n in news] == ["claim_refused"]
    assert news[0].claim is el.Claim.OUT_OF_TURN
    assert bob.model.succession is not None and bob.model.succession.host == host
    assert bob.election.phase is not el.Phase.WATCHING


def test_a_refused_claim_shows_nothing_of_the_board_it_sent_with_it() -> None:
    """A rogue advertises the table and claims Ann's seat out of turn, sending in the
    same write the board as it stood a few moves ago: Bob refuses the claim and
    shows, keeps and would host from the board he saw, not the rogue's (simulated
    seed 26: a laptop that kept the rogue's board took over from it, and the moves
    everyone saw since were lost)."""
    lan, laptops, lost = lose_host()
    ann, bob, _cat = laptops
    game = lan.old.table.game
    assert game is not None and bob.model.snapshot is not None
    seen = (bob.model.sid, bob.model.pawns)
    stale = replace(snapshot(game, bob.model.snapshot.you), sid=seen[0] - 3,
                    pawns=tuple(reversed(seen[1])))
    assert bob.election.advert(2, ROGUE, ROGUE_PORT, lost + 5) == []
    attempt = bob.election.tick(lost + 15)[0]
    assert isinstance(attempt, el.TryCandidate) and attempt.port == ROGUE_PORT
    before = len(bob.events)
    news = claim(bob, lost + 15, epoch=2, host=ann.pid, attempt=attempt, board=stale)
    assert [n.claim for n in news] == [el.Claim.OUT_OF_TURN]
    assert not any(isinstance(e, m.Snapshot) for e in bob.events[before:])
    assert (bob.model.sid, bob.model.pawns) == seen
    known = bob.model.knowledge()
    assert known is not None and known.board is not None
    assert (known.board.sid, known.board.pawns) == seen


def test_a_refused_claim_gets_no_pong_for_a_ping_sent_after_it() -> None:
    """A host Bob refuses pings him in the same write as its claim and board: Bob
    answers the error and the bye, never a ``pong``, which would tell that host he
    holds its state and count toward settling it (simulated seed 2115: a cut-off old
    host settled a state from the pong of a laptop that refused it).  A ping from the
    host he follows is still answered."""
    _lan, laptops, lost = lose_host()
    ann, bob, cat = laptops
    assert bob.election.advert(2, ROGUE, ROGUE_PORT, lost + 5) == []
    attempt = bob.election.tick(lost + 15)[0]
    assert isinstance(attempt, el.TryCandidate)
    news = claim(bob, lost + 15, epoch=2, host=ann.pid, attempt=attempt, ping=True)
    assert [n.kind for n in news] == ["claim_refused"]
    told = [type(msg) for msg in Decoder().feed(bob.data_to_send())]
    assert told == [m.Error, m.Bye], told
    cat.model.join(lost + 16, attempt=None)
    host = HostSession(pin_key=None)
    host.receive_data(cat.data_to_send())
    host.welcome(cat.pid, cat.model.token or bytes(16), name=cat.model.name)
    host.send(m.Ping(n=3))
    cat.receive_data(host.data_to_send(), lost + 16)
    answered = host.receive_data(cat.data_to_send())
    assert m.Pong(n=3) in answered


def test_a_host_followed_that_vanishes_before_the_board_leaves_the_board_known() -> None:
    """Bob follows Ann, in turn at epoch 2, who dies before she shows the board: what
    Bob knows still holds the board he saw, and the table he would build from it plays
    on that game (it never deals a fresh one for a game in progress)."""
    lan, laptops, lost = lose_host()
    ann, bob, _cat = laptops
    pawns, sid = bob.model.pawns, bob.model.sid
    lan.tick(lost + 15)  # Bob votes for Ann (busy: she counts votes)
    attempt = next(d for d in bob.election.tick(lan.now + 1) if isinstance(d, el.TryCandidate))
    assert attempt.pid == ann.pid
    news = claim(bob, lan.now, epoch=2, host=ann.pid, attempt=attempt)
    assert [n.kind for n in news] == ["host_changed"]
    assert bob.model.epoch == 2 and bob.model.snapshot is None
    known = bob.model.knowledge()
    assert known is not None and known.board is not None
    assert known.board.pawns == pawns and known.board.sid == sid
    taken = build_table(known, epoch=3, now=lan.now, seed=5)
    assert taken.game is not None and taken.game.state_id == sid
    assert tuple(taken.game.pawns) == tuple(pawns)


def test_a_laptop_that_knows_a_game_is_on_but_not_its_board_never_hosts_it() -> None:
    """Bob reconnects to the host (welcomed again, its succession accepted), which dies
    before it tells the board again: Bob knows a game is in progress but not where it
    stands, so he gives no knowledge to host from (no fresh deal for that game)."""
    _lan, laptops, lost = lose_host()
    bob = laptops[1]
    known = bob.model.succession
    assert known is not None and bob.model.knowledge() is not None
    news = claim(bob, lost + 2, epoch=1, host=known.host, attempt=None)
    assert news == [] and bob.model.connected and bob.model.snapshot is None
    assert bob.model.board_missing and bob.model.knowledge() is None


def test_a_game_taken_alone_under_its_own_table_id_is_never_followed() -> None:
    """Ann played on alone (her person agreed) under a new table id, at epoch 2: Bob,
    whose walk names her, is welcomed at her standby, and does not follow a game that
    is not his table's."""
    lan, laptops, lost = lose_host()
    ann, bob, _cat = laptops
    lan.tick(lost + 15)
    attempt = next(d for d in bob.election.tick(lan.now + 1) if isinstance(d, el.TryCandidate))
    assert attempt.pid == ann.pid
    news = claim(bob, lan.now + 1, epoch=2, host=ann.pid, attempt=attempt, table="a1one9ame")
    assert [n.kind for n in news] == ["claim_refused"]
    assert bob.model.epoch == 1


class RogueLan(Lan):
    """The laptops' network with a rogue on it: its advert's address answers every
    hello with a claim naming Ann at the epoch it advertises (or at the dead host's)."""

    def __init__(self, *args: Any, epoch_of: Callable[[int], int]) -> None:
        super().__init__(*args)
        self.epoch_of = epoch_of
        self.advertised = 1

    def attempt(self, lap: Laptop, attempt: el.TryCandidate) -> None:
        if attempt.port != ROGUE_PORT:
            super().attempt(lap, attempt)
            return
        ann = next(iter(self.laptops.values()))
        claim(lap, self.now, epoch=self.epoch_of(self.advertised), host=ann.pid,
              attempt=attempt)

    def advert(self) -> None:
        self.advertised += 1
        for lap in self.laptops.values():
            if lap.model.election is not None:
                self.carry_out(lap, lap.election.advert(self.advertised, ROGUE, ROGUE_PORT,
                                                        self.now))


@pytest.mark.parametrize("replay", [True, False])
def test_forged_claims_for_96_s_are_never_followed_and_the_game_goes_on(replay: bool) -> None:
    """Case 3 of issue 31: the host dies; a rogue advertises the table at a newer
    epoch every 4 s for 96 s, claiming Ann's seat at the dead host's epoch
    (``replay``) or at the epoch it advertises.  Nobody follows it; Ann takes over by
    votes and the game goes on from the board everyone saw (no fresh deal)."""
    old, laptops, _own = table()
    ann = laptops[0]
    seen = {lap.model.name: (lap.model.sid, lap.model.pawns) for lap in laptops}
    lan = RogueLan(old, laptops, epoch_of=(lambda ep: 1) if replay else (lambda ep: ep))
    lost = old.now
    lan.host_lost(lost + 0.1, laptops)
    while lan.now < lost + 96:
        lan.advert()
        lan.tick(lan.now + 4)
    news = [n for lap in laptops for n in lap.news()]
    assert {n.kind for n in news} <= {"host_changed", "claim_refused"}
    refused = [n for n in news if n.kind == "claim_refused"]
    assert len(refused) == 3  # each tried the advert first when its walk began
    changed = [n for n in news if n.kind == "host_changed"]
    assert len(changed) == 3 and {n.epoch for n in changed} == {2}, changed
    assert list(lan.hosts) == [ann.pid]
    new = lan.hosts[ann.pid]
    for lap in laptops:
        assert lap.model.epoch == 2 and lap.model.connected, lap.model.name
        sid, pawns = seen[lap.model.name]
        assert lap.model.pawns == pawns and lap.model.sid >= sid, lap.model.name
    play(new, laptops)
    assert new.table.game is not None and new.table.game.over
    assert all(lap.model.over is not None for lap in laptops)
