"""A headless table and a remote bot say what they do on their own terminals.

``sorry-lan host --headless`` on 127.0.0.1 with ``--no-mdns`` (nothing leaves this
machine) and ``sorry-lan bot --address`` joining it, both real processes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_headless_table_and_remote_bot_report_their_game(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(
        [sys.executable, "-m", "sorry_lan", "host", "--headless", "--players", "2", "--bots", "1",
         "--no-mdns", "--bind", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path),
         "--name", "Table"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    ) as host:  # fmt: skip
        try:
            assert host.stdout is not None and host.stderr is not None
            first = host.stdout.readline()
            assert first.startswith("listening on 127.0.0.1:"), first
            port = first.strip().rsplit(":", 1)[1]
            bot = subprocess.run(
                [sys.executable, "-m", "sorry_lan", "bot", "--address", f"127.0.0.1:{port}",
                 "--name", "Robo", "--strength", "random"],
                capture_output=True, text=True, env=env, timeout=50,
            )  # fmt: skip
            # (not communicate(): it reads the descriptor, past what readline buffered)
            out = host.stdout.read()
            err = host.stderr.read()
            host.wait(30)
        finally:
            if host.poll() is None:
                host.kill()
                host.wait(5)
    assert bot.returncode == 0, bot.stderr
    # The bot: the result last on stdout (for scripts), its progress on stderr.
    result = bot.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"(Red|Blue|Yellow|Green) \((Robo|greedy bot 1)\) won\.", result), result
    assert "game 1 of 1 begins (playing " in bot.stderr
    assert "game 1 of 1 over: " in bot.stderr
    # The table: who sat down, when the game started, how it ended.
    lines = (first + out).splitlines()
    assert host.returncode == 0, err
    assert "greedy bot 1 [bot] (Red) joined" in lines, lines
    assert any(line.startswith("Robo (") and line.endswith(") joined") for line in lines)
    starts = [line for line in lines if line.startswith("the game starts: ")]
    assert len(starts) == 1 and "(Robo)" in starts[0] and "(greedy bot 1)" in starts[0]
    assert any(line.startswith("result: ") and "pawns home:" in line for line in lines)
    assert lines[-1] == f"game over: {result}"  # the host and the bot say the same sentence

