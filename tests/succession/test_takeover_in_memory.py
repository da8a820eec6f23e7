"""Three laptops at a real host core, in memory (``tests/authority/pair.py``), on one
fake clock: the host is lost, the others' votes reach the first laptop's standby, it
takes over with a host core built by ``authority.takeover`` from what its client knew,
the others follow it by themselves with their own seats and boards, and the game is
played to its end.  A client cut off alone while the others still see the host never
takes over; a laptop that claims the table out of turn is refused with a reason and the
game goes on at the right laptop.  :class:`Lan` plays the net shell: it carries out
each election's decisions (a standby's answers through a real wire host session, the
new host's welcome through its pair)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.authority.takeover import build_table
from sorry_lan.client.model import ClientEvent, ClientModel, TableNews, TableNewsKind
from sorry_lan.rules import Phase, Variant
from sorry_lan.succession import election as el
from sorry_lan.succession.standby import MOVING, Host, Standby, TurnAway, Wait
from sorry_lan.wire import messages as m
from sorry_lan.wire.session import HostSession
from sorry_lan.wire.standby import NOT_HOSTING
from sorry_lan.wire.vocab import RefuseReason

TID = "kitchen7"
D = 15.0
IDLE = NOT_HOSTING  # what a standby says with no election


class Laptop:
    """One player's laptop: its client model, the events it was told, its address."""

    def __init__(self, name: str, n: int, *, standby: bool = True) -> None:
        self.addr = f"10.0.0.{n}"
        self.port = 7000 + n
        self.model = ClientModel(name, standby=(self.port, (self.addr,)) if standby else None)
        self.events: list[ClientEvent] = []

    def receive_data(self, data: bytes, now: float) -> list[ClientEvent]:
        got = self.model.receive_data(data, now)
        self.events += got
        return got

    def data_to_send(self) -> bytes:
        return self.model.data_to_send()

    @property
    def pid(self) -> int:
        assert self.model.pid is not None
        return self.model.pid

    @property
    def election(self) -> el.Election:
        assert self.model.election is not None
        return self.model.election

    def news(self) -> list[TableNews]:
        return [e for e in self.events if isinstance(e, TableNews)]


class Lan:
    """The laptops' network: who stands (a :class:`Standby`) and who hosts (a pair)."""

    def __init__(self, old: Pair, laptops: list[Laptop]) -> None:
        self.old = old
        self.now = old.now
        self.laptops = {lap.pid: lap for lap in laptops}
        self.standbys: dict[int, Standby] = {}
        self.hosts: dict[int, Pair] = {}
        self.dead: set[int] = set()  # laptops that cannot be reached
        self.v4: set[int] = set()  # laptops whose hellos a standby reads as version 4's
        self.log: list[tuple[str, el.Decision]] = []

    def host_lost(self, at: float, laptops: Iterable[Laptop]) -> None:
        """Each of ``laptops`` finds the host lost at ``at`` and does what its election
        decides."""
        for lap in laptops:
            self.carry_out(lap, lap.election.host_lost(at))

    def carry_out(self, lap: Laptop, decisions: list[el.Decision]) -> None:
        queue = [*decisions, *lap.model.take_decisions()]
        while queue:
            d = queue.pop(0)
            self.log.append((lap.model.name, d))
            match d:
                case el.TryCandidate():
                    self.attempt(lap, d)
                case el.OpenStandby():
                    assert lap.model.succession is not None and lap.model.pid is not None
                    self.standbys[lap.model.pid] = Standby.of(
                        lap.model.succession, lap.model.pid, lap.model.newest_state)
                case el.CloseStandby():
                    self.standbys.pop(lap.model.pid or 0, None)
                case el.TakeOver():
                    self.take_over(lap, d.epoch)
                case _:
                    pass  # keep trying, follow, refuse, give up: nothing to do here
            queue += lap.model.take_decisions()

    def attempt(self, lap: Laptop, attempt: el.TryCandidate) -> None:
        target = attempt.pid
        if target is None:  # an advert: whose port is it?
            target = next(p for p, x in self.laptops.items() if x.port == attempt.port)
        if target in self.dead:
            self.carry_out(lap, lap.election.failed(attempt, self.now))
            return
        lap.model.join(self.now, attempt=attempt)
        host = self.hosts.get(target)
        if host is not None:
            host.connect(lap, lap.addr)
            host.pump()
            return
        session = HostSession(pin_key=None)  # the standby listener's, for one greeting
        greeting = session.receive_data(lap.model.data_to_send())[0]
        standby = self.standbys.get(target)
        if standby is None:
            session.refuse(RefuseReason.BUSY, IDLE)
        else:
            if isinstance(greeting, m.Spectate):  # a spectator following: never a vote
                answer = standby.spectate(self.now)
            else:
                assert isinstance(greeting, m.Hello)
                versions, seen = greeting.versions, greeting.seen
                if lap.pid in self.v4:  # its hello offers 1-4 and has no ``seen``
                    versions, seen = tuple(v for v in versions if v <= 4), None
                answer = standby.hello(greeting.token, versions, self.now, seen)
            if isinstance(answer, Host):  # the quorum: the retry is welcomed by the host
                session.refuse(RefuseReason.BUSY, MOVING)
            else:
                session.refuse(answer.reason, answer.text)
            told = isinstance(answer, Host) or (isinstance(answer, Wait) and answer.counted)
            if told or (isinstance(answer, TurnAway) and answer.older):
                voter = self.laptops[target]
                self.carry_out(voter, voter.election.standby_votes(
                    standby.votes(self.now), self.now, behind=standby.behind))
        lap.receive_data(session.data_to_send(), self.now)

    def take_over(self, lap: Laptop, epoch: int) -> None:
        knowledge = lap.model.knowledge()
        assert knowledge is not None and lap.model.pid is not None
        table = build_table(knowledge, epoch=epoch, now=self.now, seed=11)
        pair = Pair(table, HostOptions(table_id=TID, epoch=epoch, takeover_delay=D))
        pair.now = self.now
        self.hosts[lap.model.pid] = pair
        self.standbys.pop(lap.model.pid, None)
        lap.model.join(self.now)  # its own client, to its own new host
        pair.connect(lap, "127.0.0.1")
        pair.pump()

    def tick(self, until: float, step: float = 0.5) -> None:
        while self.now < until:
            self.now = min(until, self.now + step)
            for pair in self.hosts.values():
                pair.advance(self.now - pair.now)
            for lap in self.laptops.values():
                if lap.model.pid not in self.hosts:
                    self.carry_out(lap, lap.election.tick(self.now))


