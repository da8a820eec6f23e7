"""In play for points no hand is lost to a quick player on turn (issue 19), in memory.

The table of ``test_takeover_in_memory``, playing for points: Ann, Bob and Cat are
laptops, the host's own player sits too.  The host dies while Bob or Cat is on turn;
Ann takes the table over.  The laptop on turn is quick (a bot process: it answers
every offer of moves the moment it comes), the other one's frames reach the new host
0.2 s after the quick one's.  The new host holds the first decision until that reveal
is in: every hand each player held is kept, and only then does the quick laptop play.
A laptop that never comes back holds it no longer than ``REVEAL_WAIT``.  A reveal
after that wait, before anyone played, is kept when the hand of the person on turn,
who was offered moves, stays as it was (and every board is told the cards dealt anew),
and refused when it would change that hand under the moves offered."""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_takeover_in_memory import D, Lan, Laptop, play, table

from sorry_lan.authority.takeover import OFFERED, REVEAL_WAIT, TakenOver
from sorry_lan.client.model import ClientEvent
from sorry_lan.rules import Variant
from sorry_lan.succession import election as el
from sorry_lan.wire import messages as m

LAG = 0.2  # how much later than the quick laptop's the slow one's frames arrive


class Quick:
    """Makes ``lap`` answer every offer of moves at once (unless not ``answers``: a
    person thinking), noting when each came."""

    def __init__(self, lap: Laptop, answers: bool = True) -> None:
        self.lap = lap
        self.answers = answers
        self.offered: list[float] = []
        self.receive = lap.receive_data
        lap.receive_data = self.receive_data  # type: ignore[method-assign]

    def receive_data(self, data: bytes, now: float) -> list[ClientEvent]:
        got = self.receive(data, now)
        model = self.lap.model
        if any(isinstance(e, m.LegalMoves) for e in got):
            self.offered.append(now)
            if self.answers and model.moves is not None and model.connected:
                model.play(model.moves.moves[0].id)
        return got


class Lagging(Lan):
    """The LAN, but what ``slow`` sends its new host after its hello (its reveal first)
    arrives ``lag`` s after the quick laptop's first frames there (None: ``slow`` never
    reaches it)."""

    def __init__(self, old: object, laptops: list[Laptop], quick: Laptop, slow: Laptop,
                 lag: float | None) -> None:  # fmt: skip
        super().__init__(old, laptops)  # type: ignore[arg-type]
        self.quick, self.slow, self.lag = quick, slow, lag
        self.quick_at: float | None = None
        self.took_at: float | None = None
        self.slow_cids: list[int] = []

    def take_over(self, lap: Laptop, epoch: int) -> None:
        self.took_at = self.now
        super().take_over(lap, epoch)

    def attempt(self, lap: Laptop, attempt: el.TryCandidate) -> None:
        host = self.hosts.get(attempt.pid) if attempt.pid is not None else None
        if host is None or lap not in (self.quick, self.slow):
            super().attempt(lap, attempt)
            return
        if lap is self.slow and self.lag is None:
            self.carry_out(lap, lap.election.failed(attempt, self.now))
            return
        lap.model.join(self.now, attempt=attempt)
        cid, _ = host.connect(lap, lap.addr)
        if lap is self.slow:
            host.feed(cid, lap.data_to_send())  # its hello: welcomed at once
            self.slow_cids.append(cid)
        elif self.quick_at is None:
            self.quick_at = self.now
        lag, at = self.lag, self.quick_at
        for slow in self.slow_cids:
            host.paused[slow] = math.inf if at is None or lag is None else at + lag
        host.pump()


def hand_of(record: dict[str, object]) -> list[int]:
    """The hand a journal's ``reveal`` record gave back, sorted."""
    hand = record["hand"]
    assert isinstance(hand, list)
    return sorted(int(c) for c in hand)


