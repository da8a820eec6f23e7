"""Fault campaign: SIGKILL the host again and again over several games; count what is lost.

    python scripts/kill_host.py                    # 6 games, >= 50 kills
    python scripts/kill_host.py --games 10 --kills 12 --seed 3

Each game runs a ``sorry-lan host --headless`` process (loopback only, its own data
dir) with host bots (whose moves come in bursts) and bot clients that reconnect by
themselves.  The host is killed with SIGKILL at random moments, right after a burst of
host-bot moves reached a client, and at the final move (once a client saw the game
end: the host runs with ``--stay``, which leaves the end mark for later, so the kill
always lands before it), then resumed with ``sorry-lan host --resume``.  After each
game every move any client was shown is looked up in the final journal: a move shown
but missing or different there is a move lost.  A game killed at its final move is
resumed once more, and players coming back with their seat tokens must be told the
result.

It then prints: kills (of which in bursts, at the final move), moves shown, moves
lost, results told after a final-move kill, the time to resume (process start to
listening, median and worst; and replaying the journal alone), the outcome of
flipping every bit of a small journal, and of a full disk (a journal file that
refuses writes after N bytes, in process).  POSIX only (SIGKILL).
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sorry_lan.authority.journal_format import scan
from sorry_lan.authority.restore import replay
from sorry_lan.authority.seat_messages import events_messages
from sorry_lan.authority.table import Table, TableConfig, token_hash
from sorry_lan.client.model import ClientEvent
from sorry_lan.net.botrunner import BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.net.journal import Journal, load
from sorry_lan.net.saved import FINISHED, describe
from sorry_lan.rules import Game, Variant
from sorry_lan.wire import messages as m

LOCAL = "127.0.0.1"


class Watcher(GameClient):
    """A bot client that remembers every move it was shown: sid -> notation."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown: dict[int, str] = {}
        self.last_colour: int | None = None
        self.over_seen = asyncio.Event()
        self.overs = 0  # how many times it was told the game's end

    def _received(self, data: bytes, now: float) -> list[ClientEvent]:
        events = super()._received(data, now)
        for msg in events:
            if isinstance(msg, m.Events) and msg.colour is not None:
                self.shown[msg.sid] = msg.notation
                self.last_colour = int(msg.colour)
            elif isinstance(msg, m.GameOver):
                self.overs += 1
                self.over_seen.set()
        return events


async def spawn(args: list[str]) -> tuple[asyncio.subprocess.Process, float]:
    """A host process and how long it took to listen (seconds)."""
    t0 = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sorry_lan", "host", "--headless", "--no-mdns", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    while True:
        line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
        if not line:
            err = await proc.stderr.read() if proc.stderr else b""
            raise RuntimeError(f"host exited: {err.decode().strip()}")
        if line.startswith("listening on "):
            return proc, time.perf_counter() - t0


def journal_moves(path: Path) -> dict[int, str]:
    """sid after each move -> its notation, replaying the journal."""
    records = load(path)
    start = max(i for i, r in enumerate(records) if r["k"] == "game")
    restored = replay(records[: start + 1])
    assert restored is not None
    game = restored.game
    out: dict[int, str] = {}
    for rec in records[start + 1 :]:
        if rec["k"] == "move":
            told = events_messages(game, game.play_compact([int(x) for x in rec["m"]]), None)
            out[game.state_id] = told[0].notation if told else ""
    return out


