"""The table moves to another laptop: handed over by a host that leaves on purpose,
or given up by a host that was cut off and finds a newer epoch of its table; a host
with a quorum refutes a claimant instead."""

from __future__ import annotations

from pair import Pair, SessionClient

from sorry_lan.authority import effects as fx
from sorry_lan.authority import heirs
from sorry_lan.authority.core import ALIVE_TEXT
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.codes import Said
from sorry_lan.i18n.coded import say_in
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.transitions import State
from sorry_lan.wire.vocab import ByeReason

D = 5.0


def _table(epoch: int = 1) -> tuple[Pair, SessionClient, SessionClient, SessionClient]:
    """The host's own player (red), ann (blue, a laptop), bob (yellow, a laptop) and an
    old client (green, version 3), in a game."""
    table = Table(TableConfig(seats=4, seed=6))
    own, token = table.join(None, "host")
    table.owner = own.pid
    opts = HostOptions(heartbeat=1000.0, dead_after=5000.0, table_id="tabletest",
                       takeover_delay=D, epoch=epoch)  # fmt: skip
    pair = Pair(table, opts)
    _h, host = pair.join("host", token=token, address="127.0.0.1")
    _a, ann = pair.join("ann", address="10.0.0.2")
    _b, bob = pair.join("bob", address="10.0.0.3")
    _o, old = pair.join("old", address="10.0.0.4", versions=(1, 2, 3))
    for client, port in ((host, 4000), (ann, 5000), (bob, 5001)):
        client.send(m.Offer(port=port, addrs=("192.0.2.1",)))
    pair.pump()
    host.send(m.Start())
    pair.pump()
    return pair, ann, bob, old


def _clients(pair: Pair) -> list[SessionClient]:
    return [c for c in pair.clients.values() if isinstance(c, SessionClient)]


def test_nobody_to_hand_over_to_without_a_laptop_connected() -> None:
    pair = Pair(Table(TableConfig()), HostOptions(table_id="tabletest"))
    _a, _ann = pair.join("ann", versions=(1, 2, 3))  # an old client is no laptop
    assert not pair.core.can_hand_over()
    assert pair.core.handover(pair.now) == []


def test_the_first_laptop_connected_gets_the_table_at_the_next_epoch() -> None:
    pair, ann, bob, old = _table()
    pair.lose(2)  # ann's laptop went: the next in the order, bob, is the one
    assert pair.core.can_hand_over()
    pair.run(pair.core.handover(pair.now))
    for client in _clients(pair):
        if client is ann or client is old:
            continue
        moved = client.last(m.Handover)
        assert (moved.epoch, moved.pid) == (2, bob.pid)
        assert client.session.state is State.CLOSED
    said = old.all(m.Chat)[-1]
    assert said.pid is None and said.text == str(heirs.moved("bob", "10.0.0.3", 5001))
    assert "bob's laptop at 10.0.0.3:5001" in said.text
    assert not old.all(m.Handover) and old.last(m.Bye).reason is ByeReason.SHUTDOWN
    assert pair.journal[-1] == {"k": "moved", "epoch": 2, "pid": bob.pid, "name": "bob"}
    assert not pair.listening and pair.stops == 1 and not pair.open
    assert pair.core.handover(pair.now) == [] and not pair.core.can_hand_over()


def test_a_successor_hands_on_at_the_epoch_after_its_own() -> None:
    pair, ann, _bob, _old = _table(epoch=7)
    assert ann.last(m.Succession).epoch == 7
    pair.run(pair.core.handover(pair.now))
    assert (ann.last(m.Handover).epoch, ann.last(m.Handover).pid) == (8, ann.pid)


def test_a_host_with_a_quorum_refutes_a_claimant_and_plays_on() -> None:
    pair, ann, bob, _old = _table()
    assert bob.pid is not None
    effects = pair.core.newer_epoch(2, bob.pid, pair.now)
    assert effects == [fx.Refute(2, bob.pid, m.Error(reason=ErrorReason.FORBIDDEN,
                                                        text=ALIVE_TEXT, fatal=True))]
    assert pair.listening and not pair.core.paused
    assert ann.session.state is State.PLAYING
    assert pair.core.newer_epoch(0, bob.pid, pair.now) == []  # older: nothing
    owner = pair.table.owner
    assert owner is not None and pair.core.newer_epoch(1, owner, pair.now) == []  # itself
    rival = pair.core.newer_epoch(1, bob.pid, pair.now)  # another laptop at this epoch
    assert [type(e) for e in rival] == [fx.Refute]


