"""net.recovery's loop, with a real heir, against a client that only pretends (no
host, no network):
the laptop that is its own candidate keeps the event loop turning while it counts
votes (its standby answers voters on that loop), takes over once a vote makes the
quorum, keeps trying the old host while it waits, and goes back to it when it answers.
The standby's answers, and the votes, come over real loopback connections."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sorry_lan.commands.lookout import client_heir
from sorry_lan.commands.successor import make_heir
from sorry_lan.net.heir import Heir, HeirOptions
from sorry_lan.net.hosted import HostedTable
from sorry_lan.net.recovery import recover
from sorry_lan.succession.election import Decision, Election, Order, TryCandidate
from sorry_lan.succession.knowledge import Knowledge
from sorry_lan.tui.alone import AloneQuestion
from sorry_lan.wire import messages as m
from sorry_lan.wire.session import ClientSession
from sorry_lan.wire.succession import Laptop

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "succession"))
from tables import TOKENS, succession

DELAY = 0.2


class _Model:
    def __init__(self, order: tuple[Laptop, ...], me: int, grace: float = 1000.0) -> None:
        self.succession = succession(host=None, order=order)
        self.pid = me
        told = Order.of(self.succession)  # D short, G long: no lone walk here
        self.election = Election(
            Order(told.epoch, told.host, DELAY, grace, told.laptops),
            me=me, now=time.monotonic(),
        )

    board_missing = False
    hosted_here = False
    newest_state: tuple[int, int] | None = None  # no board: every vote counts

    def knowledge(self) -> Knowledge | None:
        return None


class FakeClient:
    """What net.recovery asks of a GameClient; the old host never answers (unless
    ``host_back``), no candidate is tried."""

    def __init__(self, order: tuple[Laptop, ...], me: int, grace: float = 1000.0) -> None:
        self.model = _Model(order, me, grace)
        self.unreachable = False
        self.host_tries = 0
        self.host_back = False
        self.joined: tuple[str, int] | None = None
        self.tried: list[TryCandidate] = []

    async def try_host(self) -> bool:
        self.host_tries += 1
        await asyncio.sleep(0.05)
        return self.host_back

    async def try_candidate(self, attempt: TryCandidate) -> list[Decision]:
        self.tried.append(attempt)
        return self.model.election.failed(attempt, time.monotonic())

    def take_decided(self) -> list[Decision]:
        return []

    async def tell(self, news: Any) -> None:
        pass

    def drop_link(self) -> None:
        pass

    async def join_own_table(self, address: tuple[str, int]) -> bool:
        self.joined = address
        return True


class _Hosted:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.address = sock.getsockname()[:2]
        self.server = self

    def adopt(self, transport: asyncio.Transport, data: bytes) -> None:
        transport.close()

    async def close(self) -> None:
        self.sock.close()


def laptops(port: int) -> tuple[Laptop, ...]:
    return (Laptop(1, ("127.0.0.1",), port), Laptop(2, ("127.0.0.2",), 1),
            Laptop(3, ("127.0.0.3",), 1))


async def vote(port: int, pid: int) -> m.Message | None:
    """Say hello at the standby with seat ``pid``'s token: its first answer (None: the
    connection closed without one)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    session = ClientSession(f"p{pid}", token=TOKENS[pid])
    session.join()
    writer.write(session.data_to_send())
    try:
        while True:
            data = await asyncio.wait_for(reader.read(65536), 2.0)
            if not data:
                return None
            for msg in session.receive_data(data):
                return msg
    except TimeoutError:
        return None
    finally:
        writer.close()


