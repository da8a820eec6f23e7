"""A host that sleeps (a real host process stopped with SIGSTOP, then woken with
SIGCONT): its players keep trying past the usual reconnect budget, are told once that
the host is not answering (asleep or out of reach) and that their seat is kept, are
never told to check an address that worked, and take their seats back when it wakes;
a host that has never let a client in is still blamed on the address."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest
from netkit import LOCAL, HostProcess

from sorry_lan.client.model import Connection
from sorry_lan.codes import JoinFailure, Joining, Link, LinkNews
from sorry_lan.net.botrunner import run_bot
from sorry_lan.net.client import ClientOptions, GameClient, JoinError

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGSTOP is POSIX")

# Short clocks: dead after 1 s of silence, 1.5 s of reconnecting, 0.5 s to be welcomed.
QUICK = {"heartbeat": 0.2, "dead_after": 1.0, "reconnect_for": 1.5, "connect_timeout": 0.5}


def _news(ev: object) -> LinkNews | None:
    return ev.news.code if isinstance(ev, Connection) else None  # type: ignore[return-value]


async def _table(
    tmp_path: Path, asleep_for: float, spectate: bool = False
) -> tuple[HostProcess, GameClient]:
    """A headless two-seat host process with a slow bot, and Bob's client for it."""
    host = await HostProcess.spawn(
        "--bind", LOCAL, "--port", "0", "--players", "2", "--bots", "1", "--bot-delay",
        "1", "--grace", "60", "--data-dir", str(tmp_path),
    )  # fmt: skip
    options = ClientOptions(**QUICK, asleep_for=asleep_for, spectate=spectate)  # type: ignore[arg-type]
    return host, GameClient(LOCAL, host.port, "Bob", options)


@pytest.mark.asyncio
async def test_players_wait_for_a_sleeping_host_and_take_their_seats_back(
    tmp_path: Path,
) -> None:
    host, client = await _table(tmp_path, asleep_for=30.0)
    try:
        await client.connect()
        while client.model.snapshot is None:  # the game is under way
            await client.next_event()
        seat = (client.model.pid, client.model.colour)
        os.kill(host.proc.pid, signal.SIGSTOP)
        told: list[Connection] = []
        slept = asyncio.get_running_loop().time()
        while not any(_news(ev) is LinkNews.ASLEEP for ev in told):
            ev = await asyncio.wait_for(client.next_event(), 20)
            if isinstance(ev, Connection):
                told.append(ev)
        # Past dead_after + reconnect_for, where it used to give up: still trying.
        while asyncio.get_running_loop().time() - slept < 5.0:
            try:
                ev = await asyncio.wait_for(client.next_event(), 0.2)
            except TimeoutError:
                continue
            if isinstance(ev, Connection):
                told.append(ev)
        os.kill(host.proc.pid, signal.SIGCONT)
        while _news(told[-1]) is not LinkNews.BACK:
            ev = await asyncio.wait_for(client.next_event(), 20)
            if isinstance(ev, Connection):
                told.append(ev)
        codes = [_news(ev) for ev in told]
        # its ping unanswered, the player is told the host is quiet (still connected);
        # on a loaded machine a pong later than these short clocks may be told too
        quiet = {LinkNews.QUIET_NO_HEIR, LinkNews.ANSWERS}
        assert LinkNews.QUIET_NO_HEIR in codes[: codes.index(LinkNews.HELD)], codes
        told = [ev for ev in told if _news(ev) not in quiet]
        codes = [_news(ev) for ev in told]
        assert codes == [LinkNews.HELD, LinkNews.ASLEEP, LinkNews.BACK], codes
        assert told[1].state is Link.ASLEEP
        assert str(told[1].news) == (
            "the host is not answering (asleep or out of reach); your seat is kept"
        )
        assert not any("check the address" in str(ev.news) for ev in told)
        assert (client.model.pid, client.model.colour) == seat and client.connected
    finally:
        if host.proc.returncode is None:
            os.kill(host.proc.pid, signal.SIGCONT)
        await host.finish([client])


@pytest.mark.asyncio
async def test_a_bot_gives_up_on_a_host_that_sleeps_too_long_without_blaming_the_address(
    tmp_path: Path,
) -> None:
    host, client = await _table(tmp_path, asleep_for=3.0)
    heard: list[str] = []

    def progress(news: object, number: int, total: int) -> None:
        if isinstance(news, Connection):
            heard.append(str(news.news))

    try:
        await client.connect()
        playing = asyncio.create_task(run_bot(client, progress=progress))
        while client.model.snapshot is None:
            await asyncio.sleep(0.05)
        os.kill(host.proc.pid, signal.SIGSTOP)
        assert await asyncio.wait_for(playing, 20) is None  # lost for good, after 3 s
        assert heard[-1].startswith(
            "gave up reconnecting (the host is not answering (asleep or out of reach); "
            "your seat is kept)"
        ), heard
        assert not any("check the address" in text for text in heard), heard
    finally:
        if host.proc.returncode is None:
            os.kill(host.proc.pid, signal.SIGCONT)
        await host.finish([client])


@pytest.mark.asyncio
async def test_a_host_that_never_answered_is_still_a_wrong_address(tmp_path: Path) -> None:
    host = await HostProcess.spawn("--bind", LOCAL, "--port", "0", "--data-dir", str(tmp_path))
    os.kill(host.proc.pid, signal.SIGSTOP)
    client = GameClient(LOCAL, host.port, "Bob", ClientOptions(**QUICK))  # type: ignore[arg-type]
    try:
        with pytest.raises(JoinError) as caught:
            await client.connect()
        assert caught.value.reason is JoinFailure.UNREACHABLE
        assert caught.value.code is Joining.SILENT
    finally:
        os.kill(host.proc.pid, signal.SIGCONT)
        await host.finish([client])


@pytest.mark.asyncio
async def test_a_spectator_waits_for_a_sleeping_host_and_is_told_of_no_seat(
    tmp_path: Path,
) -> None:
    host, client = await _table(tmp_path, asleep_for=30.0, spectate=True)
    try:
        await client.connect()
        os.kill(host.proc.pid, signal.SIGSTOP)
        told: list[LinkNews | None] = []
        while LinkNews.REWATCH not in told:
            told.append(_news(await asyncio.wait_for(client.next_event(), 20)))
        await asyncio.sleep(3.5)  # past dead_after + reconnect_for: still trying
        os.kill(host.proc.pid, signal.SIGCONT)
        while LinkNews.WATCHING not in told:
            told.append(_news(await asyncio.wait_for(client.next_event(), 20)))
        news = [t for t in told if t is not None]
        # no seat to be kept (told first, as a player is, that the host is quiet)
        assert LinkNews.QUIET_NO_HEIR in news[: news.index(LinkNews.REWATCH)], news
        news = [t for t in news if t not in (LinkNews.QUIET_NO_HEIR, LinkNews.ANSWERS)]
        assert news == [LinkNews.REWATCH, LinkNews.WATCHING], news
    finally:
        if host.proc.returncode is None:
            os.kill(host.proc.pid, signal.SIGCONT)
        await host.finish([client])