def table(variant: Variant = Variant.STANDARD) -> tuple[Pair, list[Laptop], Laptop]:
    """The host's own player (the owner: never a laptop of the order) and Ann, Bob and
    Cat (laptops, by seat), a few moves into their game."""
    t = Table(TableConfig(variant=variant, seats=4, auto_start=True, seed=4))
    player, token = t.join(None, "host")
    t.owner = player.pid
    pair = Pair(t, HostOptions(table_id=TID, takeover_delay=D))
    own = Laptop("host", 1)
    own.model.participant.standby, own.model.token = None, token
    laptops = [Laptop(name, n) for n, name in enumerate(("ann", "bob", "cat"), start=2)]
    for lap in [own, *laptops]:
        lap.model.join(pair.now)
        pair.connect(lap, "127.0.0.1" if lap is own else lap.addr)
        pair.pump()
    assert t.owner == own.model.pid
    play(pair, [own, *laptops], moves=8)
    return pair, laptops, own


def play(pair: Pair, laptops: list[Laptop], moves: int | None = None, seed: int = 4) -> None:
    """The people play random moves (bots in their time) until ``moves`` moves have been
    played or the game is over."""
    pick = random.Random(seed)
    game = pair.table.game
    assert game is not None
    start = game.moves_played
    for _ in range(20_000):
        if game.over or (moves is not None and game.moves_played - start >= moves):
            return
        movers = [lap.model for lap in laptops if lap.model.moves is not None
                  and lap.model.connected]
        if not movers:
            pair.advance(0.5)
        for model in movers:
            assert model.moves is not None
            model.play(pick.choice(model.moves.moves).id)
        pair.pump()
    raise AssertionError("the game did not end")