def in_thread(coro_fn: Any, timeout: float) -> Any:
    """Run ``asyncio.run(coro_fn())`` on a thread of its own: a loop that never waits
    (starved) fails the test instead of hanging it."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(asyncio.run(coro_fn())), daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "the event loop never came back: something never waits"
    return out[0]


def heir() -> tuple[Heir, list[int]]:
    took: list[int] = []

    async def successor(knowledge: Knowledge, epoch: int, sock: socket.socket) -> HostedTable:
        took.append(epoch)
        return _Hosted(sock)  # type: ignore[return-value]

    return Heir(lambda: ["127.0.0.1"], successor,
                HeirOptions(bind="127.0.0.1", also=(), host_retry_max=0.2)), took


async def _standing_laptop_answers_and_takes_over() -> tuple[int, Sequence[int], str, int]:
    h, took = heir()
    port, _addrs = await h.start()
    client = FakeClient(laptops(port), me=1)
    h.take_over = _fake_take_over(h, took)  # type: ignore[method-assign]
    recovering = asyncio.ensure_future(recover(client, h))
    # Past D, and then some: the laptop stands (its own candidate) with no vote yet,
    # and the host tries go on; the loop must keep answering all the while.
    await asyncio.sleep(DELAY + 1.5)
    first = await vote(port, 3)  # 2 of 2: enough
    assert isinstance(first, m.Refuse | type(None))
    done = await asyncio.wait_for(recovering, 3.0)
    await h.close()
    text = first.text if isinstance(first, m.Refuse) else "held"
    return client.host_tries, took, text, int(done)


def _fake_take_over(h: Heir, took: list[int], alone_too: list[bool] | None = None) -> Any:
    async def take(knowledge: Any, epoch: int, *, alone: bool = False) -> tuple[str, int]:
        took.append(epoch)
        if alone_too is not None:
            alone_too.append(alone)
        return ("127.0.0.1", 1)
    return take


async def _alone_at_the_table(answer: bool | None) -> tuple[list[int], list[int], list[bool]]:
    """The only laptop of the order, its host gone: G is 0.6 s.  ``answer``: what the
    person at the laptop says when asked (None: nobody to ask, a bot)."""
    asked: list[int] = []

    async def ask(epoch: int) -> bool:
        asked.append(epoch)
        await asyncio.sleep(0.3)  # (the walk goes on while the person reads)
        assert answer is not None
        return answer

    h, took = heir()
    h.ask_alone = ask if answer is not None else None
    port, _addrs = await h.start()
    client = FakeClient((Laptop(1, ("127.0.0.1",), port),), me=1, grace=0.6)
    alone: list[bool] = []
    h.take_over = _fake_take_over(h, took, alone)  # type: ignore[method-assign]
    recovering = asyncio.ensure_future(recover(client, h))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(recovering), 2.5)
    recovering.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await recovering
    await h.close()
    return asked, took, alone


def test_a_laptop_alone_at_the_table_asks_its_person_and_a_yes_takes_over_alone() -> None:
    asked, took, alone = in_thread(lambda: _alone_at_the_table(True), 10.0)
    assert asked == [2] and took == [2] and alone == [True]


def test_a_laptop_alone_at_the_table_with_a_no_or_nobody_to_ask_never_takes_over() -> None:
    asked, took, _alone = in_thread(lambda: _alone_at_the_table(False), 10.0)
    assert asked == [2] and took == []
    asked, took, _alone = in_thread(lambda: _alone_at_the_table(None), 10.0)
    assert asked == [] and took == []


def test_a_standing_laptop_keeps_answering_and_takes_over_at_a_quorum() -> None:
    tries, took, _text, done = in_thread(_standing_laptop_answers_and_takes_over, 10.0)
    assert took == [2] and done == 1
    assert tries >= 3  # it kept trying the old host while it stood


async def _the_old_host_back_ends_the_standby() -> tuple[bool, str, int]:
    h, took = heir()
    port, _addrs = await h.start()
    client = FakeClient(laptops(port), me=1)
    recovering = asyncio.ensure_future(recover(client, h))
    await asyncio.sleep(DELAY + 0.5)
    assert client.model.election.phase.value == "standby"
    client.host_back = True
    back = await asyncio.wait_for(recovering, 3.0)
    answer = await vote(port, 3)  # the standby no longer counts votes
    await h.close()
    assert isinstance(answer, m.Refuse)
    return back, answer.text, len(took)


def test_a_standing_laptop_goes_back_to_the_old_host_when_it_answers() -> None:
    back, text, took = in_thread(_the_old_host_back_ends_the_standby, 10.0)
    assert back and took == 0
    assert text == "this laptop does not host the table"


async def _a_hint_is_tried_first() -> list[TryCandidate]:
    h, _took = heir()
    port, _addrs = await h.start()
    client = FakeClient(laptops(port), me=3)
    h.hint(1, ("10.9.9.9",), 4000)  # our own epoch: nothing new
    h.hint(2, ("10.9.9.9",), 4000)  # mDNS: our table one epoch on
    recovering = asyncio.ensure_future(recover(client, h))
    await asyncio.sleep(DELAY + 0.3)
    recovering.cancel()
    await h.close()
    return client.tried


def test_an_advert_of_the_table_at_a_newer_epoch_is_tried_first() -> None:
    tried = in_thread(_a_hint_is_tried_first, 10.0)
    assert tried[0] == TryCandidate(None, ("10.9.9.9",), 4000)
    assert [t.pid for t in tried[1:3]] == [1, 2]  # then the order


async def _taken_over(model: Any, alone: bool) -> Knowledge:
    given: list[Knowledge] = []

    async def successor(knowledge: Knowledge, epoch: int, sock: socket.socket) -> HostedTable:
        given.append(knowledge)
        return _Hosted(sock)  # type: ignore[return-value]

    h = Heir(lambda: ["127.0.0.1"], successor, HeirOptions(bind="127.0.0.1", also=()))
    await h.start()
    assert await h.take_over(model.knowledge(), 2, alone=alone) is not None
    await h.close()
    return given[0]


def test_a_game_taken_over_alone_is_a_game_of_its_own() -> None:
    """Taken by votes, the new host keeps the table's id; taken alone (its person
    agreed), it gets a new one: never the table's (no step-down, no journal moved)."""
    from test_takeover_in_memory import table

    _old, laptops, _own = table()
    model = laptops[0].model
    known = model.knowledge()
    assert known is not None
    voted = in_thread(lambda: _taken_over(model, alone=False), 10.0)
    assert voted.table == known.table
    alone = in_thread(lambda: _taken_over(model, alone=True), 10.0)
    assert alone.table != known.table and len(alone.table) == 16
    assert alone.succession.seats == known.succession.seats and alone.board == known.board


