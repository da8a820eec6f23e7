"""Watching the LAN for one table's adverts (``discovery.tablewatch``, issue 19), and the
join command's finder on it (``commands.lookout``).

What an advert says of the watched table (another table, one that does not answer or
does not speak our protocol: nothing; one under way or full is followed all the same),
and with real zeroconf in a loopback-only namespace: the table's advert at a new epoch
is seen, another table's is not, and the finder a client is given tells its callback
the epoch, addresses and port, then stops and closes its zeroconf instance."""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import replace

import pytest
from netns import netns_skip_reason, run_in_loopback_netns
from test_advert_epoch import found

from sorry_lan.commands.lookout import MdnsFinder, client_heir
from sorry_lan.discovery import GameAd, GameAdvertiser, Unjoinable, make_zeroconf
from sorry_lan.discovery.tablewatch import Sighting, TableWatch, sighting

TID = "k3v9q2m7x4"
LO = "127.0.0.1"
_skip = netns_skip_reason()
needs_netns = pytest.mark.skipif(_skip is not None, reason=_skip or "")


def test_a_live_advert_of_the_table_is_a_sighting_with_the_answering_address_first() -> None:
    game = found("Friday-2", TID, 3, address="10.0.0.7")
    game = replace(game, addresses=("10.0.0.6", "10.0.0.7"))
    assert sighting(game, TID) == Sighting(3, ("10.0.0.7", "10.0.0.6"), 47474)


def test_other_tables_and_adverts_that_do_not_answer_are_not_sightings() -> None:
    assert sighting(found("Chess", "p8w2c6", 2), TID) is None
    assert sighting(found("Old", None), TID) is None
    silent = found("Friday-2", TID, 2)
    assert sighting(replace(silent, address=None), TID) is None
    newer = found("Friday-2", TID, 2, reason=Unjoinable.NEWER_PROTOCOL)
    assert sighting(newer, TID) is None
    assert sighting(found("Friday-2", TID, 2, reason=Unjoinable.INVALID), TID) is None


def test_a_table_under_way_or_full_is_followed_all_the_same() -> None:
    for reason in (Unjoinable.PLAYING, Unjoinable.FULL, Unjoinable.FINISHED):
        game = found("Friday-2", TID, 2, reason=reason)
        assert sighting(game, TID) == Sighting(2, ("10.0.0.5",), 47474), reason


def test_a_spectator_s_heir_only_follows() -> None:
    args = argparse.Namespace(interface=None, ipv6=False, standby_port=0)
    follower = client_heir(args, spectate=True)
    assert follower.successor is None and follower.addresses() == ()
    assert client_heir(args, spectate=False).successor is not None
    finder = MdnsFinder.of(argparse.Namespace(interface=["10.0.0.5"], ipv6=True))
    assert (finder.interfaces, finder.ipv6) == (["10.0.0.5"], True)


@pytest.mark.netns
@needs_netns
def test_the_table_s_advert_at_a_new_epoch_is_seen_on_the_lan() -> None:
    async def body() -> list[Sighting]:
        server = await asyncio.start_server(lambda r, w: w.close(), LO, 0)
        port = server.sockets[0].getsockname()[1]
        host_zc, zc = make_zeroconf([LO]), make_zeroconf([LO])
        seen: list[Sighting] = []
        got = asyncio.Event()

        def on_found(s: Sighting) -> None:
            seen.append(s)
            got.set()

        try:
            watch = TableWatch(zc, TID, on_found, reverify_interval=None)
            await watch.start()
            try:
                other = GameAd("Chess", "Bob", seats_total=4, table_id="p8w2c6", epoch=5)
                async with GameAdvertiser(host_zc, other, port, [LO],
                                          cooperating_responders=True):
                    ad = GameAd("Friday", "Ann", seats_total=4, table_id=TID, epoch=2)
                    async with GameAdvertiser(host_zc, ad, port, [LO],
                                              cooperating_responders=True):
                        await asyncio.wait_for(got.wait(), 8)
                        await asyncio.sleep(0.5)  # the other table's advert too, by now
            finally:
                await watch.close()
            return seen
        finally:
            await zc.async_close()
            await host_zc.async_close()
            server.close()

    seen = run_in_loopback_netns(body, timeout=30)
    assert seen and all(s.epoch == 2 for s in seen)
    assert seen[0].addresses == (LO,)


