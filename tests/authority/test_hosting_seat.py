"""Who hosts is kept apart from who owns the lobby (issue 19): a headless table's
successor hosts from one player's laptop, so ``succession.host`` names that seat and
the order leaves it out, while nobody gets the owner's lobby rights; and the table's
hints travel in the ``config`` record, so a successor keeps them."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heirs import Watching, knowledge_of
from pair import Pair, SessionClient

from sorry_lan.authority import heirs
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.authority.takeover import build_table, config_of
from sorry_lan.client.model import ClientModel
from sorry_lan.rules import Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.succession import SETTINGS, TableSettings

TID = "0123456789abcdef"


def options(**kw: object) -> HostOptions:
    return HostOptions(heartbeat=1000.0, dead_after=5000.0, table_id=TID, **kw)  # type: ignore[arg-type]


def headless_pair(seat: int | None) -> tuple[Pair, SessionClient, SessionClient, int, int]:
    """A table nobody owns, ann and bob seated, bob's seat hosting when ``seat`` says."""
    table = Table(TableConfig(seats=3))
    ann, ann_token = table.join(None, "ann")
    bob, bob_token = table.join(None, "bob")
    pair = Pair(table, options(seat=bob.pid if seat is not None else None))
    _a, a = pair.join("ann", token=ann_token, address="10.0.0.2")
    _b, b = pair.join("bob", token=bob_token, address="10.0.0.3")
    for client, addr in ((a, "10.0.0.2"), (b, "10.0.0.3")):
        client.send(m.Offer(port=5000, addrs=(addr,)))
        pair.pump()
    return pair, a, b, ann.pid, bob.pid


def test_the_hosting_seat_is_named_and_left_out_of_the_order_without_owning_the_lobby() -> None:
    pair, ann, bob, ann_pid, bob_pid = headless_pair(seat=1)
    told = ann.last(m.Succession)
    assert told.host == bob_pid
    assert [x.pid for x in told.order] == [ann_pid]  # the laptop that hosts is not its heir
    assert pair.table.owner is None
    assert not bob.last(m.Welcome).owner  # hosting is not the lobby's rights
    assert ann.last(m.Lobby).host is None
    assert pair.core.heralds.heir(pair.core.peers) is not None
    assert pair.core.heralds.heir(pair.core.peers).pid == ann_pid  # type: ignore[union-attr]


def test_without_a_hosting_seat_a_headless_host_names_nobody_and_every_laptop_is_in_order() -> None:
    _pair, ann, _bob, ann_pid, bob_pid = headless_pair(seat=None)
    told = ann.last(m.Succession)
    assert told.host is None
    assert [x.pid for x in told.order] == [ann_pid, bob_pid]


def test_a_hosting_seat_that_left_falls_back_to_the_owner() -> None:
    table = Table(TableConfig(seats=3))
    owner, _token = table.join(None, "own")
    table.owner = owner.pid
    assert heirs.hosting_seat(table, 7) == owner.pid  # nobody sits at 7
    assert heirs.hosting_seat(table, None) == owner.pid
    table.owner = None
    assert heirs.hosting_seat(table, None) is None


def test_a_headless_tables_successor_has_no_owner_and_names_its_own_seat() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=5))
    ends = [Watching(ClientModel(name)) for name in ("ann", "bob")]
    pair = Pair(table)
    for end in ends:
        end.model.join(pair.now)
        pair.connect(end)
        pair.pump()
    know = knowledge_of(table, ends[1])
    assert know.succession.host is None  # the old host was headless
    new = build_table(know, epoch=2, now=0.0, seed=1)
    assert new.owner is None
    me = ends[1].model.pid
    built, _frame = heirs.succession(new, pair.core.electorate, table_id=TID, epoch=2,
                                     delay=15, pin_key=None, seat=me)  # fmt: skip
    assert built.host == me


def settings(**kw: object) -> TableSettings:
    base: dict[str, object] = dict(
        name="Kitchen", variant=Variant.STANDARD, seats=4, turn_timeout_ms=None,
        grace_ms=60_000, bot_delay_ms=800, bot_level="greedy", bot_budget_ms=None,
        pin_verifier=None, seeded=False, auto_start=False,
    )  # fmt: skip
    return TableSettings(**{**base, **kw})  # type: ignore[arg-type]


def test_hints_are_a_twelfth_config_item_left_out_when_off() -> None:
    off, on = SETTINGS.dump(settings()), SETTINGS.dump(settings(hints=True))
    assert len(off) == 11  # what a version-4 peer of before sends and reads
    assert len(on) == 12 and on[-1] is True
    assert SETTINGS.check(off, "config").hints is False
    assert SETTINGS.check(on, "config").hints is True


def test_a_successor_keeps_the_tables_hints() -> None:
    table = Table(TableConfig(seats=3, hints=True))
    assert heirs.settings(table, None).hints
    assert config_of(heirs.settings(table, None)).hints
    assert not config_of(heirs.settings(Table(TableConfig(seats=3)), None)).hints


def test_a_host_that_handed_its_table_over_to_leave_is_played_by_a_bot_at_once() -> None:
    table = Table(TableConfig(seats=3, seed=4, grace=60.0))
    own, token = table.join(None, "own")
    table.owner = own.pid
    pair = Pair(table, options())
    _h, host = pair.join("own", token=token, address="127.0.0.1")
    end = Watching(ClientModel("ann", standby=(5000, ("10.0.0.2",))))
    end.model.join(pair.now)
    pair.connect(end, "10.0.0.2")
    pair.pump()
    host.send(m.Start())
    pair.pump()
    before = end.model.knowledge()
    assert before is not None and before.left is None  # nobody left (a lost host: none)
    pair.run(pair.core.handover(pair.now))
    know = end.model.knowledge()
    assert know is not None and know.left == own.pid
    new = build_table(know, epoch=2, now=100.0, seed=3)
    assert new.players[own.pid].away_since == 100.0 - 60.0  # its grace is over
    assert new.players[know.pid].away_since == 100.0  # the successor's own: back soon
