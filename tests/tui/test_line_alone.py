"""Playing on alone in the line mode (issue 31), through the real input loop
(``play_lines``) at real tables on 127.0.0.1, the link between the two laptops cut by
a relay: Bob's ``join`` laptop, which nobody answers, asks Bob whether to start a game
of his own (a yes does, under a new table id; a no keeps looking); Ann's host, cut off
from Bob's laptop, says why her game is paused, and ``alone`` then a yes plays on."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from relay import Relay

from sorry_lan.authority.table import TableConfig
from sorry_lan.commands.host import _alone
from sorry_lan.i18n import LANGUAGES, use_language
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.heir import Heir, HeirOptions, start_table
from sorry_lan.net.host import HostOptions
from sorry_lan.net.hosted import HostedTable
from sorry_lan.succession.knowledge import Knowledge
from sorry_lan.tui.alone import AloneQuestion, LineAlone
from sorry_lan.tui.lines import play_lines
from sorry_lan.tui.state import PlayAlone
from sorry_lan.wire.succession import Laptop

LOCAL = "127.0.0.1"
TID = "00112233aabbccdd"
D = 1.0  # the takeover delay
G = 2.5  # the grace: the lone walk asks after it


@dataclass
class Lines:
    """A line mode's transcript and its keyboard."""

    said: list[str]
    typed: asyncio.Queue[str | None]

    async def read(self, queue: asyncio.Queue[str | None]) -> None:
        while True:
            queue.put_nowait(await self.typed.get())

    async def heard(self, part: str, timeout: float = 10.0) -> str:
        async def wait() -> str:
            while True:
                found = [text for text in self.said if part in text]
                if found:
                    return found[-1]
                await asyncio.sleep(0.02)

        return await asyncio.wait_for(wait(), timeout)

    def type(self, line: str) -> None:
        self.typed.put_nowait(line)


def lines() -> Lines:
    return Lines([], asyncio.Queue())


@dataclass
class Table:
    hosted: HostedTable
    relay: Relay
    ann: GameClient
    bob: GameClient
    bob_heir: Heir


@contextlib.asynccontextmanager
async def two_laptops(tmp_path: Path, question: AloneQuestion | None) -> AsyncIterator[Table]:
    """Ann hosts a game of two (her own seat on her laptop), Bob's laptop plays at it
    through a relay (cut: the link between the laptops is down) and asks Bob
    through ``question``."""
    hosted = HostedTable(
        TableConfig(seats=2, grace=G, turn_timeout=None), tmp_path / "ann.journal",
        HostOptions(table_id=TID, takeover_delay=D), owner="Ann", bind=LOCAL,
    )  # fmt: skip
    where = HeirOptions(bind=LOCAL, also=())

    async def successor(knowledge: Knowledge, epoch: int, sock: socket.socket) -> HostedTable:
        return await start_table(knowledge, epoch, sock, tmp_path / "bob", also=())

    async with hosted:
        relay = Relay(hosted.address[1])
        await relay.start()
        own = ClientOptions(token=hosted.owner_token)
        ann = GameClient(LOCAL, hosted.address[1], "Ann", own, Heir(lambda: [LOCAL], None, where))
        bob_heir = Heir(lambda: [LOCAL], successor, where, ask_alone=question)
        bob = GameClient(LOCAL, relay.port, "Bob", ClientOptions(), bob_heir)
        try:
            await ann.connect()
            await bob.connect()
            while not hosted.server.core.can_hand_over():  # Bob's laptop offered
                await asyncio.sleep(0.02)
            ann.start()
            while hosted.table.game is None or bob.model.snapshot is None:
                await asyncio.sleep(0.02)
            _as_on_a_lan(bob, bob_heir)
            yield Table(hosted, relay, ann, bob, bob_heir)
        finally:
            await ann.close()
            await bob.close()
            if bob_heir.hosted is not None:
                await bob_heir.hosted.close()
            await relay.close()


async def stop(ui: asyncio.Task[int]) -> None:
    """End a line mode still running (its reader with it)."""
    ui.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await ui


def hosting(heir: Heir) -> bool:
    """Whether the laptop hosts now (looked at afresh each time)."""
    return heir.hosting


def paused_and_alone(hosted: HostedTable) -> tuple[bool, bool]:
    """Whether the host pauses now, and whether its person plays on alone."""
    return hosted.server.core.paused, hosted.server.core.alone


def _as_on_a_lan(bob: GameClient, heir: Heir) -> None:
    """Every laptop of this table is on the host's machine, so its host names Bob's
    laptop in the order at its loopback standby (SPEC 13), as a LAN's host would at
    its LAN address."""
    election, pid = bob.model.election, bob.model.pid
    assert election is not None and pid is not None
    assert election.order.laptops == (Laptop(pid, (LOCAL,), heir.listener.port),)


