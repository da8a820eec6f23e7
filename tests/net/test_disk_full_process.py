"""``sorry-lan host`` on a real full (or read-only) file system: a small tmpfs mounted in
a user and mount namespace the test creates (never the real disk).  The host must tell
its player in one sentence, exit non-zero and leave a journal that resumes to exactly
what that player saw."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from netkit import LOCAL, free_port

from sorry_lan.authority.restore import replay
from sorry_lan.net.botrunner import BotStats, run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.journal import Journal, load


def _namespaces_work() -> bool:
    if sys.platform != "linux" or shutil.which("unshare") is None:
        return False
    try:
        done = subprocess.run(["unshare", "-Urm", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


pytestmark = pytest.mark.skipif(
    not _namespaces_work(), reason="needs Linux user and mount namespaces (unshare -Urm)"
)

# In the namespace: mount a tmpfs of $SIZE on $1, copy the journal $COPY in, fill
# $FILL bytes of it (or what is left), make it
# read-only if $RO, run the
# host with its data dir there, then copy the journals out to $2 and report the exit.
SCRIPT = r"""
set -e
mount -t tmpfs -o size="$SIZE",mode=0700 tmpfs "$1"
if [ -n "$COPY" ]; then mkdir -p "$1/journals" && cp "$COPY" "$1/journals/"; fi
head -c "$FILL" /dev/zero > "$1/filler" 2>/dev/null || true
if [ -n "$RO" ]; then mount -o remount,ro "$1"; fi
shift 2
set +e
"$@"
status=$?
mkdir -p "$OUT" && cp "$MNT"/journals/*.journal "$OUT"/ 2>/dev/null
echo "host exited $status"
"""


async def _host_in_tmpfs(
    tmp_path: Path,
    size: str,
    args: list[str],
    read_only: bool = False,
    fill: int = 0,
    copy: Path | None = None,
    headless: bool = True,
) -> asyncio.subprocess.Process:
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    env = {
        "SIZE": size,
        "FILL": str(fill),
        "COPY": "" if copy is None else str(copy),
        "RO": "1" if read_only else "",
        "OUT": str(tmp_path / "out"),
        "MNT": str(mnt),
        "PATH": "/usr/bin:/bin",
    }
    host = [sys.executable, "-m", "sorry_lan", "host", "--no-mdns"]
    if headless:
        host.append("--headless")
    return await asyncio.create_subprocess_exec(
        "unshare", "-Urm", "sh", "-c", SCRIPT, "sh", str(mnt), "-",
        *host, "--data-dir", str(mnt), *args,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )  # fmt: skip


async def _lines(stream: asyncio.StreamReader | None) -> list[str]:
    assert stream is not None
    return (await stream.read()).decode().splitlines()


@pytest.mark.asyncio
async def test_a_host_on_a_full_tmpfs_stops_cleanly_and_loses_nothing_seen(tmp_path: Path) -> None:
    port = free_port()
    proc = await _host_in_tmpfs(
        tmp_path,
        "12k",  # a page for the filler, one for the journal's holder note, one for it
        fill=4096,
        args=["--port", str(port), "--bind", LOCAL, "--players", "4", "--bots", "3", "--seed", "5"],
    )
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
    assert line.startswith("listening on"), line + "".join(await _lines(proc.stderr))
    client = GameClient(LOCAL, port, "ann", ClientOptions(reconnect_for=0.5))
    await client.connect()
    stats = BotStats()
    result = await asyncio.wait_for(run_bot(client, stats=stats), 60)
    out = await _lines(proc.stdout)
    err = await _lines(proc.stderr)
    await proc.wait()
    await client.close()
    assert result is None, "the game ended before the disk was full: use a smaller tmpfs"
    assert out[-1] == "host exited 1", (out, err)
    assert len(err) == 1 and "the journal could not be written" in err[0], err
    assert "Traceback" not in "".join(err)
    told = [r for r in stats.refused if "cannot save the game" in r]
    assert len(told) == 1 and "No space left on device" in told[0], stats.refused
    journals = list((tmp_path / "out").glob("*.journal"))
    assert len(journals) == 1
    restored = replay(load(journals[0]))
    assert restored is not None and restored.moves > 10
    assert restored.game.state_id == client.model.sid  # exactly what the player saw


@pytest.mark.asyncio
async def test_a_read_only_data_dir_is_one_sentence(tmp_path: Path) -> None:
    proc = await _host_in_tmpfs(
        tmp_path, "64k", ["--port", "0", "--bind", LOCAL, "--players", "2"], read_only=True
    )
    out = await _lines(proc.stdout)
    err = await _lines(proc.stderr)
    await proc.wait()
    assert out[-1] == "host exited 1", (out, err)
    assert len(err) == 1, err
    assert "Read-only file system" in err[0] and "--data-dir" in err[0], err


@pytest.mark.asyncio
async def test_resuming_onto_a_full_disk_is_one_sentence(tmp_path: Path) -> None:
    from test_saved import save_game

    saved = tmp_path / "saved"
    saved.mkdir()
    path = save_game(saved, "20260101-a", host="ann", moves=5)
    journal = Journal(path)
    while 4096 - path.stat().st_size > 60:  # fill the file's one page almost to the end
        journal.chat(2, "x" * min(100, 4096 - path.stat().st_size - 56))
    journal.close()
    assert path.stat().st_size <= 4096
    before = path.read_bytes()
    proc = await _host_in_tmpfs(
        tmp_path,
        "8k",
        ["--port", "0", "--bind", LOCAL, "--name", "ann", "--text", "--resume"],
        fill=8192,
        copy=path,
        headless=False,  # the host's own seat gets a new token: a seat record to write
    )
    out = await _lines(proc.stdout)
    err = await _lines(proc.stderr)
    await proc.wait()
    assert out[-1] == "host exited 1", (out, err)
    assert err == ["sorry-lan host: No space left on device"], err
    (copied,) = (tmp_path / "out").glob("*.journal")
    assert copied.read_bytes() == before  # nothing half-written was left behind
