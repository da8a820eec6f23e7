"""TableAdvertiser: a table summary becomes an advert that follows the table.

The pure parts (summary -> advert, where to advertise) run anywhere; the
advertiser itself runs with real zeroconf in a loopback-only namespace.
"""

from __future__ import annotations

import asyncio
import ipaddress
from dataclasses import dataclass, replace

import pytest
from netns import netns_skip_reason, run_in_loopback_netns

from sorry_lan.discovery import (
    AdvertError,
    AdvertPlan,
    ChangeKind,
    DiscoveryError,
    GameAd,
    GameBrowser,
    TableAdvertiser,
    ad_from_summary,
    advert_plan,
    join_addresses,
    make_zeroconf,
)
from sorry_lan.discovery.interfaces import Kind, NetInterface
from sorry_lan.net.host import TableSummary
from sorry_lan.rules import Phase, Variant

_skip = netns_skip_reason()
in_netns = pytest.mark.skipif(_skip is not None, reason=_skip or "")

LO = "127.0.0.1"


def summary(**kw: object) -> TableSummary:
    fields: dict[str, object] = {
        "name": "Ann",
        "variant": Variant.STANDARD,
        "phase": Phase.LOBBY,
        "seats_taken": 1,
        "seats": 4,
        "pin": False,
        "port": 4000,
    }
    fields.update(kw)
    return TableSummary(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("phase", list(Phase))
def test_summary_becomes_an_advert(phase: Phase) -> None:
    ad = ad_from_summary(
        summary(phase=phase, variant=Variant.POINTS, seats_taken=2, seats=3, pin=True), "Fri", "Bob"
    )
    assert ad == GameAd("Fri", "Bob", 3, 2, "points", phase, True)
    assert type(ad.variant) is str  # the advert holds plain text, as a parsed one does


def test_summary_that_cannot_be_advertised_is_a_typed_error() -> None:
    with pytest.raises(AdvertError, match="state"):
        ad_from_summary(summary(phase="paused"), "Fri", "Bob")
    with pytest.raises(AdvertError, match="variant"):
        ad_from_summary(summary(variant="Team Play!"), "Fri", "Bob")
    with pytest.raises(AdvertError, match="game name"):
        ad_from_summary(summary(), "", "Bob")
    # More players than seats (bots added then seats shrunk) is published as full.
    assert ad_from_summary(summary(seats_taken=5, seats=4), "Fri", "Bob").seats_taken == 4


def test_where_to_advertise() -> None:
    assert advert_plan("0.0.0.0", ["192.168.1.5", " 10.0.0.2"], False) == AdvertPlan(
        ["192.168.1.5", "10.0.0.2"], ["192.168.1.5", "10.0.0.2"], False
    )
    assert advert_plan("192.168.1.5", None, False) == AdvertPlan(
        ["192.168.1.5"], ["192.168.1.5"], False
    )
    assert advert_plan("fd00::5", None, False) == AdvertPlan(["fd00::5"], ["fd00::5"], True)
    for loopback in ("127.0.0.1", "127.3.0.1", "::1"):
        plan = advert_plan(loopback, None, False)
        assert plan.skip is not None and "only this machine" in plan.skip
    # An explicit --interface wins over a loopback bind (the user asked for it).
    assert advert_plan("127.0.0.1", [LO], False).skip is None
    with pytest.raises(DiscoveryError, match="--ipv6"):
        advert_plan("0.0.0.0", ["fd00::5"], False)
    with pytest.raises(DiscoveryError, match="not 'eth0'"):
        advert_plan("0.0.0.0", ["eth0"], False)
    with pytest.raises(DiscoveryError, match="'localhost'"):
        advert_plan("localhost", None, False)


def test_wildcard_bind_publishes_this_machines_addresses() -> None:
    plan = advert_plan("0.0.0.0", None, False)  # reads interface addresses; sends nothing
    assert plan.skip is None and plan.addresses and plan.interfaces == plan.addresses
    parsed = [ipaddress.ip_address(a) for a in plan.addresses]
    assert all(ip.version == 4 for ip in parsed)
    assert all(ip.is_loopback for ip in parsed) or not any(ip.is_loopback for ip in parsed)
    everywhere = advert_plan("0.0.0.0", None, False, all_interfaces=True)
    assert everywhere.interfaces is None and everywhere.addresses


MACHINE = [
    NetInterface("eth0", "eth0", ("192.168.1.20", "fd00::20", "fe80::1"), Kind.LAN),
    NetInterface("wlan0", "wlan0", ("10.0.0.7",), Kind.LAN),
    NetInterface("lo", "lo", ("127.0.0.1", "::1"), Kind.LOOPBACK),
    NetInterface("tun0", "tun0", ("10.8.0.2",), Kind.VPN),
    NetInterface("docker0", "docker0", ("172.17.0.1",), Kind.VIRTUAL),
]


def test_a_host_advertises_on_its_home_networks_not_on_vpns_or_docker() -> None:
    plan = advert_plan("0.0.0.0", None, False, read=lambda: MACHINE)
    lan = ["10.0.0.7", "192.168.1.20"]
    assert plan == AdvertPlan(lan, lan, False, skipped=("tun0", "docker0"))
    six = advert_plan("::", None, False, read=lambda: MACHINE)
    assert six.addresses == ["10.0.0.7", "192.168.1.20", "fd00::20"] and six.ipv6
    # Nothing but a VPN and docker: only this machine's players (loopback), not the VPN.
    alone = advert_plan("0.0.0.0", None, False, read=lambda: MACHINE[2:])
    assert alone == AdvertPlan(["127.0.0.1"], ["127.0.0.1"], False, skipped=("tun0", "docker0"))
    assert advert_plan("0.0.0.0", None, False, read=lambda: MACHINE[:3]).skipped == ()


def test_the_lobby_lists_the_address_of_each_network() -> None:
    assert join_addresses(None, False, read=lambda: MACHINE) == [
        ("eth0", "192.168.1.20"),
        ("wlan0", "10.0.0.7"),
    ]
    assert join_addresses(None, True, read=lambda: MACHINE)[:2] == [
        ("eth0", "192.168.1.20"),
        ("eth0", "fd00::20"),
    ]
    every = join_addresses(None, False, all_interfaces=True, read=lambda: MACHINE)
    assert ("tun0", "10.8.0.2") in every and ("docker0", "172.17.0.1") in every
    assert join_addresses(None, False, read=lambda: MACHINE[2:]) == [("lo", "127.0.0.1")]
    # --interface: those of its addresses this machine has, named by their network.
    assert join_addresses(["10.0.0.7", "10.9.9.9"], False, read=lambda: MACHINE) == [
        ("wlan0", "10.0.0.7")
    ]
    with pytest.raises(DiscoveryError, match="--ipv6"):
        join_addresses(["fd00::20"], False, read=lambda: MACHINE)


@dataclass
class Seen:
    published: list[GameAd]
    kinds: list[str]
    last: tuple[int | None, Phase | None]
    warnings: list[str]
    announced: list[str]


@pytest.mark.netns
@in_netns
def test_bursts_of_changes_become_few_updates_and_close_says_goodbye() -> None:
    async def body() -> Seen:
        host_zc = make_zeroconf([LO])
        player_zc = make_zeroconf([LO])
        warnings: list[str] = []
        announced: list[str] = []
        adv = TableAdvertiser(
            "Busy table",
            "Ann",
            4000,
            AdvertPlan([LO], [LO], False),
            warn=warnings.append,
            announce=announced.append,
            cooperating_responders=True,
        )
        kinds: list[str] = []
        try:
            async with GameBrowser(
                player_zc,
                prober=lambda a, p, t: asyncio.sleep(0, result=True),
                reverify_interval=None,
            ) as browser:
                events = browser.events()
                assert adv.start(summary())
                assert await adv.wait_registered(5)
                assert adv.instance == "Busy table"
                # A game's worth of moves: each changes the table, none the advert ...
                for _move in range(200):
                    adv.update(summary())
                # ... then seats come and go in one burst, and the game starts.
                for taken in (2, 3, 4, 3, 4):
                    adv.update(summary(seats_taken=taken))
                adv.update(summary(seats_taken=4, phase="playing"))
                async with asyncio.timeout(5):
                    async for e in events:
                        kinds.append(e.kind.value)
                        if e.game.state is Phase.PLAYING:
                            break
                last = next(iter(browser.games.values()))
                await adv.close()
                async with asyncio.timeout(5):
                    async for e in events:
                        kinds.append(e.kind.value)
                        if e.kind is ChangeKind.REMOVED:
                            break
                await adv.close()  # twice is harmless
                adv.update(summary(seats_taken=1))  # after close: ignored, no error
        finally:
            await host_zc.async_close()
            await player_zc.async_close()
        return Seen(adv.published, kinds, (last.seats_taken, last.state), warnings, announced)

    seen = run_in_loopback_netns(body)
    assert seen.warnings == []
    assert seen.announced == ["advertised on the LAN as 'Busy table' (127.0.0.1)"]
    base = GameAd("Busy table", "Ann", 4, 1)
    assert seen.published == [base, replace(base, seats_taken=4, state=Phase.PLAYING)]
    assert seen.last == (4, Phase.PLAYING)
    assert seen.kinds[0] == "added" and seen.kinds[-1] == "removed"


@pytest.mark.netns
@in_netns
def test_failures_are_warnings_not_exceptions() -> None:
    async def body() -> tuple[list[str], bool, bool, str | None]:
        warnings: list[str] = []
        nowhere = TableAdvertiser(
            "Nowhere",
            "Ann",
            4000,
            AdvertPlan(["10.9.9.9"], ["10.9.9.9"], False),
            warn=warnings.append,
        )
        started = nowhere.start(summary())
        registered = await nowhere.wait_registered(1)
        await nowhere.close()
        odd = TableAdvertiser(
            "Odd",
            "Ann",
            4000,
            AdvertPlan([LO], [LO], False),
            warn=warnings.append,
            cooperating_responders=True,
        )
        assert odd.start(summary())
        assert await odd.wait_registered(5)
        odd.update(summary(phase="paused"))
        odd.update(summary(phase="paused"))  # reported once
        instance = odd.instance
        await odd.close()
        return warnings, started, registered, instance

    warnings, started, registered, instance = run_in_loopback_netns(body)
    assert (started, registered, instance) == (False, False, "Odd")
    assert len(warnings) == 2
    assert "not advertised on the LAN" in warnings[0] and "10.9.9.9" in warnings[0]
    assert "cannot update the LAN advert" in warnings[1] and "paused" in warnings[1]
