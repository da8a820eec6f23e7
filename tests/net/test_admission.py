"""Keeping the door: PIN throttling (on a fake clock), idle sockets, spectator cap.

The figures the issue asks for follow from the policy and are checked here on a
fake clock: an honest player who mistypes waits a few seconds at most, and one
machine, from one address or from forty, needs more than a day for a 4-digit
PIN.  ``scripts/bench_admission.py`` measures the same against a real host.
"""

from __future__ import annotations

import asyncio
import heapq
import json
import signal
import socket
import sys
from pathlib import Path

import pytest
from netkit import LOCAL, start_host

from sorry_lan.authority.admission import PinThrottle, to_evict
from sorry_lan.net.botrunner import BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.host import HostOptions
from sorry_lan.rules import Variant

DAY = 86400.0
FLOOD = Path(__file__).resolve().parents[2] / "scripts" / "flood_sockets.py"


def guesses_in(throttle: PinThrottle, addresses: list[str], seconds: float) -> int:
    """How many PINs an attacker tries in ``seconds`` (fake time), trying from each of
    ``addresses`` as soon as the throttle lets it."""
    ready = [(0.0, a) for a in addresses]  # when each address may next try, soonest first
    now, guesses = 0.0, 0
    while now < seconds:
        at, address = heapq.heappop(ready)
        now = max(now, at)
        if throttle.wait(address, now) == 0:
            throttle.failed(address, now)
            guesses += 1
        heapq.heappush(ready, (now + throttle.wait(address, now), address))
    return guesses


def test_an_honest_player_who_mistypes_waits_a_few_seconds_at_most() -> None:
    throttle = PinThrottle()
    now = 100.0
    for _ in range(3):
        assert throttle.wait("10.0.0.5", now) == 0
        throttle.failed("10.0.0.5", now)
        now += 2.0
    assert 0 < throttle.wait("10.0.0.5", now - 2.0) <= 1.0  # a fourth slip: a second
    throttle.failed("10.0.0.5", now)
    assert throttle.wait("10.0.0.5", now) <= 2.0
    throttle.passed("10.0.0.5")  # then the right PIN: all forgiven
    assert throttle.wait("10.0.0.5", now) == 0
    assert throttle.wait("10.0.0.6", now) == 0  # nobody else was affected


def test_one_address_needs_weeks_for_a_four_digit_pin() -> None:
    assert guesses_in(PinThrottle(), ["10.0.0.66"], DAY) < 200
    assert guesses_in(PinThrottle(), ["10.0.0.66"], 7 * DAY) < 5000 / 4


def test_forty_addresses_on_one_machine_still_need_more_than_a_day() -> None:
    attackers = [f"10.1.0.{i}" for i in range(40)]
    # Half the 10,000 four-digit PINs (the expected search) takes more than a day.
    assert guesses_in(PinThrottle(), attackers, DAY) < 5000


def test_an_address_is_forgotten_after_an_hour_and_the_table_allowance_refills() -> None:
    throttle = PinThrottle()
    for i in range(12):
        throttle.failed("10.0.0.9", float(i))
    assert throttle.wait("10.0.0.9", 12.0) > 60
    assert throttle.wait("10.0.0.10", 12.0) > 0  # the table's allowance is spent
    assert throttle.wait("10.0.0.10", 12.0 + 20.0) == 0  # a try comes back every 20 s
    assert throttle.wait("10.0.0.9", 11.0 + 3600.0) == 0


def test_to_evict_keeps_each_address_to_its_share_oldest_first() -> None:
    waiting = [(f"a{i}", "A", float(i)) for i in range(8)] + [("b0", "B", 0.5)]
    assert to_evict(waiting, "A", per_address=8, total=64) == ["a0"]
    assert to_evict(waiting, "B", per_address=8, total=64) == []
    assert to_evict(waiting, "C", per_address=8, total=9) == ["a0"]  # from the busiest
    assert to_evict([], "C", per_address=8, total=64) == []


# -- against a real host --------------------------------------------------------------------


def _second_loopback() -> str | None:
    """127.0.0.2 if this system routes it to loopback (Linux does), else None."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.2", 0))
        except OSError:
            return None
    return "127.0.0.2"


async def _start_flood(port: int, source: str, sockets: int) -> asyncio.subprocess.Process:
    """``scripts/flood_sockets.py`` in its own process (as another machine would be)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(FLOOD), str(port), "--host", LOCAL, "--source", source,
        "--sockets", str(sockets), "--pause", "0.5",
        stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert json.loads(await asyncio.wait_for(proc.stdout.readline(), 20))["event"] == "ready"
    return proc


async def _stop_flood(proc: asyncio.subprocess.Process) -> dict[str, int]:
    proc.send_signal(signal.SIGTERM)
    out, _ = await asyncio.wait_for(proc.communicate(), 20)
    done: dict[str, int] = json.loads(out.decode().strip().splitlines()[-1])
    return done


@pytest.mark.asyncio
@pytest.mark.timeout(120)
async def test_200_idle_sockets_from_one_address_do_not_stop_a_game_or_a_reclaim() -> None:
    source = _second_loopback()
    if source is None:
        pytest.skip("needs a second loopback address (127.0.0.2)")
    server = await start_host(
        Variant.STANDARD, seats=4, seed=17, options=HostOptions(heartbeat=0.5, dead_after=5.0)
    )
    port = server.address[1]
    flood = await _start_flood(port, source, 200)
    clients = [GameClient(LOCAL, port, f"p{i}", ClientOptions(reconnect_for=20)) for i in range(4)]
    try:
        while sum(c.address == source for c in server.conns.values()) < 8:
            await asyncio.sleep(0.05)  # the flood holds its share before anyone joins
        for c in clients:
            await c.connect()
        stats = [BotStats() for _ in clients]
        tasks = [
            asyncio.create_task(run_bot(c, think=0.002, stats=s))
            for c, s in zip(clients, stats, strict=True)
        ]
        table = server.table
        while table.game is None or table.game.moves_played < 20:
            await asyncio.sleep(0.01)
        seat = clients[1].model.colour
        clients[1].abort()  # drops mid-game; it comes back with its token on its own
        await asyncio.sleep(0.3)
        results = await asyncio.wait_for(asyncio.gather(*tasks), 90)
        game = table.game
        assert game is not None and game.over
        assert all(r is not None and list(r.winners) == list(game.winners) for r in results)
        player = table.by_colour(seat) if seat is not None else None
        assert player is not None and player.conn is not None and not player.bot
        assert clients[1].model.colour == seat and clients[1].model.pawns == game.pawns
        waiting = [p for p in server.core.peers.values() if p.session.join_request is None]
        assert len(waiting) <= server.options.max_waiting_per_address
    finally:
        counts = await _stop_flood(flood)
        for c in clients:
            await c.close()
        await server.close()
    # The host kept closing the flood's sockets, and the flood kept reopening them.
    assert counts["opened"] > 200 and counts["closed_by_host"] > 100