class Campaign:
    def __init__(self, opts: argparse.Namespace) -> None:
        self.opts = opts
        self.rng = random.Random(opts.seed)
        self.kills = 0
        self.burst_kills = 0
        self.final_kills = 0
        self.shown = 0
        self.lost = 0
        self.told = 0
        self.told_owed = 0
        self.resume_times: list[float] = []
        self.final_exit: list[float] = []  # resumed over-table: until the host left (s)
        self.unfinished = 0  # games whose journal was not marked finished at the end

    async def game(self, n: int, directory: Path) -> None:
        players, clients_n = [(2, 1), (3, 2), (4, 2), (4, 3)][n % 4]
        port = _free_port()
        common = ["--bind", LOCAL, "--port", str(port), "--data-dir", str(directory)]
        first = [*common, "--players", str(players), "--bots", str(players - clients_n)]
        first += ["--seed", str(self.opts.seed * 100 + n), "--bot-delay", "0", "--grace", "60"]
        # --stay: the host does not mark the journal finished when the game ends, so a
        # kill once the players saw the end always lands before the end mark
        first.append("--stay")
        proc, _ = await spawn(first)
        options = ClientOptions(reconnect_for=60)
        clients = [Watcher(LOCAL, port, f"p{i}", options) for i in range(clients_n)]
        for c in clients:
            await c.connect()
        bots = [asyncio.create_task(run_bot(c, think=0.001, stats=BotStats())) for c in clients]
        mine = {c.model.colour for c in clients}
        kills_here = 0
        final_killed = False
        told_before = [0] * len(clients)
        try:
            while not all(b.done() for b in bots):
                kind = self._next_kind(kills_here)
                if kind == "final":
                    await _first(clients, lambda c: c.over_seen.is_set())
                elif kind == "burst":
                    await _first(clients, lambda c: c.last_colour not in (None, *mine), 1.0)
                else:
                    target = clients[0].model.sid + self.rng.randrange(3, 40)
                    await _first(clients, lambda c, t=target: c.model.sid >= t, 1.0)
                if proc.returncode is not None:
                    break  # the host left by itself (it should not, with --stay)
                proc.send_signal(signal.SIGKILL)
                await proc.wait()
                self.kills += 1
                kills_here += 1
                if kind == "burst":
                    self.burst_kills += 1
                (path,) = directory.glob("journals/*.journal")
                if describe(path).state == FINISHED:
                    break  # killed after it had marked the game finished: nothing to resume
                final = any(c.over_seen.is_set() for c in clients)
                told_before = [c.overs for c in clients]  # some may not have seen it yet
                again = [*common, "--resume", "--grace", "60", *([] if final else ["--stay"])]
                proc, took = await spawn(again)
                self.resume_times.append(took)
                if final:
                    final_killed = True
                    self.final_kills += 1
                    break
            await asyncio.wait_for(asyncio.gather(*bots), 120)
            # After a final-move kill the clients come back to their seats by themselves;
            # the resumed host must tell each the result again, then mark the journal
            # finished and leave (long before its 60 s grace).
            t_final = time.perf_counter()
            await asyncio.wait_for(proc.wait(), 60)
            if final_killed:
                self.final_exit.append(time.perf_counter() - t_final)
                self.told_owed += len(clients)
                self.told += sum(
                    1 for c, n in zip(clients, told_before, strict=True) if c.overs > n
                )
        finally:
            for c in clients:
                await c.close()
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        (path,) = directory.glob("journals/*.journal")
        self.unfinished += describe(path).state != FINISHED
        journalled = journal_moves(path)
        for c in clients:
            self.shown += len(c.shown)
            self.lost += sum(1 for sid, note in c.shown.items() if journalled.get(sid) != note)

    def _next_kind(self, kills_here: int) -> str:
        if kills_here >= self.opts.kills:
            return "final"
        return "burst" if kills_here % 3 == 1 else "random"


