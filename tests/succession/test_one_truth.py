"""One truth of the evening (issue 32): after a takeover mid-game or at game over, a
handover at game over or a rejoin after a takeover, every laptop keeps the same games
and reads them back alike: each game listed once (never a kept copy beside the journal
of the laptop that hosted it), whole from its first turn with the right first player,
the same figures and the same scoreboard.  Laptops of ``test_takeover_in_memory`` on
the in-memory pair, each with a data directory of its own (``evenings.Keeper``)."""

from __future__ import annotations

from pathlib import Path

from evenings import Keeper, Seen, differ, seen
from pair import EPOCH, Pair
from test_takeover_in_memory import TID, D, Lan, Laptop, play, table

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.takeover import build_table
from sorry_lan.records.entries import colour_word
from sorry_lan.rules import Phase, Variant
from sorry_lan.wire import messages as m


class Evening(Lan):
    """The LAN, its hosts journalling with the time of day, and each laptop's keeper."""

    def __init__(self, old: Pair, laptops: list[Laptop], own: Laptop, root: Path) -> None:
        super().__init__(old, laptops)
        self.all = [own, *laptops]
        self.keepers = {lap.model.name: Keeper(root / lap.model.name) for lap in self.all}
        self.keepers[own.model.name].host(old)

    def take_over(self, lap: Laptop, epoch: int) -> None:
        knowledge = lap.model.knowledge()
        assert knowledge is not None and lap.model.pid is not None
        table = build_table(knowledge, epoch=epoch, now=self.now, seed=11,
                            wall=EPOCH + self.now)  # fmt: skip
        pair = Pair(table, HostOptions(table_id=TID, epoch=epoch, takeover_delay=D))
        pair.now = self.now
        self.hosts[lap.model.pid] = pair
        self.keepers[lap.model.name].host(pair)
        self.standbys.pop(lap.model.pid, None)
        lap.model.join(self.now)
        pair.connect(lap, "127.0.0.1")
        pair.pump()

    def file(self, laps: list[Laptop] | None = None) -> None:
        for lap in laps if laps is not None else self.all:
            self.keepers[lap.model.name].file(lap.model)

    def seen(self, names: list[str] | None = None) -> dict[str, Seen]:
        out = {}
        for name, keeper in self.keepers.items():
            if names is None or name in names:
                keeper.write()
                out[name] = seen(keeper.root)
        return out


def moves_in(*journals: list[dict[str, object]]) -> int:
    return sum(1 for j in journals for r in j if r.get("k") == "move")


def first_of(journal: list[dict[str, object]]) -> str:
    head = next(r for r in journal if r.get("k") == "game")
    return colour_word(int(head["first"]))  # type: ignore[call-overload]


def lose(old: Pair, lan: Evening, laps: list[Laptop]) -> Pair:
    lost = old.now
    lan.host_lost(lost + 0.1, laps)
    lan.tick(lost + D + 3)
    return lan.hosts[laps[0].pid]


def test_a_takeover_mid_game_is_one_whole_game_on_every_laptop(tmp_path: Path) -> None:
    old, laptops, own = table(Variant.STANDARD)
    lan = Evening(old, laptops, own, tmp_path)
    new = lose(old, lan, laptops)
    play(new, laptops)
    assert new.table.game is not None and new.table.game.over
    lan.file()
    evening = lan.seen(["ann", "bob", "cat"])
    assert differ(evening) == []
    rows = evening["bob"].rows
    assert len(rows) == 1 and rows[0].moves == moves_in(old.journal, new.journal)
    assert rows[0].first == first_of(old.journal) and rows[0].number == 1
    # the old host, lost mid-game, counts nothing (it never saw the game end)
    assert lan.seen(["host"])["host"].stats == []


def test_a_takeover_at_game_over_is_one_game_on_every_laptop(tmp_path: Path) -> None:
    old, laptops, own = table(Variant.STANDARD)
    lan = Evening(old, laptops, own, tmp_path)
    play(old, [own, *laptops])
    lan.file()
    new = lose(old, lan, laptops)
    assert new.table.phase is Phase.FINISHED
    lan.file()
    evening = lan.seen()
    assert differ(evening) == []
    rows = evening["ann"].rows
    assert len(rows) == 1 and rows[0].moves == moves_in(old.journal)
    assert rows[0].first == first_of(old.journal)


