"""One fold of the game on each laptop (issue 30): the board, the line mode, a bot and
the replay of one game show the same figures (turns, Sorry!s, slides, bumps), on
every laptop, and the host's record says the same: through a takeover mid-game, and
through a handover at game over (a screen's figures do not change when the game is
shown again by the new host).  Laptops of ``test_takeover_in_memory`` on the in-memory
pair, each with every reader fed its events in order."""

from __future__ import annotations

from collections import Counter

from test_takeover_in_memory import D, Lan, Laptop, play, table

from sorry_lan.client.figures import count
from sorry_lan.client.model import ClientEvent
from sorry_lan.replay.seen import tape_of
from sorry_lan.rules import Phase, Variant
from sorry_lan.tui.feed import apply_event
from sorry_lan.tui.news import record_stats
from sorry_lan.tui.state import Screen, UiState
from sorry_lan.tui.telling import Teller
from sorry_lan.wire import messages as m

Stats = dict[int, Counter[str]]


class Readers:
    """What one laptop shows: its board, its line mode, a bot at its seat and its
    replay, each fed the laptop's events in order (as a queue hands them out)."""

    def __init__(self, lap: Laptop) -> None:
        self.lap = lap
        self.board = UiState(screen=Screen.LOBBY)
        self.teller = Teller()
        self.bot: Stats | None = None  # the figures a bot keeps at game over
        self.read = 0

    def catch_up(self) -> None:
        model = self.lap.model
        for ev in self.lap.events[self.read :]:
            self.show(ev)
        self.read = len(self.lap.events)
        assert self.board.position == model.view.pawns or not model.view.pawns

    def show(self, ev: ClientEvent) -> None:
        model = self.lap.model
        apply_event(self.board, model, ev)
        self.teller.tell(model, ev)
        if isinstance(ev, m.GameOver):  # (as run_bot reads them: BotStats.figures)
            self.bot = model.view_at(ev).figures.counters()
        if isinstance(ev, m.Events):  # never a board ahead of the event read
            assert self.board.position == model.view_at(ev).pawns

    def replay(self) -> Stats:
        tape = tape_of(self.lap.model.view)
        assert tape is not None and tape.whole and tape.over
        return count(step.entry for step in tape.steps).counters()

    def figures(self) -> list[Stats]:
        """The board's, the line mode's, the bot's and the replay's."""
        assert self.bot is not None
        return [self.board.stats, self.teller.figures.counters(), self.bot, self.replay()]


def _clean(stats: Stats) -> Stats:
    return {c: +counter for c, counter in stats.items()}


def played_out(pair: object, laptops: list[Laptop], readers: list[Readers]) -> None:
    play(pair, laptops)  # type: ignore[arg-type]
    for reader in readers:
        reader.catch_up()


def test_after_a_takeover_every_reader_on_every_laptop_shows_the_host_s_figures() -> None:
    old, laptops, _own = table(Variant.STANDARD)
    readers = [Readers(lap) for lap in laptops]
    for reader in readers:
        reader.catch_up()
    lan = Lan(old, laptops)
    lost = old.now  # the host is gone mid-game
    lan.host_lost(lost + 0.1, laptops)
    lan.tick(lost + D + 3)
    new = lan.hosts[laptops[0].pid]
    assert all(lap.model.epoch == 2 and lap.model.connected for lap in laptops)
    played_out(new, laptops, readers)
    assert new.table.game is not None and new.table.game.over
    host = new.core.game_log.record()
    assert host is not None and host["result"] is not None
    expected = _clean(record_stats(host))
    assert sum(c["turns"] for c in expected.values()) > 20
    for reader in readers:
        kept = reader.lap.model.records[0].record  # the first whole record, kept
        assert _clean(record_stats(kept)) == expected
        for shown in reader.figures():
            assert _clean(shown) == expected, reader.lap.model.name
        assert not reader.board.stats_partial


def test_a_handover_at_game_over_changes_no_screen_s_figures() -> None:
    old, laptops, own = table(Variant.STANDARD)
    readers = [Readers(lap) for lap in laptops]
    played_out(old, [own, *laptops], readers)
    assert old.table.game is not None and old.table.game.over
    host = old.core.game_log.record()
    assert host is not None
    expected = _clean(record_stats(host))
    before = []
    for reader in readers:
        figures = [_clean(s) for s in reader.figures()]
        assert figures == [expected] * 4, reader.lap.model.name
        before.append(reader.lap.model.view.history)
    lan = Lan(old, laptops)
    assert old.core.can_hand_over()
    old.run(old.core.handover(old.now))
    old.pump()
    heir = next(lap for lap in laptops if any(n.kind == "handover" and n.you for n in lap.news()))
    lan.carry_out(heir, [])
    for lap in laptops:
        if lap is not heir:
            lan.carry_out(lap, [])
    lan.tick(lan.now + D + 3)
    new = lan.hosts[heir.pid]
    assert new.table.phase is Phase.FINISHED
    for reader, history in zip(readers, before, strict=True):
        model = reader.lap.model
        reader.catch_up()
        assert model.epoch == 2 and model.connected and model.over is not None
        assert any(isinstance(ev, m.Snapshot) for ev in reader.lap.events[-12:])  # shown again
        assert model.view.history.entries == history.entries  # the same game so far
        figures = [_clean(s) for s in reader.figures()]
        assert figures == [expected] * 4, model.name
        assert len(model.records) == 1  # the second copy is not kept
