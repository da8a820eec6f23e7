"""Advertise -> browse -> resolve with real zeroconf, in a loopback-only namespace.

Each test body runs in a forked child inside a fresh network namespace where
only `lo` (127.0.0.1) exists, so nothing reaches a real interface.  Adverts
use `cooperating_responders=True` (no probing) unless a test needs renaming.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

import pytest
from netns import netns_skip_reason, run_in_loopback_netns
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from sorry_lan.discovery import (
    SERVICE_TYPE,
    ChangeKind,
    DiscoveryError,
    FoundGame,
    GameAd,
    GameAdvertiser,
    GameBrowser,
    GameEvent,
    Unjoinable,
    async_find_games,
    make_zeroconf,
)
from sorry_lan.rules import Phase

_skip = netns_skip_reason()
pytestmark = [pytest.mark.netns, pytest.mark.skipif(_skip is not None, reason=_skip or "")]

LO = "127.0.0.1"


async def listener() -> tuple[asyncio.Server, int]:
    """A TCP listener standing in for the game host."""
    server = await asyncio.start_server(lambda r, w: w.close(), LO, 0)
    return server, server.sockets[0].getsockname()[1]


def ad(name: str = "Friday night", **kw: object) -> GameAd:
    fields: dict[str, object] = {"host_player": "Ann", "seats_total": 4}
    fields.update(kw)
    return GameAd(name, **fields)  # type: ignore[arg-type]


async def next_event(
    events: AsyncIterator[GameEvent], pred: Callable[[GameEvent], bool], timeout: float = 5.0
) -> GameEvent:
    async with asyncio.timeout(timeout):
        async for event in events:
            if pred(event):
                return event
    raise AssertionError("event stream ended")


def test_advertise_browse_update_and_goodbye() -> None:
    async def body() -> list[str]:
        server, port = await listener()
        host_zc, player_zc = make_zeroconf([LO]), make_zeroconf([LO])
        seen: list[str] = []
        try:
            async with GameBrowser(player_zc, on_change=lambda e: seen.append(e.kind)) as browser:
                events = browser.events()
                adv = GameAdvertiser(
                    host_zc, ad(variant="points"), port, [LO], cooperating_responders=True
                )
                async with adv:
                    added = await next_event(events, lambda e: e.kind is ChangeKind.ADDED)
                    g = added.game
                    assert (g.name, g.host_player, g.variant) == ("Friday night", "Ann", "points")
                    assert (g.seats_taken, g.seats_total, g.state) == (1, 4, Phase.LOBBY)
                    assert g.joinable and g.reason is None and g.pin_required is False
                    assert (g.address, g.port, g.addresses) == (LO, port, (LO,))
                    assert g.service_name == adv.name and g.instance == "Friday night"
                    assert browser.games == {adv.name: g}

                    await adv.async_update(seats_taken=4)
                    full = await next_event(events, lambda e: e.kind is ChangeKind.UPDATED)
                    assert full.game.reason is Unjoinable.FULL and not full.game.joinable

                    await adv.async_update(seats_taken=3, state="playing")
                    playing = await next_event(events, lambda e: e.game.state is Phase.PLAYING)
                    assert playing.game.reason is Unjoinable.PLAYING
                gone = await next_event(events, lambda e: e.kind is ChangeKind.REMOVED)
                assert gone.game.service_name == adv.name
                assert browser.games == {}
                await adv.async_close()  # a second close is harmless
        finally:
            server.close()
            await host_zc.async_close()
            await player_zc.async_close()
        return seen

    seen = run_in_loopback_netns(body)
    assert seen[0] == "added" and seen[-1] == "removed" and "updated" in seen


def test_cancelled_host_still_says_goodbye_and_names_clash_are_renamed() -> None:
    async def body() -> tuple[str, str, list[str]]:
        server, port = await listener()
        host_zc, player_zc = make_zeroconf([LO]), make_zeroconf([LO])
        try:
            async with GameBrowser(player_zc) as browser:
                events = browser.events()
                first = GameAdvertiser(host_zc, ad(), port, [LO])
                await first.async_start()  # probes: ~1.2 s
                other_zc = make_zeroconf([LO])  # a second "host" on the same network
                second = GameAdvertiser(other_zc, ad(host_player="Bob"), port, [LO])

                async def run_second() -> None:
                    async with second:
                        await asyncio.sleep(3600)

                task = asyncio.create_task(run_second())
                both: set[str] = set()
                while len(both) < 2:
                    e = await next_event(events, lambda e: e.kind is ChangeKind.ADDED)
                    both.add(e.game.instance)
                names = sorted(g.host_player or "" for g in browser.games.values())
                task.cancel()  # like Ctrl-C in the host
                with pytest.raises(asyncio.CancelledError):
                    await task
                gone = await next_event(events, lambda e: e.kind is ChangeKind.REMOVED)
                await first.async_close()
                await other_zc.async_close()
                return first.instance, second.instance, [gone.game.instance, *names]
        finally:
            server.close()
            await host_zc.async_close()
            await player_zc.async_close()

    first, second, (gone, *hosts) = run_in_loopback_netns(body)
    assert (first, second, gone) == ("Friday night", "Friday night-2", "Friday night-2")
    assert hosts == ["Ann", "Bob"]


def test_find_games_lists_live_games_and_skips_dead_ones() -> None:
    async def body() -> tuple[list[FoundGame], list[FoundGame], list[FoundGame], list[str]]:
        player_zc = make_zeroconf([LO])
        host_zc = make_zeroconf([LO])
        nothing = await async_find_games(player_zc, 0.3)
        live_server, live_port = await listener()
        dead_server, dead_port = await listener()
        dead_server.close()  # advert stays, nobody answers: a killed host's cached record
        await dead_server.wait_closed()
        try:
            async with (
                GameAdvertiser(host_zc, ad("Alive"), live_port, [LO], cooperating_responders=True),
                GameAdvertiser(host_zc, ad("Dead"), dead_port, [LO], cooperating_responders=True),
            ):
                games = await async_find_games(player_zc, 0.5)
                with_dead = await async_find_games(player_zc, 0.3, include_unreachable=True)
                dumped = [json.dumps(g.to_json()) for g in with_dead]
        finally:
            live_server.close()
            await host_zc.async_close()
            await player_zc.async_close()
        return nothing, games, with_dead, dumped

    nothing, games, with_dead, dumped = run_in_loopback_netns(body)
    assert nothing == []
    assert [g.name for g in games] == ["Alive"] and games[0].joinable
    assert [(g.name, g.reason) for g in with_dead] == [
        ("Alive", None),
        ("Dead", Unjoinable.UNREACHABLE),
    ]
    assert json.loads(dumped[1])["reason"] == "unreachable"


def test_host_that_stops_answering_is_dropped_and_comes_back() -> None:
    async def body() -> list[tuple[str, bool]]:
        server, port = await listener()
        host_zc, player_zc = make_zeroconf([LO]), make_zeroconf([LO])
        answering = True

        async def prober(address: str, p: int, timeout: float) -> bool:
            return answering and p == port

        log: list[tuple[str, bool]] = []
        try:
            async with GameBrowser(player_zc, prober=prober, reverify_interval=0.2) as browser:
                events = browser.events()
                async with GameAdvertiser(host_zc, ad(), port, [LO], cooperating_responders=True):
                    e = await next_event(events, lambda e: True)
                    log.append((e.kind.value, e.game.joinable))
                    answering = False
                    e = await next_event(events, lambda e: True)
                    log.append((e.kind.value, e.game.joinable))
                    answering = True
                    await browser.async_reverify()
                    e = await next_event(events, lambda e: True)
                    log.append((e.kind.value, e.game.joinable))
        finally:
            server.close()
            await host_zc.async_close()
            await player_zc.async_close()
        return log

    assert run_in_loopback_netns(body) == [("added", True), ("removed", True), ("added", True)]


def test_hostile_adverts_are_listed_with_a_reason_and_a_raising_prober_is_contained() -> None:
    async def body() -> dict[str, tuple[Unjoinable | None, str | None]]:
        server, port = await listener()
        host_zc, player_zc = make_zeroconf([LO]), make_zeroconf([LO])

        async def raw(name: str, txt: bytes, server_name: str) -> AsyncServiceInfo:
            info = AsyncServiceInfo(
                SERVICE_TYPE,
                f"{name}.{SERVICE_TYPE}",
                port=port,
                properties=txt,
                server=f"{server_name}.local.",
                parsed_addresses=[LO],
            )
            await host_zc.async_register_service(info, cooperating_responders=True)
            return info

        async def prober(address: str, p: int, timeout: float) -> bool:
            if p != port:
                raise RuntimeError("prober bug")
            return True

        try:
            await raw("Garbage", b"\x09seats=x/y\xff\x10\x00\x01", "h1")
            await raw("Future", b"\x05pv=99\x0cnew=unknown!", "h2")
            await raw("Empty", b"", "h3")
            async with (
                GameBrowser(player_zc, prober=prober) as browser,
                GameAdvertiser(host_zc, ad("Good"), port, [LO], cooperating_responders=True),
                GameAdvertiser(
                    host_zc,
                    ad("Bad port"),
                    port + 1 if port < 65535 else 1,
                    [LO],
                    cooperating_responders=True,
                ),
            ):
                async with asyncio.timeout(5):
                    while len(browser.games) < 4:
                        await asyncio.sleep(0.05)
                await browser.async_wait_settled(2)
                return {g.name: (g.reason, g.host_player) for g in browser.games.values()}
        finally:
            server.close()
            await host_zc.async_close()
            await player_zc.async_close()

    found = run_in_loopback_netns(body)
    assert found == {
        "Garbage": (Unjoinable.INVALID, None),
        "Future": (Unjoinable.NEWER_PROTOCOL, None),
        "Empty": (Unjoinable.INVALID, None),
        "Good": (None, "Ann"),
    }


def test_make_zeroconf_rejects_bad_interfaces_clearly() -> None:
    async def body() -> list[str]:
        errors = []
        for interfaces, ipv6 in ((["not-an-ip"], False), (["::1"], False), (["10.9.9.9"], False)):
            try:
                zc = make_zeroconf(interfaces, ipv6)
            except DiscoveryError as exc:
                errors.append(str(exc))
            else:
                await zc.async_close()
        zc = make_zeroconf([LO])
        assert isinstance(zc, AsyncZeroconf)
        await zc.async_close()
        return errors

    errors = run_in_loopback_netns(body)
    assert len(errors) == 3
    assert "not-an-ip" in errors[0] and "--ipv6" in errors[1] and "10.9.9.9" in errors[2]


def test_default_addresses_fall_back_to_loopback_and_bad_port_is_refused() -> None:
    async def body() -> str:
        zc = make_zeroconf([LO])
        try:
            with pytest.raises(DiscoveryError, match="port"):
                GameAdvertiser(zc, ad(), 0)
            with pytest.raises(DiscoveryError, match="nonsense"):
                GameAdvertiser(zc, ad(), 4000, ["nonsense"])
            with pytest.raises(DiscoveryError, match="no address"):
                GameAdvertiser(zc, ad(), 4000, [])
            adv = GameAdvertiser(zc, ad(), 4000, cooperating_responders=True)
            async with adv:
                info = await zc.async_get_service_info(SERVICE_TYPE, adv.name, 2000)
                assert info is not None
                return ",".join(info.parsed_addresses())
        finally:
            await zc.async_close()

    assert run_in_loopback_netns(body) == LO
