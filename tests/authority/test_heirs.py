"""The host tells every connection on protocol version 4 who hosts next: the
``succession`` message, when it is sent, what it holds (never a token), and that
older connections never get it."""

from __future__ import annotations

import hashlib

import pytest
from pair import Pair, SessionClient

from sorry_lan.authority import heirs
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules import Variant
from sorry_lan.rules.board import Colour
from sorry_lan.wire import limits as L
from sorry_lan.wire import messages as m
from sorry_lan.wire.auth import pin_key
from sorry_lan.wire.codec import Decoder

TID = "0123456789abcdef"
V4_ONLY = (m.Offer, m.Succession, m.Commit, m.Reveal, m.Handover)


def options(**kw: object) -> HostOptions:
    return HostOptions(heartbeat=1000.0, dead_after=5000.0, table_id=TID, **kw)  # type: ignore[arg-type]


def offer(pair: Pair, client: SessionClient, port: int, *addrs: str) -> None:
    client.send(m.Offer(port=port, addrs=addrs or ("192.0.2.50",)))
    pair.pump()


def order_of(msg: m.Succession) -> list[int]:
    return [x.pid for x in msg.order]


def test_a_player_is_told_the_succession_right_after_its_welcome_before_the_lobby() -> None:
    pair = Pair(None, options())
    _c, ann = pair.join("ann")
    kinds = [type(x) for x in ann.inbox]
    assert kinds[:3] == [m.Welcome, m.Succession, m.Lobby]
    msg = ann.last(m.Succession)
    assert (msg.table, msg.epoch, msg.host, msg.delay) == (TID, 1, None, 15)
    assert msg.order == ()  # ann has not offered: no laptop yet


def test_the_order_is_the_laptops_by_seat_without_the_hosts_own_and_follows_changes() -> None:
    table = Table(TableConfig(seats=4))
    host, token = table.join(None, "host")  # the host's own player, connecting later
    table.owner = host.pid
    pair = Pair(table, options())
    _h, own = pair.join("host", token=token, address="127.0.0.1")
    _a, ann = pair.join("ann", address="10.0.0.2")
    _b, bob = pair.join("bob", address="10.0.0.3")
    offer(pair, own, 4000, "10.0.0.1")
    offer(pair, bob, 5001, "192.0.2.3", "10.0.0.3")
    offer(pair, ann, 5000)
    msg = ann.last(m.Succession)
    assert msg.host == host.pid
    assert order_of(msg) == [ann.pid, bob.pid]  # by colour; the host's seat never
    bob_at = msg.order[1]
    assert (bob_at.addrs, bob_at.port) == (("10.0.0.3", "192.0.2.3"), 5001)  # as seen first
    # ann moves to green: the order changes, and everyone is told
    told = len(bob.all(m.Succession))
    ann.send(m.ChooseColour(colour=Colour(3)))
    pair.pump()
    assert order_of(bob.last(m.Succession)) == [bob.pid, ann.pid]
    assert len(bob.all(m.Succession)) == told + 1
    assert order_of(own.last(m.Succession)) == [bob.pid, ann.pid]  # the host's own client too


def test_the_content_gives_verifiers_and_settings_never_a_token_or_the_seed() -> None:
    config = TableConfig(seats=3, variant=Variant.POINTS, seed=99, turn_timeout=30.5,
                         grace=45.0, bot_delay=0.25, bot_level="greedy", bot_budget=2.0,
                         title="  Kitchen table  ")  # fmt: skip
    table = Table(config)
    bot = table.add_bot(None, None, "expert")
    pair = Pair(table, options(pin="4321"))
    ann = pair.join("ann", pin="4321")[1]
    bob = pair.join("bob", pin="4321", address="10.0.0.3")[1]
    msg = ann.last(m.Succession)
    settings = msg.config
    assert settings.name == "Kitchen table" and settings.variant is Variant.POINTS
    assert (settings.seats, settings.turn_timeout_ms, settings.grace_ms) == (3, 30500, 45000)
    assert (settings.bot_delay_ms, settings.bot_level, settings.bot_budget_ms) == (250, "greedy",
                                                                                   2000)
    assert settings.pin_verifier == pin_key("4321") and settings.seeded
    assert not settings.auto_start
    seats = {s.pid: s for s in bob.last(m.Succession).seats}
    for client in (ann, bob):
        assert client.pid is not None and client.token is not None
        assert seats[client.pid].verifier == hashlib.sha256(client.token).digest()
        assert seats[client.pid].level is None
    assert (seats[bot.pid].verifier, seats[bot.pid].level) == (None, "expert")
    for client in (ann, bob):
        raw = bytes(client.raw)
        other = bob if client is ann else ann
        assert other.token is not None and other.token not in raw  # never a token
        assert b"4321" not in raw  # nor the PIN (its verifier is a derived key)


