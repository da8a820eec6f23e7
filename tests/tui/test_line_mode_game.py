"""A whole game played by ear: a real ``sorry-lan join --text`` process against bots.

For each language a table runs on 127.0.0.1 in this process (bots in every other
seat); the player's process is driven only by what it prints: at each turn it picks
one of the numbered move sentences (no pawn token or square number is read), asks
for ``help`` and ``board`` on the way, says hello, and at game over asks for
``board`` (the end again, with each player's figures) and quits.  The
transcript then goes through ``scripts/check_transcript.py``: every line a sentence
naming a person, no notation, every turn's moves numbered, the end told.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib.util
import io
import random
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.bots import made_name
from sorry_lan.i18n import _, use_language, words
from sorry_lan.net.host import HostOptions, HostServer
from sorry_lan.rules import Variant
from sorry_lan.tui.line_help import help_lines, number_prompt

ROOT = Path(__file__).resolve().parents[2]
GAMES = {  # language: (variant, seats): every variant, two and four players
    "en": (Variant.STANDARD, 2),
    "el": (Variant.TEAM, 4),
    "hi": (Variant.POINTS, 3),
    "lo": (Variant.STANDARD, 4),
    "th": (Variant.POINTS, 2),
    "cy": (Variant.TEAM, 4),
}


@functools.cache
def _checker() -> ModuleType:
    """``scripts/check_transcript.py`` as a module (its command line run in this
    process: the same check, without a second interpreter per language)."""
    spec = importlib.util.spec_from_file_location(
        "check_transcript", ROOT / "scripts" / "check_transcript.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


async def _play(lang: str, tmp: Path) -> tuple[list[str], list[str], int]:
    variant, seats = GAMES[lang]
    table = Table(TableConfig(variant=variant, seats=seats, auto_start=True, seed=11))
    for _n in range(seats - 1):
        table.add_bot(None)
    with use_language(lang):  # the bots' names as the listener hears them
        names = [words.bot_title(*made) if (made := made_name(p.name)) else p.name
                 for p in table.players.values()] + ["Ann"]  # fmt: skip
    server = HostServer(table, HostOptions(heartbeat=0.5, dead_after=5.0))
    await server.start("127.0.0.1", 0)
    with use_language(lang):
        numbered = _("Move {i}: {move}").split("{i}")[0]
        with_card = _("Move {i}, with {card}: {move}").split("{i}")[0]
        asks = {number_prompt(), number_prompt(more=True)}
        over = _("{name}, type rematch to play again, or quit to leave.").format(name="Ann")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sorry_lan", "--lang", lang, "join", "--text",
        "--address", f"127.0.0.1:{server.address[1]}", "--name", "Ann",
        "--data-dir", str(tmp),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    rng = random.Random(lang)
    transcript: list[str] = []
    listed: list[int] = []
    turns = 0

    def send(text: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(text.encode() + b"\n")

    try:
        while True:
            raw = await asyncio.wait_for(proc.stdout.readline(), 30)
            assert raw, f"the player's process ended: {transcript[-5:]}"
            line = raw.decode().rstrip("\n")
            transcript.append(line)
            for prefix in (numbered, with_card):
                found = re.match(re.escape(prefix) + r"(\d+)", line)
                if found:
                    listed.append(int(found.group(1)))
                    break
            if line in asks:
                turns += 1
                if turns == 2:
                    send("help")
                    send("board")
                    send("say hello")
                send(str(rng.choice(listed)))
                listed = []
            elif line == over:
                send("board")  # (the end again: the pawns, the result, the figures)
                send("quit")
                break
        rest = await asyncio.wait_for(proc.stdout.read(), 20)
        transcript += rest.decode().splitlines()
        status = await asyncio.wait_for(proc.wait(), 20)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.close()
    return transcript, names, status


@pytest.mark.parametrize("lang", list(GAMES))
def test_a_whole_game_by_ear_reads_as_sentences(lang: str, tmp_path: Path) -> None:
    transcript, names, status = asyncio.run(_play(lang, tmp_path))
    assert status == 0
    path = tmp_path / "transcript.txt"
    path.write_text("\n".join(transcript) + "\n", encoding="utf-8")
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        code = _checker().main([str(path), "--lang", lang, "--names", ",".join(names)])
    assert code == 0, said.getvalue()
    assert " 0 problems" in said.getvalue()
    with use_language(lang):
        assert help_lines("game")[-1] in transcript  # (help on a turn: the game's commands)
        over = _("{name}, type rematch to play again, or quit to leave.").format(name="Ann")
    told = transcript[transcript.index(over) :]  # each player's figures, at the end
    assert all(any(line.startswith(f"{name}: ") for line in told) for name in names), told
    # every line begins like a sentence: with a capital, or with a person's name
    lower = [line for line in transcript if line[:1].islower()
             and not any(line.startswith(name) for name in names)]
    assert lower == [], lower[:3]