def took_over(
    lag: float | None, *, answers: bool = True, forgets: bool = False
) -> tuple[Lagging, Quick, Laptop, dict[int, list[int]]]:
    """The host dies with Bob or Cat on turn (quick, if it ``answers``; ``forgets``: its
    client forgot its hand, so it reveals none), the other one ``lag``-ging; Ann takes
    over and everyone who can follows her.  Also each laptop's hand (by colour) as it
    was when the host died."""
    old, laptops, own = table(Variant.POINTS)
    ann, bob, cat = laptops
    game = old.table.game
    assert game is not None
    while game.turn not in (bob.model.colour, cat.model.colour):
        play(old, [own, *laptops], moves=1)
    quick, slow = (bob, cat) if game.turn == bob.model.colour else (cat, bob)
    held = {lap.model.colour or 0: sorted(int(c) for c in lap.model.hand or ()) for lap in laptops}
    assert all(held.values())
    lan = Lagging(old, laptops, quick, slow, lag)
    lost = old.now  # the host is gone (killed): nothing more from it
    lan.host_lost(lost + 0.1, laptops)
    if forgets:
        quick.model.participant.hand = quick.model.participant.salt = None
    fast = Quick(quick, answers)
    lan.tick(lost + D + 3 + REVEAL_WAIT * 2, step=0.05)
    assert ann.model.pid in lan.hosts
    return lan, fast, slow, held


def test_the_quick_player_on_turn_waits_for_the_others_hands_and_every_hand_is_kept() -> None:
    lan, quick, slow, held = took_over(LAG)
    laptops = list(lan.laptops.values())
    ann = laptops[0]
    new = lan.hosts[ann.pid]
    table = new.table
    assert isinstance(table, TakenOver) and table.game is not None
    records = [r for r in new.journal if r["k"] in ("reveal", "move")]
    # both hands given back, as they were, before the first move (the quick laptop's)
    reveals = {r["colour"]: hand_of(r) for r in records[:2] if r["k"] == "reveal"}
    assert reveals == {c: held[c] for c in (quick.lap.model.colour or 0, slow.model.colour or 0)}
    assert records[2]["k"] == "move" and table.game.moves_played > table.taken_at
    assert table.fresh.isdisjoint({lap.model.colour for lap in laptops})
    assert quick.offered and lan.quick_at is not None
    assert quick.offered[0] >= lan.quick_at + LAG  # not offered before the other's reveal
    for lap in laptops:
        errors = [e for e in lap.events if isinstance(e, m.Error)]
        assert not errors, (lap.model.name, errors)
        assert lap.model.epoch == 2 and lap.model.connected
        hand = table.game.hands[lap.model.colour or 0]  # what its board shows is the host's
        assert lap.model.hand and Counter(lap.model.hand) <= Counter(hand), lap.model.name
    colour = slow.model.colour or 0  # still holds every card it knew it held
    assert Counter(held[colour]) <= Counter(table.game.hands[colour])
    play(new, laptops)
    assert table.game.over and all(lap.model.over is not None for lap in laptops)


def test_a_laptop_that_never_comes_back_holds_the_first_move_for_reveal_wait_at_most() -> None:
    lan, quick, slow, held = took_over(None)
    new = lan.hosts[next(iter(lan.laptops.values())).pid]
    table = new.table
    assert isinstance(table, TakenOver) and table.game is not None
    reveals = {r["colour"]: hand_of(r) for r in new.journal if r["k"] == "reveal"}
    colour = quick.lap.model.colour or 0
    assert reveals == {colour: held[colour]}
    assert quick.offered and table.game.moves_played > table.taken_at
    # offered once the wait was over (the takeover's time plus REVEAL_WAIT), not before
    assert lan.took_at is not None
    assert lan.took_at + REVEAL_WAIT <= quick.offered[0] < lan.took_at + REVEAL_WAIT + 0.1
    assert slow.model.colour in table.fresh  # dealt afresh: nobody revealed it


def test_a_reveal_after_the_wait_is_kept_and_each_hand_dealt_anew_is_told_again() -> None:
    lan, thinking, late, held = took_over(REVEAL_WAIT + 1, answers=False)
    laptops = list(lan.laptops.values())
    new = lan.hosts[laptops[0].pid]
    table = new.table
    assert isinstance(table, TakenOver) and table.game is not None
    assert lan.took_at is not None and thinking.offered
    assert thinking.offered[0] >= lan.took_at + REVEAL_WAIT  # it waited for the late one
    colour = late.model.colour or 0
    reveals = {r["colour"]: hand_of(r) for r in new.journal if r["k"] == "reveal"}
    assert reveals[colour] == held[colour]  # came after the wait, before any move: kept
    for lap in laptops:  # each board shows the host's hand (Ann's drawn card was dealt anew)
        hand = table.game.hands[lap.model.colour or 0]
        assert lap.model.hand and Counter(lap.model.hand) <= Counter(hand), lap.model.name
        assert not [e for e in lap.events if isinstance(e, m.Error)], lap.model.name
    model = thinking.lap.model  # its offer still stands: its hand did not change
    assert model.moves is not None and model.moves.sid == table.game.state_id
    before = table.game.moves_played
    model.play(model.moves.moves[0].id)
    new.pump()
    assert table.game.moves_played == before + 1
    assert not [e for e in thinking.lap.events if isinstance(e, m.Error)]


