"""The game's statistics at game over come from the host's record (protocol version 3):
the same for a player there from the start and for one whose process died and came
back mid-game (no "counted since you joined"), and equal to what the events counted.
A real HostCore in memory (``tests/authority/pair.py``), ClientModels and the feed."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import ClientEvent, ClientModel, GameRecord
from sorry_lan.rules import Variant
from sorry_lan.tui.feed import apply_event
from sorry_lan.tui.news import record_stats
from sorry_lan.tui.state import Screen, UiState


class Fed:
    """A client end: a ClientModel whose events go to a UiState through the feed."""

    def __init__(self, model: ClientModel) -> None:
        self.model = model
        self.state = UiState()
        self.counted: dict[int, dict[str, int]] = {}  # the stats the events made
        self.records_seen: list[GameRecord] = []

    def receive_data(self, data: bytes, now: float) -> list[ClientEvent]:
        got = self.model.receive_data(data, now)
        for ev in got:
            if isinstance(ev, GameRecord):
                self.records_seen.append(ev)
            if isinstance(ev, GameRecord) and ev.whole:
                self.counted = {c: dict(n) for c, n in self.state.stats.items()}
            apply_event(self.state, self.model, ev)
        return got

    def data_to_send(self) -> bytes:
        return self.model.data_to_send()


def _arrive(pair: Pair, model: ClientModel) -> tuple[int, Fed]:
    model.join(pair.now)
    cid, end = pair.connect(Fed(model))
    pair.pump()
    assert model.connected
    return cid, end


def _plain(stats: Mapping[int, Mapping[str, int]]) -> dict[int, dict[str, int]]:
    return {c: {k: v for k, v in n.items() if v} for c, n in stats.items()}


def test_a_player_back_mid_game_sees_the_same_statistics_as_everyone() -> None:
    for variant, seed in ((Variant.STANDARD, 31), (Variant.POINTS, 32), (Variant.TEAM, 33)):
        table = Table(TableConfig(variant=variant, seats=2, auto_start=True, seed=seed))
        pair = Pair(table)
        ann, bob = ClientModel("ann"), ClientModel("bob")
        _a, ann_end = _arrive(pair, ann)
        bob_cid, _b = _arrive(pair, bob)
        pair.play_models([ann, bob], turns=12, pick=-1)
        pair.lose(bob_cid)  # its process dies
        again = ClientModel("bob", token=bob.token)
        _c, back = _arrive(pair, again)
        assert not back.state.stats_partial  # the game so far came with the snapshot
        pair.play_models([ann, again], pick=-1)
        for end in (ann_end, back):
            assert end.state.screen is Screen.OVER and not end.state.stats_partial
        assert _plain(back.state.stats) == _plain(ann_end.state.stats)
        # the record counts what the events counted all along, and the turns lost
        # before the first decision, which no event tells (the first snapshot shows
        # them; in an order it cannot tell, the host's record at the start does)
        record = again.records[-1].record
        assert _plain(record_stats(record)) == _plain(back.state.stats)
        first_move = next(t["n"] for t in record["turns"] if t["type"] == "move")
        told = any(isinstance(r, GameRecord) and not r.whole for r in ann_end.records_seen)
        for t in record["turns"][: first_move - 1]:
            assert t["type"] in ("lost", "reshuffle")
            if t["type"] == "lost" and not told:
                seat = ann_end.counted[{"red": 0, "blue": 1, "yellow": 2, "green": 3}[t["who"]]]
                seat["turns"] = seat.get("turns", 0) + 1
        assert _plain(ann_end.counted) == _plain(ann_end.state.stats)
        assert sum(n["turns"] for n in ann_end.state.stats.values()) > 20


def test_a_player_back_mid_game_gets_the_log_of_the_whole_game() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=31))
    pair = Pair(table)
    ann, bob = ClientModel("ann"), ClientModel("bob")
    _a, _ann_end = _arrive(pair, ann)
    bob_cid, bob_end = _arrive(pair, bob)
    pair.play_models([ann, bob], turns=12, pick=-1)
    said = ("You:", "Red (ann):")
    seen_before = [line for line in bob_end.state.log if line.startswith(said)]
    assert len(seen_before) >= 10
    pair.lose(bob_cid)  # its process dies
    again = ClientModel("bob", token=bob.token)
    again_cid, back = _arrive(pair, again)
    log = list(back.state.log)
    earlier = [line for line in log if line.startswith(said)]
    assert len(earlier) >= len(seen_before)  # the whole game so far, not "since you joined"
    assert log.index(earlier[-1]) < log.index("back at the game in progress")
    pair.play_models([ann, again], turns=4, pick=-1)
    # the same process reconnecting (its log goes on) does not get the game twice
    before = list(back.state.log)
    pair.lose(again_cid)
    again.connection_lost()
    again.join(pair.now)
    pair.connect(back)
    pair.pump()
    after = list(back.state.log)
    assert after[: len(before)] == before
    assert len(after) - len(before) < 5  # a line or two about coming back, no replay


def test_a_record_that_begins_at_a_takeover_does_not_undo_what_this_player_counted() -> None:
    """A new host's record of the game begins where it took over (no laptop was sent the
    game so far): a player who saw the whole game keeps its own counts at game over; a
    record that saw more (the old host's, the whole game) is taken."""
    table = Table(TableConfig(seats=2, auto_start=True, seed=31))
    pair = Pair(table)
    ann, bob = ClientModel("ann"), ClientModel("bob")
    _a, ann_end = _arrive(pair, ann)
    _arrive(pair, bob)
    pair.play_models([ann, bob], pick=-1)
    whole = ann.records[-1].record
    counted = _plain(ann_end.state.stats)
    assert ann_end.state.screen is Screen.OVER and counted == _plain(record_stats(whole))
    tail = {**whole, "turns": whole["turns"][-6:]}  # the successor's, from its takeover
    apply_event(ann_end.state, ann, GameRecord(1, tail))
    assert _plain(ann_end.state.stats) == counted
    ann_end.state.stats = {c: type(n)() for c, n in ann_end.state.stats.items()}  # (partial)
    apply_event(ann_end.state, ann, GameRecord(1, whole))
    assert _plain(ann_end.state.stats) == counted