async def _first(clients: list[Watcher], cond: Any, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not any(cond(c) for c in clients) and time.monotonic() < deadline:
        await asyncio.sleep(0.0005)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((LOCAL, 0))
        return int(s.getsockname()[1])


def bit_flips(directory: Path) -> tuple[int, int, int]:
    """Flip every bit of a small journal: (flips, detected, named the right line)."""
    path = directory / "flip.journal"
    journal = Journal(path)
    game = Game(Variant.STANDARD, (0, 2), seed=5)
    journal.game(game, {0: "a", 2: "b"}, [], {0: token_hash(b"t" * 16)}, table="t", host="a")
    game.start()
    for _ in range(20):
        sid = game.state_id
        move = game.legal_moves()[0]
        game.play(move)
        journal.move(sid, move.compact())
    journal.close()
    data = path.read_bytes()
    flips = detected = named = 0
    for i in range(len(data)):
        for bit in range(8):
            flipped = bytearray(data)
            flipped[i] ^= 1 << bit
            found = scan(bytes(flipped))
            flips += 1
            if found.damage is not None:
                detected += 1
                named += found.damage[0] == data.count(b"\n", 0, i) + 1
    return flips, detected, named


class _FullDisk:
    def __init__(self, real: Any, room: int) -> None:
        self.real, self.room = real, room

    def write(self, data: bytes) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        n = int(self.real.write(bytes(data[: self.room])))
        self.room -= n
        return n

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


async def disk_full(directory: Path, room: int) -> tuple[bool, bool, bool]:
    """A host whose journal fills up after ``room`` bytes: (players told, host
    stopped, the journal resumes to exactly what the players saw)."""
    path = directory / f"full-{room}.journal"
    table = Table(TableConfig(seats=3, auto_start=True, seed=room + 1), Journal(path))
    table.add_bot(None)
    server = HostServer(table, HostOptions())
    await server.start(LOCAL, 0)
    options = ClientOptions(reconnect_for=0.2)
    clients = [GameClient(LOCAL, server.address[1], n, options) for n in "ab"]
    for c in clients:
        await c.connect()
    assert server.journal is not None
    server.journal._file = _FullDisk(server.journal._file, room)
    stats = [BotStats(), BotStats()]
    await asyncio.wait_for(
        asyncio.gather(*(run_bot(c, stats=s) for c, s in zip(clients, stats, strict=True))), 60
    )
    told = all(any("cannot save the game" in r for r in s.refused) for s in stats)
    await server.close()
    for c in clients:
        await c.close()
    server.journal.close()
    restored = replay(load(path))
    exact = restored is not None and all(c.model.sid == restored.game.state_id for c in clients)
    return told, server.failure is not None, exact


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--kills", type=int, default=8, help="kills per game before the final one")
    p.add_argument("--seed", type=int, default=1)
    opts = p.parse_args()
    if sys.platform == "win32":
        sys.exit("kill_host.py needs SIGKILL (POSIX)")
    campaign = Campaign(opts)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="sorry-kill-") as tmp:
        root = Path(tmp)
        for n in range(opts.games):
            await campaign.game(n, root / f"game-{n}")
            print(f"game {n + 1}/{opts.games}: {campaign.kills} kills so far", flush=True)
        biggest = max(root.glob("game-*/journals/*.journal"), key=lambda q: q.stat().st_size)
        t1 = time.perf_counter()
        restored = replay(load(biggest))
        replay_ms = (time.perf_counter() - t1) * 1000
        flips = bit_flips(root)
        full = [await disk_full(root, room) for room in (0, 45, 500, 3000)]
    c = campaign
    print()
    print(f"games: {opts.games}, wall time {time.perf_counter() - t0:.0f} s")
    print(
        f"SIGKILLs of the host: {c.kills} (in a burst of host-bot moves: {c.burst_kills}, "
        f"at the final move: {c.final_kills})"
    )
    print(f"moves shown to clients: {c.shown}; moves lost or changed: {c.lost}")
    print(
        f"result told again after a final-move kill: {c.told} of {c.told_owed} players; "
        f"the resumed host left after {max(c.final_exit, default=0):.1f} s at most "
        f"(grace 60 s); journals not marked finished: {c.unfinished}"
    )
    times = sorted(c.resume_times)
    print(
        f"time to resume (process start to listening): median {statistics.median(times):.2f} s, "
        f"worst {times[-1]:.2f} s; replaying the longest journal "
        f"({restored.moves if restored else 0} moves) alone: {replay_ms:.1f} ms"
    )
    print(
        f"bit flips of a {flips[0] // 8}-byte journal: {flips[0]}, detected {flips[1]}, "
        f"named by line {flips[2]}, accepted {flips[0] - flips[1]}"
    )
    for room, (told, stopped, exact) in zip((0, 45, 500, 3000), full, strict=True):
        print(
            f"disk full after {room} bytes: players told {told}, table stopped {stopped}, "
            f"journal resumes to what players saw {exact}"
        )


if __name__ == "__main__":
    asyncio.run(main())
