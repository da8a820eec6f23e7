"""The host's quit in the line mode (issue 19): asked, in sentences, whether to hand the
table to another player's laptop (Enter, the default) or end it for everyone (end), or
stay (stay); with no laptop to take it, quit leaves at once as before.  First the
question and its answers alone, then the real line interface (``play_lines``) of the
host's own player at a real table on 127.0.0.1, with a real laptop that takes it over."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from sorry_lan.authority.table import TableConfig
from sorry_lan.commands.leaving import Leaving
from sorry_lan.i18n import LANGUAGES, use_language
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.heir import Heir, HeirOptions, start_table
from sorry_lan.net.host import HostOptions
from sorry_lan.net.hosted import HostedTable
from sorry_lan.tui.line_leaving import LineLeaving
from sorry_lan.tui.lines import play_lines
from sorry_lan.tui.state import HandOver

LOCAL = "127.0.0.1"
TID = "00112233aabbccdd"


@dataclass
class Laptops:
    """A stand-in for the host command's hand-over: whether a laptop can take the table."""

    there: bool = True
    started: list[str] = field(default_factory=list)

    def hand_over(self) -> HandOver:
        return HandOver(lambda: self.there, lambda: self.started.append("hand over"),
                        hosting=lambda: True)


def asked(laptops: Laptops, in_game: bool = True) -> LineLeaving:
    leaving = LineLeaving(laptops.hand_over(), lambda: in_game)
    question = leaving.quit()
    assert question is not None and leaving.asking
    return leaving


@pytest.mark.parametrize("typed", ["", "  ", "hand", "H", "yes", "quit"])
def test_enter_or_hand_hands_the_table_over(typed: str) -> None:
    laptops = Laptops()
    leaving = asked(laptops)
    assert leaving.answer(typed) is None  # leave now
    assert laptops.started == ["hand over"] and leaving.handed and not leaving.asking


def test_end_leaves_without_handing_over_and_stay_stays() -> None:
    laptops = Laptops()
    leaving = asked(laptops)
    assert leaving.answer("end") is None and laptops.started == [] and not leaving.handed
    leaving = asked(laptops)
    assert leaving.answer("stay") == ["You stay at the table."] and not leaving.asking
    assert laptops.started == []
    leaving = asked(laptops)
    assert leaving.answer("what?") == [leaving.question()] and leaving.asking  # asked again


def test_without_a_laptop_or_as_a_guest_quit_leaves_at_once() -> None:
    assert LineLeaving(Laptops(there=False).hand_over(), lambda: True).quit() is None
    assert LineLeaving(None, lambda: True).quit() is None
    guest = HandOver(lambda: True, lambda: None)  # (hosting: never)
    assert LineLeaving(guest, lambda: True).quit() is None


def test_the_laptop_gone_meanwhile_the_host_is_told_and_chooses_again() -> None:
    laptops = Laptops()
    leaving = asked(laptops)
    laptops.there = False
    (told,) = leaving.answer("") or [""]
    assert told.startswith("No other player's laptop can take the table now")
    assert leaving.asking and laptops.started == []
    assert leaving.answer("e") is None


def test_the_question_in_every_language_names_the_command_words() -> None:
    english = asked(Laptops()).question()
    assert english == (
        "You host this table. Press Enter to hand it to another player's laptop, where the "
        "game goes on and you can rejoin as a player; or type end to end the game for "
        "everyone, or stay to stay."
    )
    assert "close it for everyone" in asked(Laptops(), in_game=False).question()
    for lang in sorted(LANGUAGES):
        with use_language(lang):
            said = [asked(Laptops(), in_game).question() for in_game in (True, False)]
            stay = asked(Laptops()).answer("stay")
        assert all("end" in text and "stay" in text for text in said), said
        assert said[0] != said[1] and stay is not None
        assert lang == "en" or (said[0] != english and stay != ["You stay at the table."])


async def _said(said: list[str], part: str) -> None:
    while not any(part in text for text in said):
        await asyncio.sleep(0.02)


@pytest.mark.asyncio
async def test_the_host_s_line_mode_hands_its_table_to_a_laptop(tmp_path: Path) -> None:
    """Ann hosts (her client plays in the line mode), Bob's laptop is at the table; Ann
    types quit, stay, quit and Enter: Bob's laptop hosts the table at epoch 2."""
    hosted = HostedTable(
        TableConfig(seats=4), tmp_path / "ann.journal",
        HostOptions(heartbeat=0.5, dead_after=5.0, table_id=TID, takeover_delay=3.0),
        owner="Ann", bind=LOCAL,
    )  # fmt: skip
    where = HeirOptions(bind=LOCAL, also=())

    async def successor(knowledge, epoch, sock):  # type: ignore[no-untyped-def]
        return await start_table(knowledge, epoch, sock, tmp_path / "bob", also=())

    async with hosted:
        port = hosted.address[1]
        ann = GameClient(LOCAL, port, "Ann", ClientOptions(token=hosted.owner_token),
                         Heir(lambda: [LOCAL], None, where))
        bob_heir = Heir(lambda: [LOCAL], successor, where)
        bob = GameClient(LOCAL, port, "Bob", ClientOptions(), bob_heir)
        said: list[str] = []
        typed: asyncio.Queue[str | None] = asyncio.Queue()

        async def read(queue: asyncio.Queue[str | None]) -> None:
            while True:
                queue.put_nowait(await typed.get())

        try:
            await ann.connect()
            await bob.connect()
            leaving = Leaving(lambda: hosted)
            ui = asyncio.create_task(
                play_lines(ann, said.append, read, hand_over=leaving.hand_over())
            )
            while not hosted.server.core.can_hand_over():  # Bob's laptop offered its standby
                await asyncio.sleep(0.02)
            typed.put_nowait("quit")
            await asyncio.wait_for(_said(said, "Press Enter to hand it"), 5)
            typed.put_nowait("stay")
            await asyncio.wait_for(_said(said, "You stay at the table."), 5)
            assert not ui.done() and hosted.server.core.can_hand_over()  # (not handed over)
            typed.put_nowait("quit")
            typed.put_nowait("")
            assert await asyncio.wait_for(ui, 5) == 0
            assert leaving.handed and hosted.server.moved_to == (2, bob.model.pid)
            while not bob_heir.hosting:  # Bob's laptop took the table over at once
                await asyncio.sleep(0.02)
            assert bob_heir.hosted is not None and bob_heir.hosted.server.core.epoch == 2
        finally:
            await ann.close()
            await bob.close()
            if bob_heir.hosted is not None:
                await bob_heir.hosted.close()