@pytest.mark.netns
@needs_netns
def test_the_finder_tells_the_client_and_closes_its_zeroconf() -> None:
    async def body() -> tuple[list[tuple[int, tuple[str, ...], int]], bool]:
        server = await asyncio.start_server(lambda r, w: w.close(), LO, 0)
        port = server.sockets[0].getsockname()[1]
        host_zc = make_zeroconf([LO])
        told: list[tuple[int, tuple[str, ...], int]] = []
        finder = MdnsFinder([LO])
        try:
            await finder.start(TID, lambda e, a, p: told.append((e, a, p)))
            ad = GameAd("Friday", "Ann", seats_total=4, table_id=TID, epoch=4)
            async with GameAdvertiser(host_zc, ad, port, [LO], cooperating_responders=True):
                for _ in range(80):
                    if told:
                        break
                    await asyncio.sleep(0.1)
            zc = finder._zc
            await finder.stop()
            await finder.stop()  # safe twice
            closed = zc is not None and zc.zeroconf.done and finder._zc is None
            return [(e, a, p - port) for e, a, p in told], closed
        finally:
            await host_zc.async_close()
            server.close()

    told, closed = run_in_loopback_netns(body, timeout=30)
    assert told and told[0] == (4, (LO,), 0)
    assert closed


class _Finder:
    """A finder that records its starts and stops (``fail``: mDNS cannot open)."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.calls: list[str] = []

    async def start(self, tid: str, sighted: object) -> None:
        from sorry_lan.discovery import DiscoveryError

        self.calls.append(f"start {tid}")
        if self.fail:
            raise DiscoveryError("no mDNS here")

    async def stop(self) -> None:
        self.calls.append("stop")


def test_a_host_watches_its_tables_adverts_only_while_cut_off() -> None:
    """``host``'s watch (SPEC 13: a cut-off host steps down on an advert of its table
    at a newer epoch): started when the server says it is cut off, stopped when it is
    back, and closed with the table; where mDNS cannot open it gives up quietly."""
    from sorry_lan.commands.lookout import AdvertWatch

    def on(watch: AdvertWatch) -> bool:  # (a call: an assert before narrows nothing)
        return watch.watching

    async def run() -> tuple[list[str], list[str]]:
        finder = _Finder()
        watch = AdvertWatch(finder, TID, lambda epoch, addrs, port: None)
        watch.cut_off(True)
        await asyncio.sleep(0)
        assert on(watch)
        watch.cut_off(False)
        watch.cut_off(True)  # (back before it stopped: it goes on watching)
        await asyncio.sleep(0)
        watch.cut_off(False)
        for _ in range(3):
            await asyncio.sleep(0)
        assert not on(watch)
        watch.cut_off(True)
        for _ in range(3):
            await asyncio.sleep(0)
        assert on(watch)
        await watch.close()
        assert not on(watch)
        broken = _Finder(fail=True)
        lost = AdvertWatch(broken, TID, lambda epoch, addrs, port: None)
        lost.cut_off(True)
        for _ in range(3):
            await asyncio.sleep(0)
        lost.cut_off(False)
        lost.cut_off(True)
        for _ in range(3):
            await asyncio.sleep(0)
        await lost.close()
        return finder.calls, broken.calls

    calls, broken = asyncio.run(run())
    assert calls == [f"start {TID}", "stop", f"start {TID}", "stop"]
    assert broken == [f"start {TID}", "stop"]
