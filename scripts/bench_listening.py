"""How long a listener's turns take to hear: the line mode's offer, spoken at 180 words
a minute (issue 33's measure), over whole games in every variant and two languages.

A table on 127.0.0.1 (no mDNS) of Ann, in the line mode in this process, and bots;
Ann answers a random move among those said at each offer.  A turn's listening time
is the words said from her turn's first line through "Type the number ...", at
180 words a minute (Thai and Lao, written without spaces, are not measured here);
with more moves than an offer says at once, the rest (``more``) is not counted: a
listener asks for it.
Prints median, p95 and max seconds per language and variant, and over all; and the
share of every line said (turns, moves, the board's news) that carries six or more
numbers (issue 33 measured 17% before the line mode was reworded).
Usage: ``python scripts/bench_listening.py [--games N] [--langs en,el]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.i18n import _, use_language
from sorry_lan.net.client import GameClient
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.rules import Variant
from sorry_lan.tui.line_help import number_prompt
from sorry_lan.tui.lines import play_lines

WPM = 180.0


#: A number as a listener hears one (a run of digits).
NUMBER = re.compile(r"\d+")


async def _game(variant: Variant, seed: int) -> tuple[list[float], list[str]]:
    """Seconds to hear each of Ann's offers in one game of ``variant`` (4 seats), and
    every line she was told."""
    table = Table(TableConfig(variant=variant, seats=4, auto_start=True, seed=seed,
                              bot_delay=0.0, turn_timeout=None))  # fmt: skip
    for _n in range(3):
        table.add_bot(None)
    server = HostServer(table, HostOptions(heartbeat=0.5, dead_after=5.0))
    await server.start("127.0.0.1", 0)
    client = GameClient("127.0.0.1", server.address[1], "Ann")
    asks = {number_prompt(), number_prompt(more=True)}
    head = _("{name}, your turn").format(name="Ann")
    over = _("{name}, type rematch to play again, or quit to leave.").format(name="Ann")
    numbered = re.compile("|".join(
        re.escape(_(template).split("{i}")[0]) + r"(\d+)"
        for template in ("Move {i}: {move}", "Move {i}, with {card}: {move}")))
    rng = random.Random(seed)
    turns: list[float] = []
    said: list[str] = []
    told: list[str] = []
    typed: asyncio.Queue[str | None] | None = None
    turn = [0]

    async def read(queue: asyncio.Queue[str | None]) -> None:
        nonlocal typed
        typed = queue

    def say(line: str) -> None:
        assert typed is not None
        told.append(line)
        if line.startswith(head):
            said.clear()
            turn[0] = 1
        if turn[0]:
            said.append(line)
        if line in asks and turn[0]:
            turn[0] = 0
            words = sum(len(x.split()) for x in said)
            turns.append(words / WPM * 60)
            listed = [int(next(g for g in m.groups() if g)) for x in said
                      if (m := numbered.match(x))]
            typed.put_nowait(str(rng.choice(listed)) if listed else "1")
        if line == over:
            typed.put_nowait("quit")

    try:
        await client.connect()
        await asyncio.wait_for(play_lines(client, say, read), 300)
    finally:
        await client.close()
        await server.close()
    return turns, told


def many_numbers(lines: list[str]) -> float:
    """The share of ``lines`` that carry six numbers or more."""
    return sum(len(NUMBER.findall(line)) >= 6 for line in lines) / max(1, len(lines))


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per language and variant")
    parser.add_argument("--langs", default="en,el")
    args = parser.parse_args(argv)
    every: list[float] = []
    lines: list[str] = []
    for lang in args.langs.split(","):
        for variant in Variant:
            turns: list[float] = []
            told: list[str] = []
            with use_language(lang):
                for seed in range(args.games):
                    heard, said = asyncio.run(_game(variant, seed + 1))
                    turns += heard
                    told += said
            every += turns
            lines += told
            print(f"{lang} {variant.value:9} turns {len(turns):4}  median "
                  f"{statistics.median(turns):5.1f} s  p95 {_pct(turns, 0.95):5.1f} s  "
                  f"max {max(turns):5.1f} s  over 20 s: "
                  f"{sum(t > 20 for t in turns) / len(turns):5.1%}  lines with 6+ numbers: "
                  f"{many_numbers(told):5.1%} of {len(told)}")  # fmt: skip
    print(f"all          turns {len(every):4}  median {statistics.median(every):5.1f} s  "
          f"p95 {_pct(every, 0.95):5.1f} s  max {max(every):5.1f} s  (at {WPM:.0f} words "
          f"a minute; goal: p95 within 20 s)")  # fmt: skip
    print(f"lines with six numbers or more: {many_numbers(lines):.1%} of {len(lines)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
