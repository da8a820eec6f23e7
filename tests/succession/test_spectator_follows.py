"""Spectators follow the table to its new host (issue 19), in memory on one fake clock.

The table of ``test_takeover_in_memory`` (the host's own player, Ann, Bob and Cat's
laptops) with a spectator, Sam, watching.  The host is lost: Sam walks the same
succession order, waits at Ann's standby (``busy``: a spectator's ``spectate`` is never
a vote, so Ann's count is the laptops' alone), and once Ann hosts, is welcomed there,
follows her and is told who hosts now, with the board it showed; it watches the game
to its end.  A host that hands the table over sends Sam to the laptop it names.  And
when the order's addresses of the successor are stale (its address changed), the
table's advert (mDNS: the table id at the new epoch, on its new address) is how Sam
and a voting laptop find it."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair
from test_takeover_in_memory import D, Lan, Laptop, play, table

from sorry_lan.client.model import ClientModel, TableNews, TableNewsKind
from sorry_lan.succession import election as el


class Watcher(Laptop):
    """A spectator's machine: its client model watches, it offers no standby."""

    def __init__(self, name: str, n: int) -> None:
        super().__init__(name, n)
        self.model = ClientModel(name, spectate=True)


class SpectatedLan(Lan):
    """The laptops' network with spectators in it too; ``moved`` laptops answer only at
    their new address (the order the spectators hold lists the old one)."""

    def __init__(self, old: Pair, laptops: list[Laptop], watchers: list[Watcher]) -> None:
        super().__init__(old, laptops)
        self.watchers = watchers
        self.moved: dict[int, str] = {}  # pid -> its new address
        self.votes_seen: list[int] = []  # what standbys counted, at each spectator's try

    def attempt(self, lap: Laptop, attempt: el.TryCandidate) -> None:
        target = attempt.pid
        if target is None:
            target = next(p for p, x in self.laptops.items() if x.port == attempt.port)
        new = self.moved.get(target)
        if new is not None and new not in attempt.addrs:
            self.carry_out(lap, lap.election.failed(attempt, self.now))
            return
        standby = self.standbys.get(target)
        if lap.model.spectate and standby is not None and target not in self.hosts:
            self.votes_seen.append(standby.votes(self.now))
        super().attempt(lap, attempt)

    def tick(self, until: float, step: float = 0.5) -> None:
        while self.now < until:
            super().tick(self.now + step)
            for w in self.watchers:
                self.carry_out(w, w.election.tick(self.now))


def watched_table() -> tuple[Pair, list[Laptop], Watcher]:
    old, laptops, _own = table()
    sam = Watcher("sam", 9)
    sam.model.join(old.now)
    old.connect(sam, sam.addr)
    old.pump()
    assert sam.model.succession is not None  # spectators are told the succession too
    assert sam.model.election is not None and sam.model.election.me is None
    return old, laptops, sam


def following(lap: Laptop, epoch: int) -> bool:
    """Whether ``lap`` is connected to the host of ``epoch``."""
    return lap.model.epoch == epoch and lap.model.connected


def test_a_spectator_follows_the_table_to_the_laptop_that_takes_it_over() -> None:
    old, laptops, sam = watched_table()
    ann = laptops[0]
    board = (sam.model.sid, sam.model.pawns)
    lan = SpectatedLan(old, laptops, [sam])
    lost = lan.now
    lan.host_lost(lost + 0.1, [*laptops, sam])
    lan.tick(lost + D + 3)
    assert ("ann", el.TakeOver(2)) in lan.log
    assert sam.model.epoch == 2 and sam.model.connected
    assert sam.model.succession is not None and sam.model.succession.host == ann.pid
    assert sam.news()[-1] == TableNews(TableNewsKind.HOST_CHANGED, ann.pid, "ann", 2)
    tries = [d for who, d in lan.log if who == "sam" and isinstance(d, el.TryCandidate)]
    assert tries and all(d.pid == ann.pid for d in tries)  # the order's first laptop
    sid, pawns = board
    assert sam.model.pawns == pawns and sam.model.sid >= sid  # the board it showed
    assert sam.model.snapshot is not None and sam.model.snapshot.you is None  # still watching
    new = lan.hosts[ann.pid]
    play(new, laptops)
    assert new.table.game is not None and new.table.game.over
    assert sam.model.over is not None  # it watched the game to its end


def test_a_spectator_is_never_a_vote() -> None:
    old, laptops, sam = watched_table()
    ann, bob, cat = laptops
    lan = SpectatedLan(old, [ann], [sam])
    lan.dead = {bob.pid, cat.pid}  # only Ann and Sam are left: no quorum
    lost = lan.now
    lan.host_lost(lost + 0.1, (ann, sam))
    lan.now = lost + 0.1
    lan.tick(lost + D + 10)
    assert ("ann", el.OpenStandby(2)) in lan.log
    assert not any(isinstance(d, el.TakeOver) for _, d in lan.log)  # Sam's tries count nothing
    assert lan.votes_seen and set(lan.votes_seen) == {1}
    assert sam.model.epoch == 1 and not sam.model.connected


def test_a_spectator_goes_where_the_host_hands_the_table() -> None:
    old, laptops, sam = watched_table()
    ann, bob, _cat = laptops
    lan = SpectatedLan(old, laptops, [sam])
    old.run(old.core.handover(old.now))
    handed = [n for n in sam.news() if n.kind == "handover"]
    assert handed and handed[-1].pid == ann.pid and not handed[-1].you
    for lap in [*laptops, sam]:  # each carries out what the handover made it decide
        lan.carry_out(lap, [])
    lan.tick(lan.now + 3)
    assert ann.pid in lan.hosts
    assert sam.model.epoch == 2 and sam.model.connected
    assert sam.news()[-1] == TableNews(TableNewsKind.HOST_CHANGED, ann.pid, "ann", 2)
    assert bob.model.epoch == 2 and bob.model.connected


def test_an_advert_finds_a_successor_whose_address_changed() -> None:
    old, laptops, sam = watched_table()
    ann, bob, _cat = laptops
    lan = SpectatedLan(old, laptops, [])
    lost = lan.now
    lan.host_lost(lost + 0.1, laptops)
    lan.tick(lost + D + 3)  # Ann takes over; Bob and Cat follow her
    assert ann.pid in lan.hosts and bob.model.epoch == 2
    # Sam finds out late, when Ann's laptop has moved to another address (its Wi-Fi
    # roamed): the order Sam holds lists the old one
    new = "10.0.1.2"
    lan.moved[ann.pid] = new
    lan.watchers.append(sam)
    lan.carry_out(sam, sam.election.host_lost(lan.now))
    lan.tick(lan.now + 5)
    assert not following(sam, 2)  # Ann passed over at her old address, Bob only follows
    assert not any(isinstance(d, el.Follow) for who, d in lan.log if who == "sam")
    # mDNS: the table's id at epoch 2, on Ann's new address
    lan.carry_out(sam, sam.election.advert(2, (new,), ann.port, lan.now))
    assert following(sam, 2)
    assert sam.news()[-1] == TableNews(TableNewsKind.HOST_CHANGED, ann.pid, "ann", 2)
    assert (("sam", el.TryCandidate(None, (new,), ann.port))) in lan.log