def test_a_host_cut_off_steps_down_for_a_newer_epoch() -> None:
    pair, ann, _bob, old = _table()
    assert ann.pid is not None
    assert pair.core.newer_epoch(3, ann.pid, pair.now)[0] == fx.Refute(
        3, ann.pid, m.Error(reason=ErrorReason.FORBIDDEN, text=ALIVE_TEXT, fatal=True)
    )  # it has its quorum
    pair.lose(2)
    pair.lose(3)  # neither laptop is connected: absent at once
    assert pair.core.paused
    pair.run(pair.core.newer_epoch(3, ann.pid, pair.now))
    host = pair.clients[1]
    assert isinstance(host, SessionClient)
    moved = host.last(m.Handover)  # its own client follows the table as a player
    assert (moved.epoch, moved.pid) == (3, ann.pid)
    assert old.all(m.Chat)[-1].text == str(heirs.moved("ann", "10.0.0.2", 5000))
    assert old.last(m.Bye).reason is ByeReason.SHUTDOWN and old.session.state is State.CLOSED
    assert pair.journal[-1] == {"k": "moved", "epoch": 3, "pid": ann.pid, "name": "ann"}
    assert pair.stops == 1 and not pair.listening and not pair.open


def test_the_moved_sentence_names_the_laptop_and_where() -> None:
    assert str(heirs.moved("ann", "2001:db8::1", 5000)) == (
        "The table moved to ann's laptop at [2001:db8::1]:5000; join it there to play on."
    )
    assert str(heirs.moved("ann", "10.0.0.2", None)) == (
        "The table moved to ann's laptop; join it there to play on."
    )
    assert str(heirs.moved(None, "10.0.0.2", 5000)) == (
        "The table moved to another laptop at 10.0.0.2:5000; join it there to play on."
    )
    assert str(heirs.moved(None, None, None)) == (
        "The table moved to another laptop; join it there to play on."
    )


def _moved_lobby(options: HostOptions) -> dict[str, SessionClient]:
    """A lobby handed to ann's laptop (version 4) with, on protocol version 2, eli who
    reads Greek, vic who named no language, wes who reads Welsh (``cy-GB``) and the
    spectator sam: those four, by name."""
    pair = Pair(Table(TableConfig(seats=4)), options)
    _a, ann = pair.join("ann", address="10.0.0.2")
    ann.send(m.Offer(port=5000, addrs=("192.0.2.1",)))
    olds = {}
    for n, (name, lang) in enumerate((("eli", "el"), ("vic", None), ("wes", "cy-GB")), 3):
        _c, olds[name] = pair.join(name, address=f"10.0.0.{n}", versions=(1, 2))
        if lang is not None:
            olds[name].send(m.Profile(lang=lang, program=False))
    _s, olds["sam"] = pair.join("sam", address="10.0.0.9", spectate=True, versions=(1, 2))
    pair.pump()
    assert pair.core.can_hand_over()
    pair.run(pair.core.handover(pair.now))
    return olds


ENGLISH = "The table moved to ann's laptop at 10.0.0.2:5000; join it there to play on."


def test_an_older_player_is_told_the_table_moved_in_its_own_language() -> None:
    asked: list[str | None] = []

    def words(said: Said, lang: str | None) -> str:
        asked.append(lang)
        return say_in(said, lang)

    olds = _moved_lobby(HostOptions(table_id="tabletest", words=words))
    told = {name: client.last(m.Chat) for name, client in olds.items()}
    assert all(line.pid is None for line in told.values())
    assert told["eli"].text == (  # Greek words, whatever letters they look like:
        "Το τραπέζι πήγε στον φορητό υπολογιστή του παίκτη ann στο 10.0.0.2:5000· "  # noqa: RUF001
        "μπες εκεί για να συνεχίσεις."  # noqa: RUF001
    )
    assert told["wes"].text == (
        "Symudodd y bwrdd i liniadur ann yn 10.0.0.2:5000; ymunwch yno i ddal ati i chwarae."
    )
    assert told["vic"].text == told["sam"].text == ENGLISH  # no language named: English
    assert sorted(asked, key=str) == [None, "cy-GB", "el"]  # worded once per language
    assert all(c.last(m.Bye).reason is ByeReason.SHUTDOWN for c in olds.values())


def test_a_host_given_no_words_tells_everyone_in_english() -> None:
    olds = _moved_lobby(HostOptions(table_id="tabletest"))
    assert {c.last(m.Chat).text for c in olds.values()} == {ENGLISH}


def test_a_host_cut_off_steps_down_for_a_rival_at_its_own_epoch() -> None:
    pair, ann, _bob, _old = _table(epoch=4)
    assert ann.pid is not None
    pair.lose(2)
    pair.lose(3)
    pair.advance(D + 0.5)
    pair.run(pair.core.newer_epoch(4, ann.pid, pair.now))
    assert pair.journal[-1] == {"k": "moved", "epoch": 4, "pid": ann.pid, "name": "ann"}
    assert pair.stops == 1


def test_a_cut_off_first_host_never_steps_down_for_a_claim_at_its_own_epoch() -> None:
    """Only the table's first host hosts at epoch 1: a laptop found hosting at epoch 1
    is a forged claim, refuted however few laptops the host hears."""
    pair, ann, _bob, _old = _table()
    assert ann.pid is not None
    pair.lose(2)
    pair.lose(3)
    pair.advance(pair.core.timings.lease + 0.5)
    assert pair.core.paused
    effects = pair.core.newer_epoch(1, ann.pid, pair.now)
    assert [type(e) for e in effects] == [fx.Refute]
    assert pair.listening and pair.stops == 0
