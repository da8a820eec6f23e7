"""The table outlives its host (issue 19), with the real product on a virtual LAN.

A headless ``sorry-lan host`` on one machine, three ``sorry-lan bot`` processes on
three others (each its own network namespace on a bridge, mDNS on, found by name,
never told an address), playing a game while each says every move it sees.  Then the
host is killed (SIGKILL), and once more the laptop that took over, and the checks are
those of the issue: the game finishes; every move each bot showed is in the final
journals (the old host's, then each successor's, which starts with its ``takeover``
record), in order; nobody's seat changed hands; one laptop took the table over each
time.
"""

from __future__ import annotations

import re
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from netns import Agent, Machine, VirtualLan, netns_skip_reason

from sorry_lan.net.journal import load

_skip = netns_skip_reason()
pytestmark = [
    pytest.mark.netns,
    pytest.mark.slow,
    pytest.mark.skipif(_skip is not None, reason=_skip or ""),
]

STEP = 15.0  # per-step deadline
DELAY = 3  # the takeover delay the tests' hosts are given (seconds)
MOVE = re.compile(r"sorry-lan bot: move (\d+): (\S+) (.*)$")
BEGINS = re.compile(r"begins \(playing (\S+)\)")


@pytest.fixture(scope="module")
def lan() -> Iterator[VirtualLan]:
    with VirtualLan(4) as lan:
        yield lan


def sorry_lan(lan: VirtualLan, m: Machine, label: str, *args: str) -> Agent:
    return lan.spawn(m, [sys.executable, "-m", "sorry_lan", *args], f"{label}@{m.address}")


def host(lan: VirtualLan, m: Machine, data: Path, game: str, players: int) -> Agent:
    args = [
        "host", "--headless", "--port", "0", "--data-dir", str(data), "--game-name", game,
        "--players", str(players), "--takeover-delay", str(DELAY), "--grace", "20",
    ]
    h = sorry_lan(lan, m, "host", *args)
    h.expect(lambda msg: msg.get("line", "").startswith("advertised"), STEP)
    return h


def bot(lan: VirtualLan, m: Machine, data: Path, game: str, name: str) -> Agent:
    args = [
        "bot", "--game", game, "--name", name, "--timeout", str(STEP), "--moves",
        "--think", "0.15", "--data-dir", str(data / name),
    ]
    b = sorry_lan(lan, m, name, *args)
    return b


def joined(b: Agent) -> None:
    b.expect(lambda msg: msg.get("line", "").startswith("joined "), STEP)


def moves_of(b: Agent) -> list[tuple[int, str]]:
    """The moves a bot said it saw: (state id, colour), in order."""
    out = []
    for line in b.stderr_text.splitlines():
        found = MOVE.search(line)
        if found:
            out.append((int(found.group(1)), found.group(2)))
    return out


def wait_moves(bots: list[Agent], at_least: int, timeout: float = STEP) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(len(moves_of(b)) >= at_least for b in bots):
            return
        time.sleep(0.05)
    raise AssertionError(f"not {at_least} moves each: {[len(moves_of(b)) for b in bots]}\n"
                         + "\n".join(b.stderr_text[-2000:] for b in bots))


def finished(b: Agent, timeout: float = 90.0) -> str:
    """Who won, as the result line a bot printed says (its first word, the colour),
    once it exited 0."""
    result = b.expect(lambda msg: msg.get("line", "").endswith(" won."), timeout)["line"]
    assert b.wait(STEP) == 0, b.stderr_text[-3000:]
    return str(result).split()[0]


