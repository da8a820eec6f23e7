"""The host lost at every phase of an evening and in every variant (issue 19), in
memory on one fake clock: a headless host and laptops (``test_takeover_in_memory``'s
:class:`Lan`), the host lost in the lobby (a newcomer finds the table at its new host
and the game is played there), in a burst of its own bots' moves, one move before the
end (the last move is made at the new host), and mid-game in each variant with 2 to 4
players.  Each time one laptop takes the table over, every other follows it with its
own seat and the board it showed, and the game finishes there for everyone.  What only
a real LAN shows (mDNS, processes killed, namespaces) stays in tests/discovery."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair
from test_takeover_in_memory import TID, D, Lan, Laptop, play

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.authority.takeover import build_table
from sorry_lan.rules import Phase, Variant
from sorry_lan.wire import messages as m

NAMES = ("ann", "bob", "cat", "dan")


class Headless(Lan):
    """The laptops' network of a headless table: the successor's host names its own
    seat as the one that hosts (``HostOptions.seat``, as ``net.heir.start_table`` does),
    since the table it builds has no owner."""

    def take_over(self, lap: Laptop, epoch: int) -> None:
        knowledge = lap.model.knowledge()
        assert knowledge is not None
        table = build_table(knowledge, epoch=epoch, now=self.now, seed=11)
        pair = Pair(table, HostOptions(table_id=TID, epoch=epoch, takeover_delay=D,
                                       seat=lap.pid))
        pair.now = self.now
        self.hosts[lap.pid] = pair
        self.standbys.pop(lap.pid, None)
        lap.model.join(self.now)  # its own client, to its own new host
        pair.connect(lap, "127.0.0.1")
        pair.pump()


def headless(variant: Variant, players: int, laptops: int, bots: int = 0,
             seed: int = 5, stay: bool = False) -> tuple[Pair, list[Laptop]]:
    """A headless table of ``players`` seats (auto start), ``bots`` of them the host's
    own bots, and ``laptops`` laptops seated in order (the first is first in the order)."""
    t = Table(TableConfig(variant=variant, seats=players, auto_start=True, seed=seed))
    for _ in range(bots):
        t.add_bot(None)
    pair = Pair(t, HostOptions(table_id=TID, takeover_delay=D, stay=stay))
    seated = [Laptop(name, n) for n, name in enumerate(NAMES[:laptops], start=2)]
    for lap in seated:
        lap.model.join(pair.now)
        pair.connect(lap, lap.addr)
        pair.pump()
    return pair, seated


def lose(old: Pair, laptops: list[Laptop]) -> tuple[Headless, Pair]:
    """The host is lost (no word from it again): the first laptop takes the table over
    and every other follows it with its own seat and the board it showed."""
    seen = {lap.model.name: (lap.model.sid, lap.model.pawns, lap.model.colour)
            for lap in laptops}
    lan = Headless(old, laptops)
    lan.host_lost(old.now + 0.1, laptops)
    lan.tick(old.now + D + 3)
    first = laptops[0]
    assert list(lan.hosts) == [first.pid], lan.log  # one laptop took it over
    for lap in laptops:
        assert lap.model.epoch == 2 and lap.model.connected, lap.model.name
        assert lap.model.succession is not None and lap.model.succession.host == first.pid
        sid, pawns, colour = seen[lap.model.name]
        assert lap.model.colour == colour, lap.model.name  # nobody's seat changed hands
        assert lap.model.pawns == pawns and lap.model.sid >= sid, lap.model.name
    return lan, lan.hosts[first.pid]


def finishes(new: Pair, laptops: list[Laptop]) -> None:
    play(new, laptops)
    game = new.table.game
    assert game is not None and game.over
    assert all(lap.model.over is not None for lap in laptops)
    won = {lap.model.over.winners for lap in laptops if lap.model.over is not None}
    assert len(won) == 1, won


CELLS = [
    (Variant.STANDARD, 2), (Variant.STANDARD, 3), (Variant.STANDARD, 4),
    (Variant.TEAM, 4),
    (Variant.POINTS, 2), (Variant.POINTS, 3), (Variant.POINTS, 4),
]


@pytest.mark.parametrize(("variant", "players"), CELLS,
                         ids=[f"{v.value}-{n}" for v, n in CELLS])
def test_every_variant_survives_its_host(variant: Variant, players: int) -> None:
    old, laptops = headless(variant, players, players)
    play(old, laptops, moves=6)
    _lan, new = lose(old, laptops)
    finishes(new, laptops)


def test_lost_in_the_lobby_a_newcomer_finds_the_new_host_and_the_game_is_played_there() -> None:
    old, laptops = headless(Variant.STANDARD, 3, 2)
    assert old.table.phase is Phase.LOBBY
    _lan, new = lose(old, laptops)
    assert new.table.phase is Phase.LOBBY
    cat = Laptop("cat", 4)
    cat.model.join(new.now)
    new.connect(cat, cat.addr)
    new.pump()
    assert new.table.game is not None and cat.model.colour is not None
    finishes(new, [*laptops, cat])
    assert not old.table.game  # no game ever began at the old host


def test_lost_in_a_burst_of_its_own_bots_moves_the_bots_move_with_the_table() -> None:
    old, laptops = headless(Variant.STANDARD, 4, 2, bots=2)
    play(old, laptops, moves=12)
    bots = {p.colour for p in old.table.players.values() if p.bot}
    assert len(bots) == 2
    _lan, new = lose(old, laptops)
    assert {p.colour for p in new.table.players.values() if p.bot} == bots
    finishes(new, laptops)


def test_lost_one_move_before_the_end_the_last_move_is_made_at_the_new_host() -> None:
    rehearsal, laptops = headless(Variant.STANDARD, 2, 2, seed=19)
    play(rehearsal, laptops)
    game = rehearsal.table.game
    assert game is not None and game.over
    last = game.moves_played
    old, laptops = headless(Variant.STANDARD, 2, 2, seed=19)
    play(old, laptops, moves=last - 1)
    game = old.table.game
    assert game is not None and not game.over and game.moves_played == last - 1
    _lan, new = lose(old, laptops)
    taken = new.table.game
    assert taken is not None and not taken.over
    finishes(new, laptops)
    moved = [r for r in new.journal if r.get("k") == "move"]
    assert moved, "no move made at the new host"


def test_lost_at_game_over_the_rematch_is_played_at_the_new_host() -> None:
    """After the game one laptop leaves, so the rematch's lobby waits for a third
    player; the host is lost then: a newcomer finds the table at its new host and the
    rematch is played there, never at the old host."""
    old, laptops = headless(Variant.STANDARD, 3, 3, stay=True)
    play(old, laptops)
    ann, bob, cat = laptops
    cat.model.close()
    old.pump()
    for lap in (ann, bob):
        lap.model.send(m.Rematch())
    old.pump()
    assert old.table.phase is Phase.LOBBY and old.table.games_played == 1
    _lan, new = lose(old, [ann, bob])
    assert new.table.phase is Phase.LOBBY
    dan = Laptop("dan", 5)
    dan.model.join(new.now)
    new.connect(dan, dan.addr)
    new.pump()
    assert new.phase_now() is Phase.PLAYING and new.table.games_played == 2
    finishes(new, [ann, bob, dan])
    assert old.table.games_played == 1  # the rematch never began at the old host


def test_a_successor_lost_in_turn_hands_the_table_on_to_the_next_laptop() -> None:
    """The host is lost, Ann's laptop takes the table over and everyone follows; then
    Ann's laptop is lost too: Bob's takes it over at epoch 3 with Cat's vote, Ann's
    seat is held and then played by a bot, and the game finishes there."""
    old, laptops = headless(Variant.STANDARD, 3, 3)
    play(old, laptops, moves=6)
    lan, first = lose(old, laptops)
    play(first, laptops, moves=4)
    ann, bob, cat = laptops
    seen = {lap.model.name: (lap.model.sid, lap.model.pawns) for lap in (bob, cat)}
    del lan.hosts[ann.pid], lan.laptops[ann.pid]
    lan.dead.add(ann.pid)
    lan.now = first.now
    lan.host_lost(lan.now + 0.1, (bob, cat))
    lan.tick(lan.now + 3 * D)
    assert list(lan.hosts) == [bob.pid], lan.log
    for lap in (bob, cat):
        assert lap.model.epoch == 3 and lap.model.connected, lap.model.name
        assert lap.model.succession is not None and lap.model.succession.host == bob.pid
        sid, pawns = seen[lap.model.name]
        assert lap.model.pawns == pawns and lap.model.sid >= sid, lap.model.name
    finishes(lan.hosts[bob.pid], [bob, cat])