def test_a_late_reveal_that_would_change_the_hand_offered_to_the_player_on_turn_is_refused(
) -> None:
    lan, thinking, late, _ = took_over(REVEAL_WAIT + 1, answers=False, forgets=True)
    laptops = list(lan.laptops.values())
    new = lan.hosts[laptops[0].pid]
    table = new.table
    assert isinstance(table, TakenOver) and table.game is not None
    on_turn = thinking.lap.model.colour
    assert on_turn in table.fresh and thinking.offered  # it revealed nothing: offered at the wait
    errors = [e for e in late.events if isinstance(e, m.Error)]
    assert [e.text for e in errors] == [OFFERED]
    assert late.model.colour in table.fresh
    model = thinking.lap.model  # the moves offered are still the ones its hand allows
    assert model.moves is not None and model.hand is not None
    assert Counter(model.hand) == Counter(table.game.hands[on_turn or 0])
    model.play(model.moves.moves[0].id)
    new.pump()
    assert table.game.moves_played == table.taken_at + 1


class Late(Lan):
    """The LAN, but ``late`` (the laptop on turn) reaches nobody until ``reach_at``."""

    def __init__(self, old: object, laptops: list[Laptop], late: Laptop, reach_at: float) -> None:
        super().__init__(old, laptops)  # type: ignore[arg-type]
        self.late, self.reach_at = late, reach_at
        self.took_at: float | None = None

    def take_over(self, lap: Laptop, epoch: int) -> None:
        self.took_at = self.now
        super().take_over(lap, epoch)

    def attempt(self, lap: Laptop, attempt: el.TryCandidate) -> None:
        if lap is self.late and self.now < self.reach_at:
            self.carry_out(lap, lap.election.failed(attempt, self.now))
            return
        super().attempt(lap, attempt)


def test_the_player_on_turn_who_reaches_the_successor_after_the_wait_gets_its_hand_back(
) -> None:
    """Issue 31 case 8: the laptop on turn reaches the new host only after its reveal
    wait.  Its seat is not offered moves until its reveal is in (or a wait from its
    return): the hand it knew is given back, and only then is it offered its moves."""
    old, laptops, own = table(Variant.POINTS)
    ann, bob, cat = laptops
    game = old.table.game
    assert game is not None
    while game.turn not in (bob.model.colour, cat.model.colour):
        play(old, [own, *laptops], moves=1)
    late = bob if game.turn == bob.model.colour else cat
    colour = late.model.colour or 0
    held = sorted(int(c) for c in late.model.hand or ())
    assert held
    lost = old.now
    lan = Late(old, laptops, late, reach_at=lost + D + REVEAL_WAIT * 3)
    offered = Quick(late, answers=False)
    lan.host_lost(lost + 0.1, laptops)
    lan.tick(lost + D * 4, step=0.05)
    new = lan.hosts[ann.pid]
    table_ = new.table
    assert isinstance(table_, TakenOver) and table_.game is not None
    assert lan.took_at is not None and lan.took_at + REVEAL_WAIT < lan.reach_at
    assert late.model.connected and late.model.epoch == 2
    assert not [e for e in late.events if isinstance(e, m.Error)]
    reveals = {r["colour"]: hand_of(r) for r in new.journal if r["k"] == "reveal"}
    assert reveals.get(colour) == held  # given back, though it came after the wait
    assert colour not in table_.fresh
    assert offered.offered and late.model.moves is not None
    assert Counter(late.model.hand or ()) == Counter(table_.game.hands[colour])
    before = table_.game.moves_played
    late.model.play(late.model.moves.moves[0].id)
    new.pump()
    assert table_.game.moves_played == before + 1
