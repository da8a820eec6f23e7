"""Test helper: laptops on a virtual LAN running the real `sorry-lan` commands.

Shared by the LAN tests of a table and its host (test_lan_game, test_lan_faults,
test_lan_follow, test_lan_leave).  Each laptop is a network namespace on one bridge
(`netns.VirtualLan`; mDNS works between them, nothing reaches a real interface); on
them run real processes: `sorry-lan host --headless` (`host()`) and `sorry-lan bot
--moves` players (`bot()`), each saying every move it sees on stderr.  Then:

* `lan_fixture(n)`: a module-scoped pytest fixture of `n` laptops (assign it to a
  module-level name, e.g. ``lan = lan_fixture(4)``);
* `three_bots()`: a headless host and three bots playing, a few moves in;
* `moves_of()`, `wait_moves()`, `moved_on()`, `finished()`: what the bots showed and
  when;
* `chain()`, `successors()`, `check_game()`: the game as the journals settled it
  (the first host's, then each successor's from its `takeover` record), and the
  issue's checks against what each bot showed;
* `link_down()`, `link_up()`, `unplug()`: a laptop's cable, without touching the
  caller's namespace.

It does not judge timings (the tests do) and knows nothing of the protocol beyond
the lines the commands print and the journal records.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from netns import Agent, Machine, NetnsSetupError, VirtualLan, netns_skip_reason

from sorry_lan.net.journal import load

_skip = netns_skip_reason()
#: The marks of every LAN test module (each adds its own timeout where it needs one).
MARKS = [
    pytest.mark.netns,
    pytest.mark.lan,
    pytest.mark.skipif(_skip is not None, reason=_skip or ""),
]
STEP = 15.0  # per-step deadline; steps take a second or two
DELAY = 3  # the takeover delay the tests' hosts are given (seconds)
GRACE = 20  # the seat grace the tests' hosts are given (seconds)
MOVE = re.compile(r"sorry-lan bot: move (\d+): (\S+) (.*)$")
BEGINS = re.compile(r"begins \(playing (\S+)\)")
COLOURS = {"Red": 0, "Blue": 1, "Yellow": 2, "Green": 3}


def lan_fixture(machines: int) -> Any:
    """A module-scoped fixture named by the variable it is assigned to: a LAN of
    `machines` laptops, deleted (namespaces and all) after the module's tests."""

    @pytest.fixture(scope="module")
    def lan() -> Iterator[VirtualLan]:
        with VirtualLan(machines) as built:
            yield built

    return lan


def sorry_lan(lan: VirtualLan, m: Machine, label: str, *args: str) -> Agent:
    """`python -m sorry_lan ARGS` on laptop `m`, labelled ``label@address``."""
    return lan.spawn(m, [sys.executable, "-m", "sorry_lan", *args], f"{label}@{m.address}")


def line(prefix: str) -> Callable[[dict[str, Any]], bool]:
    """A predicate for `Agent.expect`: a stdout line that starts with `prefix`."""
    return lambda msg: msg["event"] == "raw" and msg["line"].startswith(prefix)


def host(lan: VirtualLan, m: Machine, data: Path, game: str, *extra: str) -> Agent:
    """A headless host of `game` on `m` (any port, journals under `data`), as started;
    `extra` are more `host` options."""
    args = ["host", "--headless", "--port", "0", "--data-dir", str(data), "--game-name", game]
    return sorry_lan(lan, m, "host", *args, *extra)


def takeover_host(
    lan: VirtualLan, m: Machine, data: Path, game: str, players: int, *extra: str
) -> Agent:
    """A headless host with the tests' takeover delay and grace, once advertised."""
    h = host(lan, m, data, game, "--players", str(players), "--takeover-delay", str(DELAY),
             "--grace", str(GRACE), *extra)
    h.expect(lambda msg: msg.get("line", "").startswith("advertised"), STEP)
    return h


def bot(lan: VirtualLan, m: Machine, data: Path, game: str, name: str, *extra: str) -> Agent:
    """A `sorry-lan bot --moves` player called `name` that finds `game` by mDNS; its
    seat and (when it hosts) journals live under ``data/name``."""
    args = [
        "bot", "--game", game, "--name", name, "--timeout", str(STEP), "--moves",
        "--think", "0.15", "--data-dir", str(data / name), *extra,
    ]
    return sorry_lan(lan, m, name, *args)


def joined(b: Agent) -> None:
    """Wait until bot `b` said it joined."""
    b.expect(lambda msg: msg.get("line", "").startswith("joined "), STEP)