def test_the_first_laptop_takes_over_and_the_others_follow_to_the_end() -> None:
    old, laptops, _own = table(Variant.POINTS)
    ann, bob, cat = laptops
    order = [lap.pid for lap in ann.election.order.laptops]
    assert order == [ann.model.pid, bob.model.pid, cat.model.pid]
    seen = {lap.model.name: (lap.model.sid, lap.model.pawns) for lap in laptops}
    lan = Lan(old, laptops)
    lost = old.now  # the host is gone (killed): nothing more from it
    lan.host_lost(lost + 0.1, laptops)
    lan.tick(lost + D)
    assert ("ann", el.OpenStandby(2)) in lan.log
    lan.tick(lost + D + 3)
    assert ("ann", el.TakeOver(2)) in lan.log
    new = lan.hosts[ann.model.pid or 0]
    for lap in laptops:
        assert lap.model.epoch == 2 and lap.model.connected, lap.model.name
        assert lap.model.succession is not None and lap.model.succession.host == ann.model.pid
    changed = TableNewsKind.HOST_CHANGED
    assert ann.news()[-1] == TableNews(changed, ann.model.pid, "ann", 2, you=True)
    assert bob.news()[-1] == TableNews(changed, ann.model.pid, "ann", 2)
    for lap in laptops:  # its own seat, and the board it showed
        assert lap.model.snapshot is not None and lap.model.snapshot.you is not None
        sid, pawns = seen[lap.model.name]
        assert lap.model.pawns == pawns and lap.model.sid >= sid, lap.model.name
    # Bob and Cat told the new host the hands the old one committed them to: kept
    assert [rec.get("k") for rec in new.journal].count("reveal") == 2
    assert not [e for lap in laptops for e in lap.events if isinstance(e, m.Error)]
    # the new electorate: Bob then Cat
    assert [x.pid for x in bob.election.order.laptops] == [bob.model.pid, cat.model.pid]
    play(new, laptops)
    assert new.table.game is not None and new.table.game.over
    assert all(lap.model.over is not None for lap in laptops)


def test_a_client_cut_off_alone_never_takes_over_while_the_others_see_the_host() -> None:
    old, laptops, own = table()
    ann, bob, cat = laptops
    cid = next(c for c, end in old.clients.items() if end is cat)
    old.lose(cid)  # Cat's link to the host is gone; Ann and Bob still play
    lan = Lan(old, laptops)
    lost = cat.election.heard_at
    lan.carry_out(cat, cat.election.host_lost(old.now))
    while lan.now < lost + 3 * 60:  # three minutes: past the delay and the grace
        old.advance(0.5)
        if old.table.game is not None and not old.table.game.over:
            play(old, [own, ann, bob], moves=1)
        lan.now = old.now
        lan.carry_out(cat, cat.election.tick(lan.now))
    assert old.table.game is not None and old.table.game.moves_played > 20
    assert not any(isinstance(d, el.TakeOver | el.AskAlone) for _, d in lan.log)
    tries = [d for who, d in lan.log if who == "cat" and isinstance(d, el.TryCandidate)]
    # Ann answers (she does not stand: she hears the host): not alone.  Past D of that,
    # Cat looks past her for a host (Bob: the same), stands, and nobody votes for it.
    assert tries[0].pid == ann.model.pid
    assert {d.pid for d in tries} == {ann.model.pid, bob.model.pid}
    assert ann.model.epoch == bob.model.epoch == cat.model.epoch == 1
    cat.model.join(lan.now)  # its link is back
    old.connect(cat, cat.addr)
    old.pump()
    assert cat.model.connected and cat.election.phase is el.Phase.WATCHING


def test_a_claim_out_of_turn_is_refused_and_the_table_goes_to_the_first_laptop() -> None:
    old, laptops, _own = table()
    ann, bob, cat = laptops
    lan = Lan(old, laptops)
    lost = old.now
    lan.host_lost(lost + 0.1, (ann, bob))
    # Cat (hostile) hosts at once, at epoch 2, out of turn, and advertises it
    lan.take_over(cat, 2)
    assert cat.model.pid in lan.hosts
    lan.carry_out(bob, bob.election.advert(2, (cat.addr,), cat.port, lost + 1))
    lan.tick(lost + D)
    refused = [n for n in bob.news() if n.kind == "claim_refused"]
    assert refused and refused[0].pid == cat.model.pid and refused[0].claim is el.Claim.OUT_OF_TURN
    assert "out of turn" in refused[0].text
    lan.tick(lost + D + 3)
    assert ann.model.pid in lan.hosts
    assert bob.model.epoch == 2 and bob.model.succession is not None
    assert bob.model.succession.host == ann.model.pid and bob.model.connected
    new = lan.hosts[ann.model.pid or 0]
    play(new, [ann, bob])
    assert new.table.game is not None and new.table.game.over


