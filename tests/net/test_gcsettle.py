"""A host's and a client's process settle their memory once start-up is over, so a
full garbage collection in the middle of a game walks only what the game made."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Runs in a fresh interpreter: this one's collector state belongs to the whole suite.
HOST_THEN_CLIENT = textwrap.dedent(
    """
    import asyncio, gc, json, sys
    from sorry_lan.authority.table import Table, TableConfig
    from sorry_lan.net.host import HostServer
    from sorry_lan.net.client import GameClient

    async def main(who):
        out = {}
        if who == "host":
            server = HostServer(Table(TableConfig(seats=2, auto_start=True, seed=1)))
            await server.start("127.0.0.1", 0)
            print(json.dumps({"port": server.address[1]}), flush=True)
            out["frozen"] = gc.get_freeze_count()
            out["walked"] = len(gc.get_objects())  # what a full collection walks
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
            await server.close()
        else:
            client = GameClient("127.0.0.1", int(who), "ann")
            before = gc.get_freeze_count()
            await client.connect()
            out["before"] = before
            out["frozen"] = gc.get_freeze_count()
            out["walked"] = len(gc.get_objects())
            await client.close()
        print(json.dumps(out), flush=True)

    asyncio.run(main(sys.argv[1]))
    """
)


def _python(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", HOST_THEN_CLIENT, *args], cwd=ROOT, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )


def test_host_and_client_processes_settle_after_start_up() -> None:
    with _python("host") as host:
        try:
            assert host.stdout is not None
            port = json.loads(host.stdout.readline())["port"]
            with _python(str(port)) as client:
                said = client.communicate(timeout=60)[0]
            got_client = json.loads(said.splitlines()[-1])
            got_host = json.loads(host.communicate("\n", timeout=60)[0].splitlines()[-1])
        finally:
            host.kill()
    # The engine's tables (tens of thousands of objects) were built and frozen with
    # the rest of start-up; a full collection now walks a few thousand at most.
    assert got_host["frozen"] > 50_000 and got_host["walked"] < 5_000
    assert got_client["before"] == 0
    assert got_client["frozen"] > 50_000 and got_client["walked"] < 5_000


def test_settle_freezes_once() -> None:
    code = textwrap.dedent(
        """
        import gc
        from sorry_lan.net.gcsettle import settle
        assert settle() is True
        frozen = gc.get_freeze_count()
        objs = [[i] for i in range(1000)]  # made after start-up
        assert settle() is False
        assert gc.get_freeze_count() == frozen
        """
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)