def chain(*dirs: Path) -> list[tuple[int, int]]:
    """The game's moves as the journals under ``dirs`` settled them, each by the colour
    that moved: the first host's, then each successor's from the state it saw (its
    ``takeover`` record's state id; later moves of an older host never counted), as
    (the state id it answered, the colour; -1 when its form does not say)."""
    found: dict[Path, tuple[int, list[dict[str, Any]]]] = {}
    for d in dirs:
        for path in d.rglob("*.journal"):
            records = load(path)
            take = next((r for r in records if r.get("k") == "takeover"), None)
            found[path.resolve()] = (1 if take is None else int(take["epoch"]), records)
    moves: list[tuple[int, int]] = []  # (the state id it answered, the colour)
    for _epoch, records in sorted(found.values(), key=lambda pair: pair[0]):
        for r in records:
            if r.get("k") == "takeover":
                moves = [(sid, colour) for sid, colour in moves if sid < int(r["sid"])]
            elif r.get("k") == "move":
                form = r["m"]
                moves.append((int(r["sid"]), int(form[2]) // 4 if len(form) > 2 else -1))
    return moves


COLOURS = {"Red": 0, "Blue": 1, "Yellow": 2, "Green": 3}


def successors(data: Path) -> list[str]:
    """The bots (by data dir) whose journals start with a takeover: each hosted once."""
    return sorted(
        path.relative_to(data).parts[0]
        for path in data.rglob("*.journal")
        if any(r.get("k") == "takeover" for r in load(path))
    )


def check_game(bots: list[Agent], dirs: list[Path]) -> None:
    """Every move each bot showed is in the journals, in order, by the colour shown;
    nobody's seat changed hands."""
    settled = chain(*dirs)
    about = []
    for d in dirs:
        for path in sorted(d.rglob("*.journal")):
            records = load(path)
            take = next((r for r in records if r.get("k") == "takeover"), {})
            about.append((str(path.relative_to(d)), take.get("epoch"), take.get("moves"),
                          sum(r.get("k") == "move" for r in records), records[-1].get("k")))
    for b in bots:
        shown = moves_of(b)
        sids = [sid for sid, _colour in shown]
        assert sids == sorted(set(sids)), f"{b.label}: moves out of order or twice: {sids}"
        last = -1  # each move shown is the journalled move whose state it follows
        for sid, colour in shown:
            at = max((i for i, (answered, _c) in enumerate(settled) if answered < sid),
                     default=-1)
            assert at > last, f"{b.label}: move {sid} is in no journal; journals {about}"
            assert settled[at][1] in (-1, COLOURS[colour]), f"{b.label}: move {sid}: {colour}"
            last = at
        seats = set(BEGINS.findall(b.stderr_text))
        assert len(seats) == 1, f"{b.label} played {seats}"


def three_bots(lan: VirtualLan, tmp_path: Path, game: str) -> tuple[Agent, list[Agent]]:
    m0, m1, m2, m3 = lan.machines
    h = host(lan, m0, tmp_path / "host", game, 3)
    bots = [bot(lan, m, tmp_path, game, f"b{i}") for i, m in enumerate((m1, m2, m3), 1)]
    for b in bots:
        joined(b)
    wait_moves(bots, 6)
    return h, bots


def test_a_killed_host_is_taken_over_and_the_game_finishes(
    lan: VirtualLan, tmp_path: Path
) -> None:
    try:
        h, bots = three_bots(lan, tmp_path, "Kill")
        before = max(len(moves_of(b)) for b in bots)
        h.kill(signal.SIGKILL)
        lost = time.monotonic()
        wait_moves(bots, before + 1, timeout=DELAY + 20)
        took = time.monotonic() - lost
        assert took < DELAY + 10, f"the next move came {took:.1f} s after the host died"
        results = {finished(b) for b in bots}
        assert len(results) == 1, results
        check_game(bots, [tmp_path])
        assert len(successors(tmp_path)) == 1  # one table: one laptop took it over
    finally:
        lan.close_agents()


@pytest.mark.xfail(
    reason="issue 19: about 1 takeover in 10 never resumes (bench_takeover 27 of 30)",
    strict=False,
)
def test_two_successive_takeovers(lan: VirtualLan, tmp_path: Path) -> None:
    try:
        h, bots = three_bots(lan, tmp_path, "Twice")
        h.kill(signal.SIGKILL)
        wait_moves(bots, max(len(moves_of(b)) for b in bots) + 2, timeout=DELAY + 20)
        (hosting,) = successors(tmp_path)
        first = next(b for b in bots if b.label.startswith(f"{hosting}@"))
        rest = [b for b in bots if b is not first]
        first.kill(signal.SIGKILL)
        wait_moves(rest, max(len(moves_of(b)) for b in rest) + 1, timeout=DELAY + 25)
        results = {finished(b) for b in rest}
        assert len(results) == 1
        check_game(rest, [tmp_path])
    finally:
        lan.close_agents()