async def _asked_through_the_question(yes: bool) -> tuple[list[bool], list[int], bool]:
    """The person's question (``tui.alone.AloneQuestion``, what ``join`` passes): it is
    up while the walk goes on; the answer ``yes`` is given as the board or the line
    mode gives it; after recover it is never left up."""
    question = AloneQuestion()
    seen: list[bool] = []
    question.on_change.append(lambda: seen.append(question.asking))
    h, took = heir()
    h.ask_alone = question
    port, _addrs = await h.start()
    client = FakeClient((Laptop(1, ("127.0.0.1",), port),), me=1, grace=0.6)
    alone: list[bool] = []
    h.take_over = _fake_take_over(h, took, alone)  # type: ignore[method-assign]
    recovering = asyncio.ensure_future(recover(client, h))
    while not question.asking:
        await asyncio.sleep(0.02)
    question.answer(yes)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(recovering), 1.5)
    recovering.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await recovering
    await h.close()
    return seen, took, question.asking


def test_the_join_question_takes_over_alone_on_a_yes_and_is_withdrawn_after() -> None:
    seen, took, asking = in_thread(lambda: _asked_through_the_question(True), 10.0)
    assert seen == [True, False] and took == [2] and not asking
    seen, took, asking = in_thread(lambda: _asked_through_the_question(False), 10.0)
    assert seen == [True, False] and took == [] and not asking


def test_join_asks_its_person_and_a_bot_or_a_spectator_never() -> None:
    args = argparse.Namespace(standby_port=0, interface=None, ipv6=False)
    question = AloneQuestion()
    assert client_heir(args, False, question).ask_alone is question
    assert client_heir(args, True, question).ask_alone is None  # a spectator only follows
    assert make_heir(args).ask_alone is None  # sorry-lan bot