@pytest.mark.parametrize("advert", [False, True])
def test_a_first_laptop_nobody_reaches_follows_the_second_and_never_hosts(advert: bool) -> None:
    """Ann's firewall drops every connection to her standby (her own go out): Bob and
    Cat pass her over, Bob takes over with Cat's vote.  Ann stands with no votes; at
    the lone rule's time she tries the others once more, finds Bob hosting and follows
    him in her own seat: one table (before, she took over alone: two at epoch 2).
    ``advert``: she refused Bob's advert while she stood (before, she then stood for
    good, her seat lost to the table)."""
    old, laptops, _own = table()
    ann, bob, cat = laptops
    grace = ann.election.order.grace
    lan = Lan(old, laptops)
    lan.dead = {ann.pid}  # inbound only: the Lan fails attempts *to* her
    lost = old.now
    lan.host_lost(lost + 0.1, laptops)
    lan.tick(lost + D + 3)
    assert ("ann", el.OpenStandby(2)) in lan.log
    assert bob.pid in lan.hosts and cat.model.epoch == 2 and cat.model.connected
    if advert:  # mDNS shows Bob's table at epoch 2: Ann, standing, refuses it
        lan.carry_out(ann, ann.election.advert(2, (bob.addr,), bob.port, lan.now))
        assert [n.pid for n in ann.news() if n.kind == "claim_refused"] == [bob.pid]
    lan.tick(lost + grace + 3)
    assert not [d for who, d in lan.log if who == "ann" and isinstance(d, el.TakeOver)]
    assert ann.pid not in lan.hosts and list(lan.hosts) == [bob.pid]
    assert ann.model.connected and ann.model.epoch == 2
    assert ann.model.succession is not None and ann.model.succession.host == bob.pid
    assert ann.election.phase is el.Phase.WATCHING
    assert ann.news()[-1] == TableNews(TableNewsKind.HOST_CHANGED, bob.pid, "bob", 2)
    assert ann.model.snapshot is not None and ann.model.snapshot.you is not None
    new = lan.hosts[bob.pid]
    play(new, laptops)
    assert new.table.game is not None and new.table.game.over
    assert all(lap.model.over is not None for lap in laptops)


def test_lost_after_the_game_ended_the_game_is_shown_again_with_its_record_whole() -> None:
    """The host is lost at game over: the successor, built from what its laptop's client
    knew (the whole record it was sent), shows every player the same game over; nobody
    keeps or files the game twice, and the successor's own record of it has every turn."""
    old, laptops, own = table()
    play(old, [own, *laptops])
    first = [lap.model.take_records() for lap in laptops]
    assert all(len(got) == 1 and got[0].game == 1 for got in first)
    original = first[0][0].record
    ann = laptops[0]
    lan = Lan(old, laptops)
    lost = old.now
    lan.host_lost(lost + 0.1, laptops)
    lan.tick(lost + D + 3)
    new = lan.hosts[ann.pid]
    assert all(lap.model.epoch == 2 and lap.model.connected for lap in laptops)
    assert new.table.phase is Phase.FINISHED and new.table.games_played == 1
    for lap, got in zip(laptops, first, strict=True):
        assert lap.model.over is not None and lap.model.book.game_number == 1
        assert lap.model.take_records() == []  # shown again, not filed again
        assert [r.record for r in lap.model.records] == [got[0].record]
    rebuilt = new.core.game_log.record()
    assert rebuilt is not None and rebuilt["result"] == original["result"]
    assert rebuilt["turns"] == original["turns"]


class Unable(Lan):
    """The LAN, but the laptops ``unable`` open no standby (as the heir does for a
    laptop that cannot host): their standbys say they do not host the table."""

    def __init__(self, old: Pair, laptops: list[Laptop], unable: set[int]) -> None:
        super().__init__(old, laptops)
        self.unable = unable

    def carry_out(self, lap: Laptop, decisions: list[el.Decision]) -> None:
        super().carry_out(lap, decisions)
        for pid in self.unable:
            self.standbys.pop(pid, None)


def test_two_laptops_that_cannot_host_are_passed_over_and_the_third_takes_over() -> None:
    """Issue 31 case 8: Ann and Bob offered to host but cannot (a board they do not
    know): they never stand and their standbys say they do not host the table.  Cat
    passes each over D after its first such answer, stands, and they vote for her:
    a host within about 2 D of the walk's start, not minutes, and the game goes on."""
    old, laptops, _own = table()
    ann, bob, cat = laptops
    for lap in (ann, bob):
        lap.election.can_host = False
    lan = Unable(old, laptops, {ann.pid, bob.pid})
    lost = old.now
    lan.host_lost(lost + 0.1, laptops)
    lan.tick(lost + D + 2 * D + 3, step=0.25)
    assert cat.pid in lan.hosts and ("cat", el.TakeOver(2)) in lan.log
    assert not any(who in ("ann", "bob") and isinstance(d, el.OpenStandby | el.TakeOver)
                   for who, d in lan.log)  # fmt: skip
    for lap in laptops:
        assert lap.model.epoch == 2 and lap.model.connected, lap.model.name
    new = lan.hosts[cat.pid]
    game = new.table.game
    assert game is not None
    before = game.moves_played
    play(new, laptops, moves=4)
    assert game.moves_played >= before + 4