def moves_of(b: Agent) -> list[tuple[int, str]]:
    """The moves a bot said it saw: (state id, colour), in order."""
    out = []
    for text in b.stderr_text.splitlines():
        found = MOVE.search(text)
        if found:
            out.append((int(found.group(1)), found.group(2)))
    return out


def wait_moves(bots: list[Agent], at_least: int, timeout: float = STEP) -> None:
    """Wait until every bot in `bots` showed at least `at_least` moves."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(len(moves_of(b)) >= at_least for b in bots):
            return
        time.sleep(0.05)
    raise AssertionError(f"not {at_least} moves each: {[len(moves_of(b)) for b in bots]}\n"
                         + "\n".join(b.stderr_text[-2000:] for b in bots))


def counts(bots: list[Agent]) -> list[int]:
    """How many moves each bot showed so far."""
    return [len(moves_of(b)) for b in bots]


def moved_on(bots: list[Agent], before: list[int], timeout: float) -> None:
    """Wait until every bot showed a move more than ``before`` (`counts` taken earlier)
    says it had: each by its own count, since a bot may have seen one move fewer than
    the others for good (the move the old host told some bots as it died reaches the
    others in the new host's snapshot, not as a move)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(n > was for n, was in zip(counts(bots), before, strict=True)):
            return
        time.sleep(0.05)
    raise AssertionError(f"not a move more each than {before}: {counts(bots)}\n"
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


def successors(data: Path) -> list[str]:
    """The bots (by data dir) whose journals start with a takeover: each hosted once."""
    return sorted(
        path.relative_to(data).parts[0]
        for path in data.rglob("*.journal")
        if any(r.get("k") == "takeover" for r in load(path))
    )


def epochs(data: Path) -> list[int]:
    """The epochs of every journal under `data` (1 for a first host's), sorted."""
    out = []
    for path in data.rglob("*.journal"):
        take = next((r for r in load(path) if r.get("k") == "takeover"), None)
        out.append(1 if take is None else int(take["epoch"]))
    return sorted(out)


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


def three_bots(
    lan: VirtualLan, tmp_path: Path, game: str, *host_extra: str
) -> tuple[Agent, list[Agent]]:
    """A headless host on the first laptop and a bot on each of the next three, a few
    moves into their game."""
    m0, m1, m2, m3 = lan.machines[:4]
    h = takeover_host(lan, m0, tmp_path / "host", game, 3, *host_extra)
    bots = [bot(lan, m, tmp_path, game, f"b{i}") for i, m in enumerate((m1, m2, m3), 1)]
    for b in bots:
        joined(b)
    wait_moves(bots, 6)
    return h, bots


def _ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10, check=False)
    if done.returncode != 0:
        raise NetnsSetupError(f"ip {' '.join(args)}: {done.stderr.strip()}")


def link_down(m: Machine) -> None:
    """Laptop `m`'s cable out: its eth0 down (its address and routes go with it)."""
    _ip("-n", m.namespace, "link", "set", "eth0", "down")


def link_up(m: Machine) -> None:
    """Laptop `m`'s cable back in: eth0 up, its multicast route again."""
    _ip("-n", m.namespace, "link", "set", "eth0", "up")
    subprocess.run(["ip", "-n", m.namespace, "route", "replace", "224.0.0.0/4", "dev", "eth0"],
                   capture_output=True, timeout=10, check=False)


def cut_off(lan: VirtualLan, m: Machine) -> None:
    """Laptop `m` out of reach of the others with its interface up (a cable out at the
    switch, a Wi-Fi that lost its access point but not its address): its cable leaves
    the bridge, so what it sends goes nowhere and nothing says so."""
    _ip("-n", lan.bridge_ns, "link", "set", f"v{lan.machines.index(m)}", "nomaster")


def reconnect(lan: VirtualLan, m: Machine) -> None:
    """Laptop `m`'s cable back on the bridge (after :func:`cut_off`)."""
    _ip("-n", lan.bridge_ns, "link", "set", f"v{lan.machines.index(m)}", "master", "br0")


def unplug(lan: VirtualLan, m: Machine) -> None:
    """Laptop `m` leaves the LAN for good: its cable is deleted at the bridge (its eth0
    goes with it) and its namespace's name is removed.  Processes still running in it
    keep a namespace with only `lo`; stop them by pid (`Agent.stop`)."""
    index = lan.machines.index(m)
    _ip("-n", lan.bridge_ns, "link", "del", f"v{index}")
    _ip("netns", "del", m.namespace)
