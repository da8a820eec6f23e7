"""The host process killed with SIGKILL mid-game, then resumed from its journal."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from pathlib import Path

import pytest
from netkit import LOCAL, HostProcess, free_port

from sorry_lan.bots import play_out
from sorry_lan.net.botrunner import run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.rules import Game, Variant

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")


async def spawn_host(args: list[str]) -> asyncio.subprocess.Process:
    return (await HostProcess.spawn(*args)).proc


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("variant", "players", "seed"),
    [
        (Variant.STANDARD, 2, 51),
        (Variant.POINTS, 3, 52),
    ],
)
async def test_sigkilled_host_resumes_the_same_game(
    tmp_path: Path, variant: Variant, players: int, seed: int
) -> None:
    port = free_port()
    common = ["--port", str(port), "--bind", LOCAL, "--data-dir", str(tmp_path)]
    proc = await spawn_host(
        [*common, "--players", str(players), "--variant", variant.value, "--seed", str(seed)]
    )
    options = ClientOptions(reconnect_for=30)
    clients = [GameClient(LOCAL, port, f"p{i}", options) for i in range(players)]
    procs = [proc]
    try:
        for c in clients:
            await c.connect()
        tasks = [asyncio.create_task(run_bot(c, think=0.002)) for c in clients]
        rng = random.Random(seed)
        for _kill in range(3):
            target = clients[0].model.sid + rng.randrange(5, 60)
            while clients[0].model.sid < target and not all(t.done() for t in tasks):
                await asyncio.sleep(0.001)
            if all(t.done() for t in tasks):
                break
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
            proc = await spawn_host([*common, "--resume"])
            procs.append(proc)
        results = await asyncio.wait_for(asyncio.gather(*tasks), 60)
        assert len(procs) > 1, "the game ended before the host could be killed"
        out, err = await asyncio.wait_for(proc.communicate(), 20)
        assert proc.returncode == 0, err.decode()
        seated = (0, 1) if players == 2 else tuple(range(players))
        expected = Game(variant, seated, seed=seed)
        expected.start()
        play_out(expected)
        assert all(r is not None for r in results)
        for r in results:
            assert r is not None and list(r.winners) == list(expected.winners)
            if variant is Variant.POINTS:
                scores = tuple(expected.final_scores.get(c, 0) for c in range(4))
                assert r.scores == scores
            else:
                assert r.scores is None  # scores are for play for points only
        assert all(c.model.pawns == expected.pawns for c in clients)
        assert "game over" in out.decode()
        journal = next((tmp_path / "journals").iterdir())
        assert os.stat(journal).st_mode & 0o077 == 0  # only the user may read it
    finally:
        for c in clients:
            await c.close()
        for p in procs:
            if p.returncode is None:
                p.kill()
                await p.wait()
