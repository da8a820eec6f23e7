"""ClientModel at a real HostCore, in memory (``tests/authority/pair.py``): the host's
answers to what the model asks (a resync), the table's chat so far as a new process, a
reconnected client and a spectator hear it, and the discard pile a version-2 client is
told (and a version-1 peer is not).  No sockets, no sleeps."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import msgpack
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import (
    REPLAY_MISMATCH,
    ClientEvent,
    ClientModel,
    ReplayMismatch,
)
from sorry_lan.rules import HOME, Variant
from sorry_lan.rules.cards import card_counts
from sorry_lan.wire import messages as m
from sorry_lan.wire.limits import SUPPORTED_VERSIONS


class Heard:
    """A client end on a :class:`ClientModel` that keeps the events it returned."""

    def __init__(self, model: ClientModel) -> None:
        self.model = model
        self.events: list[ClientEvent] = []

    def receive_data(self, data: bytes, now: float) -> list[ClientEvent]:
        got = self.model.receive_data(data, now)
        self.events += got
        return got

    def data_to_send(self) -> bytes:
        return self.model.data_to_send()

    def chat(self) -> list[str]:
        """The chat texts passed on since the last call."""
        said = [ev.text for ev in self.events if isinstance(ev, m.Chat)]
        self.events.clear()
        return said


def arrive(pair: Pair, model: ClientModel) -> tuple[int, Heard]:
    """Open a connection for ``model`` and let it join."""
    model.join(pair.now)
    cid, end = pair.connect(Heard(model))
    pair.pump()
    assert model.connected
    return cid, end


def say(pair: Pair, model: ClientModel, text: str) -> None:
    model.send(m.Chat(pid=None, text=text))
    pair.pump()


def chat_table() -> Pair:
    return Pair(Table(TableConfig(seats=2, auto_start=True, seed=3)))


def test_the_host_answers_a_replay_mismatch_with_a_snapshot(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = Table(TableConfig(variant=Variant.STANDARD, seats=2, auto_start=True, seed=3,
                              bot_delay=0.05))
    for _ in range(2):
        table.add_bot(None)
    pair = Pair(table)
    watcher = ClientModel("watcher", spectate=True)
    _cid, end = arrive(pair, watcher)
    while not any(isinstance(ev, m.Snapshot) for ev in end.events):
        pair.advance(0.05)
    end.events.clear()
    watcher.seen._pawns = (HOME,) * 16  # the fold's board out of step with the host's
    with caplog.at_level(logging.WARNING):
        while not any(isinstance(ev, m.Snapshot) for ev in end.events):
            pair.advance(0.05)
    at = next(i for i, ev in enumerate(end.events) if isinstance(ev, m.Snapshot))
    before, snap = end.events[:at], end.events[at]
    assert isinstance(snap, m.Snapshot)
    told = [i for i, ev in enumerate(before) if isinstance(ev, ReplayMismatch)]
    assert len(told) == 1 and isinstance(before[told[0] + 1], m.Events)  # then its events
    assert all(isinstance(ev, m.Events | m.Turn | m.Lobby | ReplayMismatch) for ev in before)
    assert [r.getMessage() for r in caplog.records if REPLAY_MISMATCH in r.getMessage()]
    caplog.clear()  # seen: the suite-wide check must not count it
    pair.advance(1.0)  # the game goes on over the board the snapshot gave
    game = table.game
    assert game is not None and watcher.replay_mismatches == 1
    assert watcher.pawns == game.pawns and watcher.sid == game.state_id > snap.sid


def test_a_player_whose_process_died_hears_the_chat_so_far() -> None:
    pair = chat_table()
    ann, bob = ClientModel("ann"), ClientModel("bob")
    _a, ann_end = arrive(pair, ann)
    bob_cid, _b = arrive(pair, bob)  # the game starts
    say(pair, ann, "good luck")
    say(pair, bob, "you too")
    assert ann_end.chat() == ["good luck", "you too"]
    pair.lose(bob_cid)  # its process dies: the new one knows nothing
    again = ClientModel("bob", token=bob.token)
    _c, again_end = arrive(pair, again)
    say(pair, ann, "welcome back")
    assert again_end.chat() == ["good luck", "you too", "welcome back"]
    assert again.pid in {p.pid for p in pair.table.players.values()}


def test_the_lobbys_chat_is_told_again_to_a_player_back_in_the_lobby() -> None:
    pair = Pair(Table(TableConfig(seats=3, seed=3)))
    ann, bob = ClientModel("ann"), ClientModel("bob")
    arrive(pair, ann)
    bob_cid, bob_end = arrive(pair, bob)
    say(pair, ann, "red or blue?")
    say(pair, bob, "blue for me")
    assert bob_end.chat() == ["red or blue?", "blue for me"]
    pair.lose(bob_cid)  # its process dies in the lobby; its seat waits out the grace
    again = ClientModel("bob", token=bob.token)
    again_cid, again_end = arrive(pair, again)
    assert again_end.chat() == ["red or blue?", "blue for me"]
    pair.lose(again_cid)
    _r, reconnected = arrive(pair, again)  # the same process again: nothing twice
    assert reconnected.chat() == []
    cat = ClientModel("cat")
    _d, cat_end = arrive(pair, cat)  # a newcomer hears it too
    assert cat_end.chat() == ["red or blue?", "blue for me"]
    pair.table.lobby_chat.append((99, "from someone who left"))  # (only those seated)
    _e, dan_end = arrive(pair, ClientModel("dan", spectate=True))
    assert dan_end.chat() == ["red or blue?", "blue for me"]


def test_a_reconnected_client_hears_only_what_it_missed() -> None:
    pair = chat_table()
    ann, bob = ClientModel("ann"), ClientModel("bob")
    arrive(pair, ann)
    bob_cid, bob_end = arrive(pair, bob)
    say(pair, ann, "one")
    say(pair, ann, "one")  # said twice: heard twice
    assert bob_end.chat() == ["one", "one"]
    pair.lose(bob_cid)  # the link drops; the same model joins again
    say(pair, ann, "while away")
    _again, back = arrive(pair, bob)
    say(pair, ann, "after")
    assert back.chat() == ["while away", "after"]
    assert bob.chat_heard == ["one", "one", "while away", "after"]


def test_a_spectator_hears_the_chat_so_far() -> None:
    pair = chat_table()
    ann, bob = ClientModel("ann"), ClientModel("bob")
    arrive(pair, ann)
    _b, bob_end = arrive(pair, bob)
    say(pair, ann, "hi")
    assert bob_end.chat() == ["hi"]
    eve = ClientModel("eve", spectate=True)
    _e, eve_end = arrive(pair, eve)
    say(pair, bob, "hello eve")
    assert eve_end.chat() == ["hi", "hello eve"]


def frames(raw: bytes) -> list[dict[str, object]]:
    """Each frame of ``raw`` as the map it carried, field names as sent."""
    maps = []
    while raw:
        size = int.from_bytes(raw[:4], "big")
        maps.append(msgpack.unpackb(raw[4 : 4 + size], raw=False))
        raw = raw[4 + size :]
    return maps


def test_a_snapshot_tells_the_pile_on_version_2_and_leaves_it_out_on_version_1() -> None:
    table = Table(TableConfig(seats=3, auto_start=True, seed=4))
    table.add_bot(None)
    pair = Pair(table)
    new = ClientModel("new")
    _n, new_end = arrive(pair, new)
    _o, old = pair.join("old", versions=(1,))  # the table is full: the game starts
    game = table.game
    assert game is not None and new.session is not None
    assert new.session.version == SUPPORTED_VERSIONS[-1]
    snap = next(ev for ev in new_end.events if isinstance(ev, m.Snapshot))
    assert snap.discarded == card_counts(game.deck.discards[: snap.discards])
    assert new.discarded == snap.discarded and len(new.discarded) == 14
    first = next(f for f in frames(bytes(old.raw)) if f.get("t") == "snapshot")
    assert "discarded" not in first
    assert set(first) == {"t"} | {n for n, _ in m.Snapshot.FIELDS} - {"discarded"}