def test_connections_on_older_versions_never_get_the_new_messages() -> None:
    pair = Pair(Table(TableConfig(seats=2, auto_start=True, variant=Variant.POINTS, seed=4)),
                options())  # fmt: skip
    _o, old = pair.join("old", versions=(1, 2, 3))
    _n, new = pair.join("new", address="10.0.0.3")
    offer(pair, new, 5000)
    pair.play_first_moves([old, new], rounds=6)
    assert pair.core.epoch == 1 and new.all(m.Succession)
    assert new.all(m.Commit)
    got = Decoder().feed(bytes(old.raw))
    assert got and not [x for x in got if isinstance(x, V4_ONLY)]
    assert pair.core.can_hand_over()
    pair.run(pair.core.handover(pair.now))
    got = Decoder().feed(bytes(old.raw))
    assert not [x for x in got if isinstance(x, V4_ONLY)]
    said = [x for x in got if isinstance(x, m.Chat)][-1]
    assert said.pid is None and said.text == str(heirs.moved("new", "10.0.0.3", 5000))
    assert isinstance(got[-1], m.Bye)


def test_the_succession_is_sent_again_when_it_changes_not_for_a_chat_line() -> None:
    pair = Pair(Table(TableConfig(seats=3)), options())
    _a, ann = pair.join("ann")
    offer(pair, ann, 5000)
    told = len(ann.all(m.Succession))
    ann.send(m.Ready(ready=True))
    ann.send(m.Chat(pid=None, text="hello"))
    pair.pump()
    assert len(ann.all(m.Succession)) == told  # nothing in it changed
    offer(pair, ann, 5000, "192.0.2.9")  # a new address
    assert len(ann.all(m.Succession)) == told + 1
    _b, bob = pair.join("bob", address="10.0.0.3")  # a new seat
    assert len(ann.all(m.Succession)) == told + 2
    assert len(bob.all(m.Succession)) == 1


def test_each_game_start_sends_it_again_with_that_games_chat() -> None:
    pair = Pair(Table(TableConfig(seats=2, auto_start=True, seed=8)), options())
    _a, ann = pair.join("ann")
    told = len(ann.all(m.Succession))
    _b, bob = pair.join("bob", address="10.0.0.3")  # the game starts
    assert len(ann.all(m.Succession)) == told + 1
    bob.send(m.Chat(pid=None, text="good luck"))
    pair.pump()
    # bob's laptop leaves for a moment and comes back: told the chat so far in it
    token = bob.token
    assert token is not None
    pair.lose(_b)
    back = pair.join("bob", token=token, address="10.0.0.3")[1]
    assert [(x.pid, x.text) for x in back.last(m.Succession).chat] == [(bob.pid, "good luck")]


def test_a_long_chat_and_a_full_table_keep_every_frame_within_bounds() -> None:
    table = Table(TableConfig(seats=4, auto_start=True, seed=2, max_spectators=32))
    opts = options(chat_burst=1000, chat_rate=1000.0)
    pair = Pair(table, opts)
    players = [pair.join(f"player{i}", address=f"10.0.0.{i + 2}")[1] for i in range(4)]
    for i, client in enumerate(players):
        offer(pair, client, 5000 + i, *(f"192.0.2.{10 * i + k}" for k in range(8)))
    watchers = [pair.join(f"w{i}", spectate=True, address="10.0.1.1")[1] for i in range(32)]
    for n in range(L.CHAT_KEPT_MAX + 20):  # the longest lines, of the widest characters
        players[n % 4].send(m.Chat(pid=None, text="\U0001f600" * L.CHAT_MAX))
        pair.pump()
    late = pair.join("late", spectate=False, address="10.0.2.1")  # refused: the table is full
    assert late[1].all(m.Succession) == []
    token = players[0].token
    assert token is not None
    pair.lose(1)
    back = pair.join("player0", token=token, address="10.0.0.2")[1]
    frames = [len(m_bytes) for m_bytes in _succession_frames(back)]
    assert frames and max(frames) <= L.MAX_FRAME + L.HEADER_SIZE
    msg = back.last(m.Succession)
    assert len(msg.seats) == 4 and len(msg.order) == 4
    assert 0 < len(msg.chat) < L.CHAT_KEPT_MAX  # the newest lines that fit one frame
    assert all(w.all(m.Succession) for w in watchers)


def _succession_frames(client: SessionClient) -> list[bytes]:
    """The frames of ``succession`` messages ``client`` received."""
    out = []
    raw = bytes(client.raw)
    at = 0
    while at + L.HEADER_SIZE <= len(raw):
        size = int.from_bytes(raw[at : at + L.HEADER_SIZE], "big")
        frame = raw[at : at + L.HEADER_SIZE + size]
        if isinstance(Decoder().feed(frame)[0], m.Succession):
            out.append(frame)
        at += L.HEADER_SIZE + size
    return out


@pytest.mark.parametrize("title", [None, "", "   "])
def test_a_table_without_a_name_says_none(title: str | None) -> None:
    table = Table(TableConfig(title=title))
    assert heirs.settings(table, None).name is None
