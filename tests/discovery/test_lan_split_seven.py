"""A person choosing how to split a 7 when the host dies (issue 19), on a virtual LAN.

A headless ``sorry-lan host`` with one bot of its own, a ``sorry-lan bot`` laptop
(``board_bot.py``) and a person: ``sorry-lan join`` in a real 80x24 tmux terminal,
driven by keys (Enter plays the highlighted move).  When the person's card is a 7 that
can be split, they open the split's second step (its number, Enter) and, while they
choose, the host is SIGKILLed.  What their screen says is kept at each step: before the
loss, waiting, the new host named, play resumed; then they finish the split and the
game.  The checks: the split they chose is the move the journals settled, the game
finished, the bot laptop's every board is the journals' (``evening.Evening.check``),
the person's kept record ends on the journals' board, and nobody's seat changed hands.
The screens go into every failure message, and to the output (``-s``).
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest
from evening import DELAY, MARKS, STEP, Evening
from lanlaptops import lan_fixture
from ledger import Ledger
from netns import Agent, VirtualLan
from topology import NsScreen

from sorry_lan.net.journal import load
from sorry_lan.records.entries import board

pytestmark = [*MARKS, pytest.mark.timeout(600)]  # up to three deals, on a loaded machine

YOUR_TURN = "your turn: pick a move"
SPLIT_HEADING = "split the 7, first part:"
SECOND_STEP = ", then:"  # the heading of a first part's completions
KEY = re.compile(r"^\s*>?\s*(\d+) ")


lan = lan_fixture(3)  # the module's LAN (lanlaptops)


def panel(screen: str) -> list[str]:
    """The lines of the right-hand panel (the move list is there)."""
    return [line.split("\u2502", 1)[1] for line in screen.splitlines() if "\u2502" in line]


def split_key(screen: str) -> int | None:
    """The key of the first split 7's first part on offer, if one is listed."""
    lines = panel(screen)
    for i, line in enumerate(lines):
        if SPLIT_HEADING in line:
            for row in lines[i + 1:]:
                found = KEY.match(row)
                if found:
                    return int(found.group(1))
    return None


def choosing(screen: str) -> bool:
    return any(SECOND_STEP in line for line in panel(screen))


