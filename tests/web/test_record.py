"""The finished game's record on a phone: sent over the seat's own WebSocket once the
game is over, the file ``sorry-lan replay`` reads back and the text form in the page's
language, again to a page opened anew or switched to another language, and never
before the game is over.  A real host and its web server on loopback; the phone plays
every turn it is offered by its first move, against a bot of the host's."""

from __future__ import annotations

import asyncio

import pytest
from webkit import Page, Served, me, served

from sorry_lan.i18n import use_language
from sorry_lan.i18n.recordwords import record_lines
from sorry_lan.records import check, dump, load
from sorry_lan.web.record import file_stem


async def _play_to_the_end(page: Page) -> dict[str, object]:
    """Tap the first move of every offer until the game is over; every frame before
    the record frame is checked to be no record."""
    async with asyncio.timeout(60):
        while True:
            frame = await page._frames.get()
            if frame["t"] == "record":
                return frame
            if frame["t"] != "screen":
                continue
            page.last = frame
            assert frame["record"] is None or frame["phase"] == "over"
            # (a page taps: no line tells its player a command to type)
            assert not [line for line in frame["log"] if "type " in line], frame["log"]
            if frame["moves"]:
                await page.send(t="move", offer=frame["offer"], index=0)


async def _seated(s: Served, name: str, lang: str = "en") -> tuple[Page, str]:
    page = await s.page()
    await page.send(t="join", name=name, lang=lang)
    token: str = (await page.next("seat"))["token"]
    await page.until(lambda f: me(f) is not None)
    return page, token


@pytest.mark.asyncio
async def test_the_phone_is_sent_the_games_record_when_the_game_is_over() -> None:
    async with served(seats=2, bots=1) as s:
        page, token = await _seated(s, "Ann")
        sent = await _play_to_the_end(page)
        over = await page.until(lambda f: f["phase"] == "over")
        assert over["record"] == sent["game"] == 1
        # The file is the record the host keeps, byte for byte as a laptop files it,
        # and replays to the result shown.
        record = load(str(sent["record"]).encode())
        assert dump(record).decode() == sent["record"]
        check(record)
        assert record["result"] is not None
        assert "Ann" in [seat["name"] for seat in record["seats"]]
        assert sent["file"] == file_stem(record, 1) + ".json"
        assert sent["text_file"] == file_stem(record, 1) + ".txt"
        assert str(sent["file"]).startswith("sorry-lan-2") and str(sent["file"]).endswith(
            "-game-1.json")
        assert sent["text"] == "\n".join(record_lines(record)) + "\n"

        # Sent once: a chat line redraws the page without sending the record again.
        await page.send(t="chat", text="gg")
        kinds = []
        async with asyncio.timeout(10):
            while not any("gg" in line for line in page.last["log"]):
                frame = await page._frames.get()
                kinds.append(frame["t"])
                if frame["t"] == "screen":
                    page.last = frame
        assert "screen" in kinds and "record" not in kinds

        # Another language: the text form again, in it.
        await page.send(t="lang", lang="el")
        greek = await page.next("record")
        with use_language("el"):
            assert greek["text"] == "\n".join(record_lines(record)) + "\n" != sent["text"]
        assert greek["record"] == sent["record"]

        # The page opened anew (a phone that reloads it) is sent it too.
        await page.ws.close()
        again = await s.page()
        await again.join("Ann", token)
        assert (await again.next("record"))["record"] == sent["record"]


def test_a_saved_records_name_says_when_and_which_game() -> None:
    assert file_stem({"started": "2026-12-08T20:15:03Z"}, 3) == "sorry-lan-20261208-2015-game-3"
    assert file_stem({"started": None}, 1) == "sorry-lan-game-1"