def test_a_handover_at_game_over_is_one_game_on_every_laptop(tmp_path: Path) -> None:
    old, laptops, own = table(Variant.STANDARD)
    lan = Evening(old, laptops, own, tmp_path)
    play(old, [own, *laptops])
    lan.file()
    assert old.core.can_hand_over()
    old.run(old.core.handover(old.now))
    old.pump()
    heir = next(lap for lap in laptops if any(n.kind == "handover" and n.you for n in lap.news()))
    for lap in [heir, *(x for x in laptops if x is not heir)]:
        lan.carry_out(lap, [])
    lan.tick(lan.now + D + 3)
    assert lan.hosts[heir.pid].table.phase is Phase.FINISHED
    lan.file()
    evening = lan.seen()
    assert differ(evening) == []
    rows = evening["host"].rows
    assert len(rows) == 1 and rows[0].moves == moves_in(old.journal)


def test_a_rejoin_after_a_takeover_and_a_rematch_agree_on_every_laptop(tmp_path: Path) -> None:
    """Cat sleeps through the takeover and comes back to Ann's table mid-game; the
    game ends there and the rematch is played there too: game 1 and game 2 for all."""
    old, laptops, own = table(Variant.STANDARD)
    ann, bob, cat = laptops
    lan = Evening(old, laptops, own, tmp_path)
    del lan.laptops[cat.pid]  # asleep: it hears nothing and does nothing
    new = lose(old, lan, [ann, bob])
    play(new, [ann, bob], moves=6)
    lan.laptops[cat.pid] = cat
    lan.now = new.now
    lan.host_lost(lan.now, [cat])  # awake: the old host is gone; Ann hosts
    lan.tick(lan.now + D + 3)
    assert cat.model.epoch == 2 and cat.model.connected
    play(new, laptops)
    assert new.table.game is not None and new.table.game.over
    lan.file()
    for lap in laptops:
        lap.model.send(m.Rematch())
    new.pump()
    new.advance(1.0)
    assert new.table.games_played == 2 and new.table.phase is Phase.PLAYING
    play(new, laptops)
    lan.file()
    evening = lan.seen(["ann", "bob", "cat"])
    assert differ(evening) == []
    rows = evening["cat"].rows
    assert [r.number for r in rows] == [1, 2]
    assert rows[0].first == first_of(old.journal)


def test_a_host_asleep_while_its_game_ended_elsewhere_lists_no_result(tmp_path: Path) -> None:
    """The host's laptop sleeps (SIGSTOP) through the takeover and the game's end at
    Ann's.  Woken, it finds none of its laptops: the game waits there (the succession
    fixes of issue 31: it never plays on alone), so its journal holds no winner, and
    its listing and scoreboard count nothing the others did not see."""
    old, laptops, own = table(Variant.STANDARD)
    lan = Evening(old, laptops, own, tmp_path)
    new = lose(old, lan, laptops)
    play(new, laptops)
    assert new.table.game is not None and new.table.game.over
    lan.file()
    moved = old.table.game
    assert moved is not None and not moved.over
    before = moved.moves_played
    old.now = lan.now  # awake: every connection it had is gone
    for cid in list(old.open):
        old.lose(cid)
    old.advance(5 * 60.0)
    assert old.core.paused and moved.moves_played == before and not moved.over
    assert not [r for r in old.journal if r.get("k") == "move" and "t" in r]  # no end
    woken = lan.seen(["host"])["host"]
    assert woken.stats == [] and woken.rows == []
    # the others list and count the game Ann's host ended, alike
    assert differ(lan.seen(["ann", "bob", "cat"])) == []