class Person:
    """A player at a tmux terminal; ``shots`` keeps the screens asked for, by step."""

    def __init__(self, screen: NsScreen) -> None:
        self.screen = screen
        self.shots: list[tuple[str, str]] = []

    def shot(self, step: str, text: str | None = None) -> str:
        text = self.screen.text() if text is None else text
        self.shots.append((step, text))
        return text

    def story(self) -> str:
        return "\n".join(f"===== {step}\n{text}" for step, text in self.shots)

    def wait_for(self, what: str, test: object, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen.text()
            if test(text):  # type: ignore[operator]
                return text
            time.sleep(0.1)
        self.shot(f"(no {what} within {timeout} s)", text)
        raise AssertionError(f"no {what} within {timeout} s\n{self.story()}")

    def play_until_split(self, timeout: float = 150.0) -> int | None:
        """Play the highlighted move each turn until a 7 can be split; the split entry's
        number, or None when the game ended first (the deal gave this seat no 7 it
        could split: the table's deck is not seeded)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.wait_for("turn", lambda t: YOUR_TURN in t or "game over" in t.lower(),
                                 deadline - time.monotonic())
            key = split_key(text)
            if key is not None:
                return key
            if YOUR_TURN not in text:
                self.shot("the game ended before a split 7", text)
                return None
            self.screen.keys("Enter")
            self.wait_for("the move played", lambda t, was=text: t != was, STEP)
        raise AssertionError(f"no 7 to split within {timeout} s\n{self.screen.text()}")

    def play_to_the_end(self, timeout: float = 150.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.screen.text()
            if YOUR_TURN in text:
                self.screen.keys("Enter")
            elif "Game over" in text:
                return text
            time.sleep(0.2)
        raise AssertionError(f"the game did not end within {timeout} s\n{self.screen.text()}")


def sit_down(evening: Evening, data: Path) -> tuple[Person, Agent]:
    """The host (one bot of its own), the person (``join`` in tmux on the second
    machine, its data in ``data``) and a bot laptop on the third."""
    m0, m1 = evening.machines[:2]
    h = evening.start_host()
    port = int(next(msg["line"] for msg in h.seen if msg.get("line", "").startswith(
        "listening on")).rsplit(":", 1)[1])
    command = (f"{sys.executable} -m sorry_lan join --address {m0.address}:{port} "
               f"--name Ann --no-mouse --data-dir {data}")
    person = Person(NsScreen(m1.namespace, command, {}))
    evening.offset = 1  # the bot laptop goes on the third machine
    (b2,) = evening.sit_down(1)
    return person, b2


def the_new_host(evening: Evening, person: Person) -> None:
    """The screens once the host is killed: waiting, then the new host named."""
    evening.kill_host()
    person.shot("waiting", person.wait_for(
        "waiting news", lambda t: "host is gone" in t or "finding who hosts" in t,
        DELAY + STEP))
    person.shot("new host named", person.wait_for(
        "the new host named", lambda t: "hosts the table now" in t, DELAY + STEP))


def the_end(evening: Evening, person: Person, b2: Agent, data: Path) -> Ledger:
    """The person plays to the end; the bot laptop finishes; the checks, and the
    person's kept record ends on the journals' board."""
    person.shot("game over", person.play_to_the_end())
    assert len(evening.finish([b2])) == 1
    led = evening.check([b2])
    game = led.games[-1]
    (take,) = game.takeovers
    kept = [json.loads(p.read_text()) for p in (data / "played").glob("*.json")]
    final = board(game.boards[game.last], tuple(int(c) for c in take["seated"]))
    assert kept and kept[-1]["board"] == final, (kept[-1:], final)  # the person's record
    return led


def test_the_host_dies_while_a_person_splits_a_seven(
    lan: VirtualLan, tmp_path: Path
) -> None:
    person: Person | None = None
    try:
        for attempt in range(3):  # a new table when a deal gave Ann no 7 to split
            where = tmp_path / f"table{attempt}"
            where.mkdir()
            evening = Evening(lan, where, f"Seven{attempt}", players=3, bots=1, think=0.05)
            data = where / "ann"
            person, b2 = sit_down(evening, data)
            number = person.play_until_split()
            if number is not None:
                break
            person.screen.close()
            lan.close_agents()
        else:
            raise AssertionError("three deals in a row gave Ann no 7 to split")
        person.screen.keys(str(number), "Enter")
        person.shot("choosing how to split the 7 (before the loss)",
                    person.wait_for("the split's second step", choosing, STEP))
        the_new_host(evening, person)
        resumed = person.wait_for("the offer again", lambda t: YOUR_TURN in t, STEP)
        person.shot("the split offered again at the new host", resumed)
        if split_key(resumed) is None and not choosing(resumed):
            raise AssertionError(f"no split 7 offered after the takeover\n{person.story()}")
        if not choosing(resumed):
            person.screen.keys(str(split_key(resumed)), "Enter")
            again = person.wait_for("the second step", choosing, STEP)
            person.shot("the split opened again", again)
        before = person.screen.text()
        person.screen.keys("Enter")
        played = person.wait_for("the split played", lambda t: t != before and not choosing(t),
                                 STEP)
        person.shot("play resumed: the split played at the new host", played)
        title = played.splitlines()[0]
        assert "connected" in title and "reconnecting" not in title, (
            f"the title bar after the takeover: {title}\n{person.story()}")
        led = the_end(evening, person, b2, data)
        (take,) = led.games[-1].takeovers
        after = [
            r["m"] for d in (data, where / "b2") for p in d.rglob("*.journal")
            for r in load(p) if r.get("k") == "move" and int(r["sid"]) >= int(take["sid"])
        ]
        assert after and len(after[0]) > 4, f"the first move at the new host is no split: {after}"
        print(person.story())
    except BaseException as exc:
        story = person.story() if person is not None else ""
        raise AssertionError(f"{exc}\n{story}\n{evening.tails()}") from exc
    finally:
        if person is not None:
            person.screen.close()
        lan.close_agents()
