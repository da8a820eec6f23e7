"""The phone's web server on loopback: its own files with a strict CSP, what it refuses
and with which status, malformed frames answered without touching the seat, and a
page that acts for its own seat only.  The table is a real host in the same loop."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from webkit import Page, Served, me, served

from sorry_lan.web.server import CSP, FILES, page_files

#: The page's weight the issue aims under, all files told.
PAGE_BUDGET = 150 * 1024


@pytest.mark.asyncio
async def test_the_page_files_are_served_with_a_strict_csp() -> None:
    async with served() as s:
        shipped = page_files()
        for path, name in (("/", "index.html"), ("/app.js", "app.js"), ("/app.css", "app.css")):
            async with s.session.get(s.url + path) as r:
                assert r.status == 200
                assert r.headers["Content-Type"] == FILES[name]
                assert r.headers["Content-Security-Policy"] == CSP
                assert r.headers["X-Content-Type-Options"] == "nosniff"
                assert await r.read() == shipped[name]
    assert "default-src 'none'" in CSP and "'unsafe-inline'" not in CSP
    assert sum(len(body) for body in shipped.values()) < PAGE_BUDGET
    page = shipped["index.html"].decode() + shipped["app.js"].decode()
    assert "http://" not in page and "https://" not in page  # nothing fetched elsewhere


@pytest.mark.asyncio
async def test_what_no_page_asks_is_refused_with_a_clear_status() -> None:
    async with served() as s:
        async with s.session.get(s.url + "/../pyproject.toml") as r:
            assert r.status == 404
        async with s.session.get(s.url + "/static/app.js") as r:
            assert r.status == 404
        async with s.session.post(s.url + "/", data=b"x") as r:
            assert r.status == 405 and "GET" in r.headers["Allow"]
        async with s.session.put(s.url + "/ws") as r:
            assert r.status == 405
        async with s.session.get(s.url + "/", data=b"x" * 100) as r:
            assert r.status == 413
        async with s.session.get(s.url + "/", headers={"X-Long": "y" * 10_000}) as r:
            assert r.status in (400, 431)
        async with s.session.get(s.url + "/ws", headers={"Origin": "http://evil.example"}) as r:
            assert r.status == 403
        async with s.session.get(s.url + "/") as r:
            assert r.status == 200  # still serving


async def _seated(s: Served, name: str) -> Page:
    page = await s.page()
    await page.join(name)
    await page.until(lambda f: me(f) is not None)
    return page


@pytest.mark.asyncio
async def test_malformed_frames_are_refused_and_the_seat_is_untouched() -> None:
    async with served(seats=3) as s:
        page = await _seated(s, "Ann")
        seat = me(page.last)
        assert seat is not None and seat["ready"] is False
        cases = {
            "not json": "not-json",
            "[1, 2]": "not-object",
            json.dumps({"t": "fly"}): "unknown",
            json.dumps({"t": "ready", "ready": 1}): "field",
            json.dumps({"t": "colour", "colour": 9}): "field",
            json.dumps({"t": "move", "offer": True, "index": 0}): "field",
            json.dumps({"t": "chat", "text": "x" * 2000}): "too-long",
            json.dumps({"t": "join", "name": "Eve"}): "joined",
            json.dumps({"t": "move", "offer": 1, "index": 0}): "stale",
        }
        for frame, reason in cases.items():
            await page.ws.send_str(frame)
            error = await page.next("error")
            assert error["reason"] == reason, frame
            assert error["text"]
        await page.ws.send_bytes(b"\x00\x01")
        assert (await page.next("error"))["reason"] == "binary"
        players = s.host.table.players.values()
        assert [(p.name, p.ready) for p in players] == [("Ann", False)]
        await page.send(t="ready", ready=True)  # the same socket still plays
        await page.until(lambda f: (me(f) or {}).get("ready") is True)
        assert [p.ready for p in s.host.table.players.values()] == [True]


@pytest.mark.asyncio
async def test_a_page_acts_for_its_own_seat_only() -> None:
    async with served(seats=2) as s:
        ann, bob = await _seated(s, "Ann"), await _seated(s, "Bob")

        def offered(f: dict[str, object]) -> bool:
            return bool(f["moves"])

        # The game starts by itself with both seated; whoever is offered moves first,
        # the other page sends that very offer's choice: it is refused, nothing moves.
        mover = await _first_offered(ann, bob)
        other = bob if mover is ann else ann
        sid = mover.last["offer"]
        before = s.host.table.game
        assert before is not None
        pawns = tuple(before.pawns)
        await other.send(t="move", offer=sid, index=0)
        assert (await other.next("error"))["reason"] == "stale"
        await asyncio.sleep(0.2)
        game = s.host.table.game
        assert game is not None and tuple(game.pawns) == pawns
        assert offered(mover.last)
        await mover.send(t="move", offer=sid, index=0)
        await mover.until(lambda f: f["offer"] != sid)
        game = s.host.table.game
        assert game is not None and tuple(game.pawns) != pawns  # every move moves a pawn


async def _first_offered(*pages: Page) -> Page:
    """The page that is offered moves first (no page's frames read by another task)."""
    async with asyncio.timeout(30):
        while True:
            for page in pages:
                page.drain()
                if page.last.get("moves"):
                    return page
            await asyncio.sleep(0.02)


@pytest.mark.asyncio
async def test_a_reopened_page_takes_its_seat_back_and_the_old_one_is_told() -> None:
    async with served(seats=3) as s:
        first = await s.page()
        token = await first.join("Ann")
        await first.until(lambda f: me(f) is not None)
        colour = me(first.last)["colour"]  # type: ignore[index]
        second = await s.page()
        assert await second.join("Ann", token) == token
        assert (await first.next("error"))["reason"] == "replaced"
        await second.until(lambda f: me(f) is not None)
        assert me(second.last)["colour"] == colour  # type: ignore[index]
        await second.ws.close()
        third = await s.page()  # closed, then opened again within the linger
        assert await third.join("Ann", token) == token
        await third.until(lambda f: me(f) is not None)
        assert len(s.host.table.players) == 1


@pytest.mark.asyncio
async def test_a_page_closed_past_the_linger_gives_its_client_up() -> None:
    async with served(seats=3, linger=0.1) as s:
        page = await s.page()
        token = await page.join("Ann")
        await page.until(lambda f: me(f) is not None)
        await page.ws.close()
        async with asyncio.timeout(5):
            while s.web.phones:
                await asyncio.sleep(0.05)
        again = await s.page()
        await again.join("Ann", token)  # the host no longer knows it: a new seat
        await again.until(lambda f: me(f) is not None)
        assert [p.name for p in s.host.table.players.values()] == ["Ann"]


@pytest.mark.asyncio
async def test_too_many_pages_are_refused() -> None:
    async with served() as s:
        s.web._pages = 16
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await s.session.ws_connect(s.url + "/ws")
        assert refused.value.status == 503


@pytest.mark.asyncio
async def test_each_page_reads_the_table_in_its_own_language() -> None:
    from sorry_lan.i18n import pgettext, use_language

    async with served(seats=3) as s:
        ann, bob = await s.page(), await s.page()
        await ann.send(t="join", name="Ann", lang="el-GR")
        await bob.join("Bob")
        greek = await ann.until(lambda f: len(f.get("seats", ())) == 3 and me(f) is not None)
        english = await bob.until(lambda f: len(f.get("seats", ())) == 3 and me(f) is not None)
        with use_language("el"):
            assert greek["words"]["ready"] == pgettext("key", "ready") != "ready"
        assert greek["lang"] == "el" and english["lang"] == "en"
        assert english["words"]["ready"] == "ready"
        await bob.send(t="lang", lang="cy")
        welsh = await bob.until(lambda f: f.get("lang") == "cy")
        assert welsh["words"]["ready"] != "ready"
        assert [seat["colour_name"] for seat in welsh["seats"]][:1] != ["Red"]
        players = {p.name: p.lang for p in s.host.table.players.values()}
        assert players == {"Ann": "el", "Bob": "cy"}  # each told the host in its profile


@pytest.mark.asyncio
@pytest.mark.parametrize("bye", [True, False])
async def test_a_server_closed_without_bye_leaves_the_seats_to_their_pages(bye: bool) -> None:
    """A table handed over closes its phones' clients without a bye: each seat waits
    (away, for the grace) for its page to come back at the new host, and the page is
    closed as going away (1001: it looks for the table); with a bye, a seat in the
    lobby is given up and the page closed as done (1000)."""
    async with served(seats=3) as s:
        page = await s.page()
        await page.join("Ann")
        await page.until(lambda f: me(f) is not None)
        await s.web.close(bye=bye)
        async with asyncio.timeout(5):
            while not page.ws.closed:
                await asyncio.sleep(0.05)
        assert page.ws.close_code == (1000 if bye else 1001)
        async with asyncio.timeout(5):
            while any(p.connected for p in s.host.table.players.values()):
                await asyncio.sleep(0.05)
        seated = [p.name for p in s.host.table.players.values()]
        assert seated == ([] if bye else ["Ann"])


@pytest.mark.asyncio
async def test_a_refusal_tells_the_phone_what_to_do_on_the_page() -> None:
    """The host's refusals read on a terminal name ``--pin`` or ``--name``; a page
    says what to do there instead (and the PIN, typed right, seats the phone)."""
    async with served(seats=3, pin="1234") as s:
        page = await s.page()
        said = []
        for frame in ({"name": "Ann"}, {"name": "Ann", "pin": "9999"}):
            await page.send(t="join", **frame)
            refused = await page.next("error")
            assert refused["reason"] == "refused"
            said.append(refused["text"])
        assert "PIN" in said[0] and "wrong PIN" in said[1]
        await page.send(t="join", name="Ann", pin="1234")
        await page.next("seat")
        other = await s.page()
        await other.send(t="join", name="Ann", pin="1234")
        taken = await other.next("error")
        said.append(taken["text"])
        assert "name is taken" in taken["text"]
    assert not any("--" in text for text in said), said
