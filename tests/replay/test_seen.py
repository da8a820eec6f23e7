"""A tape from what a client was told (read from its model's table view): the host's
events of a whole game become the same turns, boards and result as the game's record;
a client that came in late gets a tape that says so; a rematch starts a new tape."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))

from pair import Pair, RawClient, hello, spectate

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import ClientModel
from sorry_lan.client.so_far import SoFar
from sorry_lan.client.view import TableView
from sorry_lan.records import from_journal
from sorry_lan.replay import from_record
from sorry_lan.replay.seen import entries_of, tape_of
from sorry_lan.rules import Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.records import EventKind

QUIET = HostOptions(heartbeat=1000.0, dead_after=5000.0)


def _played(variant: Variant, seats: int, seed: int) -> tuple[Pair, RawClient, ClientModel]:
    """A headless table of bots and a person whose turns a bot plays at once, played
    to its end, watched from before it began."""
    config = TableConfig(seats=seats, auto_start=True, seed=seed, variant=variant,
                         turn_timeout=0.0)  # fmt: skip
    table = Table(config)
    for _ in range(seats - 1):
        table.add_bot(None)
    pair = Pair(table, QUIET)
    _w, watcher = pair.connect(RawClient())
    watcher.send(spectate("eve"))
    pair.pump()
    zed = ClientModel("zed", spectate=True)  # a client model watching: its view's tape
    zed.join(pair.now)
    pair.connect(zed)
    pair.pump()
    _a, ann = pair.connect(RawClient())
    ann.send(hello("ann"))  # the last seat taken: the game is played in one burst
    pair.pump()
    return pair, watcher, zed


@pytest.mark.parametrize(
    ("variant", "seats", "seed"),
    [(Variant.STANDARD, 2, 3), (Variant.STANDARD, 4, 8), (Variant.TEAM, 4, 5),
     (Variant.POINTS, 3, 6)],
)  # fmt: skip
def test_the_events_of_a_whole_game_are_its_records_turns(
    variant: Variant, seats: int, seed: int
) -> None:
    pair, _watcher, zed = _played(variant, seats, seed)
    tape = tape_of(zed.view)
    assert tape is not None and tape.over
    recorded = from_record(from_journal(pair.journal))
    # the turns lost before the first move are told in no events: the first snapshot
    # tells them (whole), unless their order is not known (then the rest are the same)
    turns = [s for s in recorded.steps if s.kind not in ("seat", "cover", "back")]
    unseen = next(k for k, s in enumerate(turns) if s.kind == "move")
    assert all(s.kind == "lost" for s in turns[:unseen])
    assert tape.whole is (zed.seen.why is None)
    turns = turns if tape.whole else turns[unseen:]
    assert [s.entry for s in tape.steps] == [s.entry for s in turns]  # numbers too
    assert [s.pawns for s in tape.steps] == [s.pawns for s in turns]
    assert tape.winners == recorded.winners
    assert tape.first == (recorded.first if tape.whole else None)
    assert tape.start == recorded.start and tape.seated == recorded.seated
    if variant is Variant.POINTS:
        assert tape.points == recorded.points == tape.steps[-1].scores
    assert tape.names == recorded.names and tape.bots == recorded.bots


def _told(got: list[m.Message], seen: SoFar, snap: m.Snapshot,
          lobby: m.Lobby | None = None) -> TableView:  # fmt: skip
    """The view of a client that was told ``got`` after ``snap`` (and ``lobby``)."""
    over = next((x for x in got if isinstance(x, m.GameOver)), None)
    for msg in got:
        if isinstance(msg, m.Events):
            seen.events(msg)
    return TableView(variant=snap.variant, seated=tuple(int(c) for c in snap.colours),
                     pawns=seen.board, over=over, history=seen.history(),
                     lobby=lobby)  # fmt: skip


def test_a_client_that_came_in_late_has_a_tape_from_there() -> None:
    pair, watcher, _zed = _played(Variant.STANDARD, 2, 3)
    got = watcher.inbox
    snap = next(x for x in got if isinstance(x, m.Snapshot))
    played = [x for x in got if isinstance(x, m.Events) and x.colour is not None]
    late = played[10]
    seen = SoFar()
    seen.begin(snap, None)
    seen.snapshot(replace(snap, sid=late.sid - 1, pawns=_board_before(got, late)))
    lobby = next(x for x in got if isinstance(x, m.Lobby))
    tape = tape_of(_told(got[got.index(late):], seen, snap, lobby))
    assert tape is not None and not tape.whole and tape.over and tape.first is None
    assert tape.steps[0].n == 1 and tape.steps[-1].pawns == pair_final(pair)


def test_a_rematch_starts_a_new_tape_and_the_same_snapshot_again_keeps_it() -> None:
    _pair, watcher, _zed = _played(Variant.STANDARD, 2, 3)
    got = watcher.inbox
    seen = SoFar()
    snap = next(x for x in got if isinstance(x, m.Snapshot))
    seen.begin(snap, None)
    before = tape_of(_told(got[got.index(snap) : got.index(snap) + 5], seen, snap))
    assert before is not None and before.steps
    sid = max(x.sid for x in got[: got.index(snap) + 5] if isinstance(x, m.Events))
    seen.snapshot(replace(snap, sid=sid, pawns=before.steps[-1].pawns))  # a resync
    again = tape_of(_told([], seen, snap))
    assert again is not None and again.steps == before.steps and again.whole == before.whole
    _told(got[got.index(snap) + 5 :], seen, snap)
    seen.begin(snap, None)  # a new game from the start
    fresh = tape_of(_told([], seen, snap))
    assert fresh is not None and fresh.steps == () and not fresh.over
    assert tape_of(TableView()) is None


def test_a_sorry_a_swap_a_split_and_a_declined_eleven_are_worded_as_a_record_words_them() -> None:
    sorry = entries_of([(EventKind.PLAY, 0, 13), (EventKind.MOVE, 0, 64, 30),
                        (EventKind.BUMP, 5, 30)])  # fmt: skip
    assert sorry[0]["kind"] == "sorry" and sorry[0]["target"] == "B2"
    assert sorry[0]["parts"][1] == {"pawn": "B2", "from": 30, "to": "start", "end": "start",
                                    "bumps": []}  # fmt: skip
    swap = entries_of([(EventKind.PLAY, 0, 11), (EventKind.MOVE, 0, 3, 30),
                       (EventKind.MOVE, 5, 30, 3)])  # fmt: skip
    assert swap[0]["kind"] == "swap" and swap[0]["target"] == "B2"
    split = entries_of([(EventKind.PLAY, 0, 7), (EventKind.MOVE, 0, 3, 6),
                        (EventKind.MOVE, 1, 10, 14), (EventKind.SLIDE, 1, 14, 17)])  # fmt: skip
    assert split[0]["kind"] == "split" and split[0]["parts"][1]["end"] == 17
    declined = entries_of([(EventKind.TURN_LOST, 0, 11)], "decline the 11", colour=0)
    assert declined[0]["kind"] == "decline" and declined[0]["parts"] == []
    assert entries_of([(EventKind.TURN_LOST, 0, 11)])[0]["type"] == "lost"


def _board_before(got: list[m.Message], events: m.Events) -> tuple[int, ...]:
    from sorry_lan.wire.apply import apply_events

    snap = next(x for x in got if isinstance(x, m.Snapshot))
    pawns = tuple(snap.pawns)
    for msg in got[got.index(snap) : got.index(events)]:
        if isinstance(msg, m.Events):
            pawns = apply_events(pawns, msg.events)
    return pawns


def pair_final(pair: Pair) -> tuple[int, ...]:
    return from_record(from_journal(pair.journal)).steps[-1].pawns
