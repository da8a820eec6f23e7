"""The doctor's words: one sentence per problem, the operating system's own switch for
a blocked echo, and the address fallback wherever nobody answered."""

from __future__ import annotations

import pytest

from sorry_lan.discovery.advice import advice, kind_words, likely_reason
from sorry_lan.discovery.doctor import Checkup, Finding, Problem
from sorry_lan.discovery.interfaces import Kind, NetInterface
from sorry_lan.i18n import LANGUAGES, set_language

PLATFORMS = ("linux", "darwin", "win32", "freebsd14")


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("problem", list(Problem))
def test_every_problem_has_words_on_every_platform(problem: Problem, platform: str) -> None:
    text = advice(Finding(problem, ("eth0",)), platform)
    assert text and "\n" not in text and "{" not in text
    if problem not in (Problem.NO_NETWORK, Problem.NO_TABLE):
        assert "eth0" in text  # it names what it is about


def test_a_lost_echo_points_to_the_switch_of_this_operating_system() -> None:
    lost = Finding(Problem.ECHO_LOST, ("192.168.1.20",))
    windows = advice(lost, "win32")
    assert "Windows Firewall" in windows and "Private" in windows and "Python" in windows
    mac = advice(lost, "darwin")
    assert "Local Network" in mac and "terminal" in mac
    linux = advice(lost, "linux")
    assert "5353" in linux and "Windows" not in linux and "macOS" not in linux
    assert all("192.168.1.20" in t for t in (windows, mac, linux))


def test_nobody_answering_points_to_the_address_the_lobby_shows() -> None:
    for platform in PLATFORMS:
        text = advice(Finding(Problem.NO_TABLE), platform)
        assert "sorry-lan join --address HOST:PORT" in text and "lobby" in text
    # Windows Firewall lets this machine's own echo through: it is named there too.
    assert "Windows Firewall" in advice(Finding(Problem.NO_TABLE), "win32")
    assert "Windows Firewall" not in advice(Finding(Problem.NO_TABLE), "linux")


def test_the_likely_reason_of_an_empty_search() -> None:
    lo = NetInterface("lo", "lo", ("127.0.0.1",), Kind.LOOPBACK)
    c = Checkup("linux", False, 47474, (lo,), ("127.0.0.1",))
    assert likely_reason(c).startswith("Most likely: This machine is on no network")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_interface_words_in_every_language(lang: str) -> None:
    set_language(lang)
    try:
        seen = set()
        for kind in Kind:
            iface = NetInterface("x0", "x0", ("10.1.2.3",), kind)
            seen.add(kind_words(iface, False))
        six = NetInterface("x0", "x0", ("fd00::1",), Kind.LAN)
        seen.add(kind_words(six, False))
        four = NetInterface("x", "x", ("10.0.0.1",), Kind.LAN)
        assert kind_words(six, True) == kind_words(four, False)
        assert len(seen) == len(Kind) + 1  # each its own words
    finally:
        set_language("en")