@pytest.mark.asyncio
async def test_bob_s_laptop_that_nobody_answers_asks_him_and_a_yes_starts_his_own(
    tmp_path: Path,
) -> None:
    question = AloneQuestion()
    async with two_laptops(tmp_path, question) as t:
        bob = lines()
        ui = asyncio.create_task(play_lines(t.bob, bob.said.append, bob.read, ask_alone=question))
        await t.relay.cut()  # Ann's laptop closed its lid, as far as Bob can tell
        asked = await bob.heard("No other laptop answers", timeout=G + 10)
        assert asked.endswith("Type yes or no.") and "with bots in their seats" in asked
        assert not t.bob_heir.hosting  # (asked first: it takes nothing by itself)
        bob.type("what?")
        while bob.said.count(asked) < 2:  # asked again
            await asyncio.sleep(0.02)
        bob.type("yes")
        await bob.heard("You start a game of your own here.")
        while not hosting(t.bob_heir):
            await asyncio.sleep(0.02)
        own = t.bob_heir.hosted
        assert own is not None and own.table_id != TID  # a game of its own
        assert not question.asking
        await stop(ui)


@pytest.mark.asyncio
async def test_a_no_keeps_looking_and_the_question_goes_when_the_host_is_back(
    tmp_path: Path,
) -> None:
    question = AloneQuestion()
    async with two_laptops(tmp_path, question) as t:
        bob = lines()
        ui = asyncio.create_task(play_lines(t.bob, bob.said.append, bob.read, ask_alone=question))
        await t.relay.cut()
        await bob.heard("No other laptop answers", timeout=G + 10)
        bob.type("no")
        await bob.heard("You keep looking for the table.")
        await asyncio.sleep(1.0)
        assert not t.bob_heir.hosting and not question.asking
        await t.relay.resume()  # the link is back: Bob's laptop finds the table again
        while t.bob.model.election is None or not t.bob.connected:
            await asyncio.sleep(0.05)
        assert not t.bob_heir.hosting and t.hosted.server.moved_to is None
        await stop(ui)


@pytest.mark.asyncio
async def test_the_question_unanswered_is_withdrawn_when_the_host_is_back(
    tmp_path: Path,
) -> None:
    question = AloneQuestion()
    async with two_laptops(tmp_path, question) as t:
        bob = lines()
        ui = asyncio.create_task(play_lines(t.bob, bob.said.append, bob.read, ask_alone=question))
        await t.relay.cut()
        await bob.heard("No other laptop answers", timeout=G + 10)
        await t.relay.resume()
        while question.asking:
            await asyncio.sleep(0.05)
        bob.type("yes")  # (too late: the table is back; an ordinary line now)
        await bob.heard("Your command did not work")
        assert not t.bob_heir.hosting and t.hosted.server.moved_to is None
        await stop(ui)


@pytest.mark.asyncio
async def test_ann_s_cut_off_host_says_why_and_alone_then_yes_plays_on(tmp_path: Path) -> None:
    async with two_laptops(tmp_path, None) as t:
        ann = lines()
        ui = asyncio.create_task(play_lines(
            t.ann, ann.said.append, ann.read, play_alone=_alone(t.hosted.server)))
        ann.type("alone")
        await ann.heard("your game is not paused")  # nothing to choose yet
        await t.relay.cut()  # Bob's laptop is gone: Ann's is one of two
        why = await ann.heard("cut off from the other laptops", timeout=10)
        assert why.endswith("Type alone to play on alone.") and t.hosted.server.core.paused
        ann.type("alone")
        asked = await ann.heard("Play on alone")
        assert "a game of your own" in asked and asked.endswith("Type yes or no.")
        ann.type("no")
        await ann.heard("Your game waits for the other laptops.")
        assert paused_and_alone(t.hosted) == (True, False)
        ann.type("alone")
        ann.type("y")
        await ann.heard("You play on alone: a game of your own.")
        assert paused_and_alone(t.hosted) == (False, True)
        await stop(ui)


def test_the_sentences_in_every_language_keep_their_command_words() -> None:
    class Paused:
        def __init__(self) -> None:
            self.started = 0

        def start(self) -> bool:
            self.started += 1
            return True

    for lang in sorted(LANGUAGES):
        with use_language(lang):
            paused = Paused()
            line = LineAlone(AloneQuestion(), PlayAlone(lambda: True, paused.start))
            (told,) = line.news()
            (asked,) = line.command("alone") or [""]
            (played,) = line.answer("yes")
            helped = line.help_lines()
        assert "alone" in told and "yes" in asked and "no" in asked and paused.started == 1
        assert played and "alone" in helped[0]
        if lang != "en":
            assert "cut off" not in told and "Play on alone" not in asked