def test_a_takeover_in_the_rematch_keeps_both_games_apart_and_numbered(tmp_path: Path) -> None:
    """Game 1 ends at the first host, the rematch begins there and is taken over by
    Ann mid-game: every laptop lists game 1 and game 2 once each, game 2 whole; the
    old host's journal holds game 1 and a piece of game 2, never one game for both."""
    old, laptops, own = table(Variant.STANDARD)
    lan = Evening(old, laptops, own, tmp_path)
    play(old, [own, *laptops])
    lan.file()
    old.advance(120.0)  # (games in one second: their order is the listing's, issue 32)
    for lap in [own, *laptops]:
        lap.model.send(m.Rematch())
    old.pump()
    old.advance(1.0)
    assert old.table.games_played == 2 and old.table.phase is Phase.PLAYING
    play(old, [own, *laptops], moves=10)
    new = lose(old, lan, laptops)
    play(new, laptops)
    assert new.table.game is not None and new.table.game.over
    lan.file()
    evening = lan.seen(["ann", "bob", "cat"])
    assert differ(evening) == []
    rows = evening["cat"].rows
    second = [r for r in old.journal if r.get("k") == "game"][1]
    assert [r.number for r in rows] == [1, 2]
    assert rows[1].first == first_of([second])
    assert rows[1].moves == moves_in(old.journal[old.journal.index(second):], new.journal)
    mine = lan.seen(["host"])["host"]
    assert [r.number for r in mine.rows] == [1]
    assert [p.number for g in mine.listed for p in g.games] == [1, 2]


def test_a_takeover_after_a_bot_covered_a_person_away_is_whole_on_every_laptop(
    tmp_path: Path,
) -> None:
    """Cat's laptop goes away mid-game and a bot plays her turns after the grace (a
    ``cover`` no ``events`` tells); then the host is lost and Ann takes over.  The host
    sent everyone the game so far after the cover (SPEC 7), so Ann's record of it, and
    the successor's, is whole from the first turn with the cover where the host wrote
    it (before: every laptop lost the game so far at Cat's covered turn, and the
    successor's record began at the takeover)."""
    old, laptops, own = table(Variant.STANDARD)
    ann, bob, cat = laptops
    lan = Evening(old, laptops, own, tmp_path)
    del lan.laptops[cat.pid]  # gone: it hears nothing and does nothing
    old.lose(next(cid for cid, c in old.clients.items() if c is cat))
    play(old, [own, ann, bob], moves=12)
    covers = [r for r in old.journal if r.get("k") == "cover"]
    assert covers and covers[0]["colour"] == cat.model.colour
    record = old.core.game_log.record()
    assert record is not None
    for lap in (ann, bob):
        kept = lap.model.knowledge()
        assert kept is not None and kept.so_far is not None
        assert kept.so_far["turns"] == record["turns"]
    new = lose(old, lan, [ann, bob])
    play(new, [ann, bob])
    assert new.table.game is not None and new.table.game.over
    lan.file([ann, bob])
    evening = lan.seen(["ann", "bob"])
    assert differ(evening) == []
    [row] = evening["ann"].rows
    assert row.whole and row.first == first_of(old.journal)
    assert row.moves == moves_in(old.journal, new.journal)


def test_a_second_takeover_names_every_host_the_game_passed_through(tmp_path: Path) -> None:
    """Ann takes the table over, then Ann's laptop is lost too and Bob takes over: the
    game's record names the three hosts, oldest first (Bob's game so far is Ann's
    record, which names the first host; before, his own record named Ann and Bob
    only, and a laptop holding the first host's journal or Ann's could not tell the
    game went on past it)."""
    old, laptops, own = table(Variant.STANDARD)
    ann, bob, cat = laptops
    lan = Evening(old, laptops, own, tmp_path)
    second = lose(old, lan, laptops)
    play(second, laptops, moves=6)
    lan.dead.add(ann.pid)  # Ann's laptop, host and all, is gone
    del lan.laptops[ann.pid], lan.hosts[ann.pid]
    lan.now = second.now
    third = lose(second, lan, [bob, cat])
    assert third is not second and third.table.epoch == 3
    record = third.core.game_log.record()  # (the game so far: as at its end)
    assert record is not None
    hosts = record["hosts"]
    assert isinstance(hosts, list)
    assert [h["host"] for h in hosts] == ["host", "ann", "bob"]
    assert [h["epoch"] for h in hosts] == [1, 2, 3]
