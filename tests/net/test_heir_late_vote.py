"""A standing laptop whose loop wakes late, after the vote that makes its quorum came
(a loaded machine: a browser test at D = 1 s saw the new host serve 10-12 s after the
old one was killed, in 3 runs of 14; 1-3 s is usual).

The real heir, standby listener and ``net.recovery`` loop, and votes over loopback;
only the client pretends (test_heir's fake), and its heir's wait is made to oversleep
the lone walk's time once, as a busy machine does.  The laptop takes the table over at
that wake (before, the lone walk went first, its standby held the voter's hellos
unanswered from then on, and a quorum after it stood again woke nobody).  A standby
that said it hosts, then stopped standing, tells its held voters that it does not
host the table, and counts again when it stands again."""

from __future__ import annotations

import asyncio
from typing import Any

from test_heir import DELAY, FakeClient, _fake_take_over, _Model, heir, in_thread, laptops, vote

from sorry_lan.net.recovery import recover
from sorry_lan.succession.election import Phase
from sorry_lan.wire import messages as m
from sorry_lan.wire.standby import NOT_HOSTING


async def _woken_late() -> tuple[list[int], bool, Any]:
    h, took = heir()
    port, _addrs = await h.start()
    client = FakeClient(laptops(port), me=1)  # first of the order: it stands at D
    election = client.model.election
    h.take_over = _fake_take_over(h, took)  # type: ignore[method-assign]
    pause = h.pause
    voter: list[asyncio.Future[m.Message | None]] = []

    async def late(until: float) -> None:
        if election.phase is not Phase.STANDBY or voter:
            await pause(until)
            return
        # Its first wait standing: it wakes only past the lone walk's time (D after it
        # stood), and the standby answered a vote, the quorum, meanwhile.
        await asyncio.sleep(DELAY + 0.1)
        voter.append(asyncio.ensure_future(vote(port, 3)))
        while not h.listener.hosting:
            await asyncio.sleep(0.01)

    h.pause = late  # type: ignore[method-assign]
    recovering = asyncio.ensure_future(recover(client, h))
    try:
        done = await asyncio.wait_for(asyncio.shield(recovering), 1.0)
    except TimeoutError:
        done = False
    recovering.cancel()
    await h.close()
    return took, done, await voter[0]


def test_a_vote_counted_before_a_late_wake_takes_the_table_over() -> None:
    took, done, answer = in_thread(_woken_late, 10.0)
    assert took == [2] and done
    assert answer is None  # held for the new host (which the fake takeover never serves)


async def _held_then_closed() -> tuple[Any, Any, bool]:
    h, _took = heir()
    port, _addrs = await h.start()
    model = _Model(laptops(port), me=1)
    h.open_standby(model.succession, 1)
    first = asyncio.ensure_future(vote(port, 3))  # 2 of 2: held for the new host
    while not h.listener.hosting:
        await asyncio.sleep(0.01)
    h.close_standby()  # its election stopped standing (a lone walk) before it took over
    held, later = await first, await vote(port, 3)
    h.open_standby(model.succession, 1)  # it stands again
    poked = h.next_poke()
    again = asyncio.ensure_future(vote(port, 3))
    await asyncio.wait_for(poked, 1.0)  # the quorum wakes the heir's loop
    await h.close()
    await again
    return held, later, h.listener.hosting


def test_a_standby_that_stopped_standing_lets_its_held_voters_go() -> None:
    held, later, hosting = in_thread(_held_then_closed, 10.0)
    for answer in (held, later):
        assert isinstance(answer, m.Refuse) and answer.text == NOT_HOSTING
    assert hosting
