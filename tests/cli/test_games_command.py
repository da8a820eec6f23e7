"""``sorry-lan games`` and ``sorry-lan host --resume [ID]``: listing, choosing, asking,
locks, damaged journals, and a game that was over before its end mark."""

from __future__ import annotations

import asyncio
import calendar
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "net"))

from netkit import LOCAL, HostProcess
from test_saved import flip, rematched_table, save_game

from sorry_lan.cli import build_parser, main
from sorry_lan.commands.games import aligned, when
from sorry_lan.commands.host import _choose_resume, _hosted
from sorry_lan.i18n import LANGUAGES, pgettext, use_language
from sorry_lan.net.botrunner import run_bot
from sorry_lan.net.client import ClientOptions, GameClient
from sorry_lan.net.journal import Journal
from sorry_lan.net.kept import record_of
from sorry_lan.net.played import PlayedStore
from sorry_lan.net.saved import FINISHED, saved_games
from sorry_lan.rules import Game, Variant
from sorry_lan.tui.cells import room

ANN = b"ann".ljust(16, b"-")  # the seat tokens save_game records
BOB = b"b" * 16


def games(tmp_path: Path) -> Path:
    d = tmp_path / "journals"
    d.mkdir(mode=0o700, exist_ok=True)
    return d


def test_games_lists_every_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = games(tmp_path)
    save_game(d, "20260101-a", end=True)
    save_game(d, "20260102-b", moves=9)
    flip(save_game(d, "20260103-c"), line=2)
    assert main(["games", "--json", "--data-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    listed = json.loads(out)
    assert err == ""
    assert [(g["id"], g["state"], g["moves"]) for g in listed] == [
        ("20260103-c", "damaged", 0),
        ("20260102-b", "unfinished", 9),
        ("20260101-a", "finished", 5),
    ]
    assert listed[1]["players"] == ["ann", "bob"] and listed[1]["variant"] == "standard"
    assert main(["games", "--data-dir", str(tmp_path)]) == 0
    out, _ = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split() == ["STARTED", "HOST", "PLAYERS", "WINNER", "TOOK"]
    at = lines[0].index("WINNER")
    assert [line[at:].split()[0] for line in rows(lines)] == ["damaged", "unfinished", "finished"]
    assert lines[2].startswith("    damaged at line 2: its checksum does not match")


def test_a_rematch_is_its_own_row_with_its_winner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    winners = [w for (w,) in rematched_table(games(tmp_path), "n000001-x")]
    assert len(set(winners)) == 2 and "ann" in winners  # each won one
    assert main(["games", "--json", "--data-dir", str(tmp_path)]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert (listed["id"], listed["state"]) == ("n000001-x", "unfinished")
    played = listed["games"]
    assert [g["number"] for g in played] == [1, 2]
    assert [g["winners"] for g in played] == [[w] for w in winners]
    assert all(sorted(g["players"]) == sorted(["ann", *g["bots"]]) for g in played)
    # the bots play each game out at once on the pair's clock; the journal says when
    # each ended (the rematch began a minute after the first game's end)
    assert played[0]["started"] == "2026-09-21T14:13:20Z" and played[0]["seconds"] == 0.0
    assert played[0]["ended"] == "2026-09-21T14:13:20Z" != played[1]["started"]
    assert listed["moves"] == played[1]["moves"]
    assert main(["games", "--ids", "--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5  # the header, the rematch, the first game (each with its id)
    assert lines[0].split() == ["STARTED", "HOST", "PLAYERS", "WINNER", "TOOK"]
    assert lines[2:5:2] == ["    n000001-x", "    n000001-x --game 1"]
    at = lines[0].index("WINNER")
    assert lines[1].index(winners[1], at) == at and lines[3].index(winners[0], at) == at
    assert lines[3].endswith("0 min") and " here " in lines[3]


def test_stats_count_each_game_people_first_bots_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["games", "--stats", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("no finished games in ")
    first, second = rematched_table(games(tmp_path), "n000001-x")
    (bot,) = set(first + second) - {"ann"}
    assert main(["games", "--stats", "--json", "--data-dir", str(tmp_path)]) == 0
    board = json.loads(capsys.readouterr().out)
    (ann,) = board["people"]
    assert (ann["name"], ann["played"], ann["won"], ann["streak"]) == ("ann", 2, 1, 1)
    assert ann["by_variant"] == {"standard": {"played": 2, "won": 1}}
    assert ann["by_players"] == {"2": {"played": 2, "won": 1}}
    assert [(b["name"], b["won"], b["streak"], b["longest_streak"]) for b in board["bots"]] == [
        (bot, 1, 0, 1)
    ]
    assert main(["games", "--stats", "--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["PLAYER", "PLAYED", "WON", "STREAK", "LONGEST"]
    assert lines[1].split() == ["ann", "2", "1", "1", "1"]
    assert lines[2].strip() == "standard: won 1 of 2; 2 players: won 1 of 2"
    assert (lines[3], lines[4].rsplit(None, 4)[0]) == ("Bots", bot)


def test_columns_are_aligned_by_the_cells_text_takes() -> None:
    rows = [["NAME", "WON"], ["สมศักดิ์", "1"], ["明子", "2"], ["ann", "3"]]
    lines = aligned(rows)  # 8 characters in 5 cells; 2 characters in 4 cells
    assert [room(line[: line.index(w)]) for line, w in zip(lines, "W123", strict=True)] == [7] * 4


def test_no_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--json", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "[]"


def flat(text: str) -> str:
    """``text`` with its line breaks undone (the host fits what it says to 80 columns)."""
    return " ".join(text.split())


def resume(tmp_path: Path, *extra: str) -> list[str]:
    return ["host", "--headless", "--no-mdns", "--data-dir", str(tmp_path), "--resume", *extra]


def test_resume_lists_and_exits_2_when_it_cannot_choose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = games(tmp_path)
    save_game(d, "20260101-a", host="ann")
    save_game(d, "20260102-b", host="mallory")
    assert main([*resume(tmp_path), "--name", "ann"]) == 2
    err = flat(capsys.readouterr().err)
    assert "not resuming by itself: 2 games are unfinished" in err
    assert "20260101-a" in err and "20260102-b" in err and "--resume ID" in err


def test_resume_never_takes_someone_elses_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_game(games(tmp_path), "20260102-b", host="mallory")
    assert main([*resume(tmp_path), "--name", "ann"]) == 2
    assert "hosted by mallory, not ann" in flat(capsys.readouterr().err)


def test_resume_with_no_name_takes_this_machines_game_and_keeps_its_names(
    tmp_path: Path,
) -> None:
    save_game(games(tmp_path), "20260102-b", host="Zed")
    args = build_parser("host").parse_args(
        ["host", "--no-mdns", "--data-dir", str(tmp_path), "--resume"]
    )
    path = _choose_resume(args)  # no --name: nothing to ask
    assert path is not None and path.name == "20260102-b.journal"
    hosted = _hosted(args, path)
    assert (hosted.config.title, hosted.config.host_name) == ("Zed's", "Zed")
    assert (hosted.options.name, hosted.owner) == ("Zed", "Zed")
    args = build_parser("host").parse_args(
        ["host", "--data-dir", str(tmp_path), "--resume", "--name", "Zed", "--game-name", "Den"]
    )
    hosted = _hosted(args, _choose_resume(args))
    assert (hosted.config.title, hosted.options.name, hosted.owner) == ("Den", "Zed", "Zed")
    args = build_parser("host").parse_args(["host", "--data-dir", str(tmp_path), "--headless"])
    hosted = _hosted(args, None)  # a new table: "host", as before
    assert (hosted.config.title, hosted.config.host_name, hosted.owner) == ("host", "host", None)


def test_a_damaged_newest_journal_is_named_not_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = games(tmp_path)
    save_game(d, "20260101-a", host="ann")
    flip(save_game(d, "20260102-b", host="ann", moves=6), line=4)
    assert main([*resume(tmp_path), "--name", "ann"]) == 2
    err = flat(capsys.readouterr().err)
    assert "a newer journal is damaged (20260102-b: line 4: its checksum" in err
    assert main(resume(tmp_path, "20260102-b")) == 2
    err = flat(capsys.readouterr().err)
    assert f"{d / '20260102-b.journal'} is damaged at line 4" in err
    assert "to resume the 2 moves before the damage, run `sorry-lan host --resume 20260102-b" in err
    assert "--salvage" in err


def test_finished_and_unknown_games_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_game(games(tmp_path), "20260101-a", end=True)
    assert main(resume(tmp_path, "20260101-a")) == 1
    assert "game 20260101-a is finished" in capsys.readouterr().err
    assert main(resume(tmp_path, "nope")) == 1
    assert "no saved game has the id 'nope'" in capsys.readouterr().err
    assert main([*resume(tmp_path), "--name", "ann"]) == 1
    assert "no unfinished game to resume in" in capsys.readouterr().err


def test_a_journal_damaged_in_its_game_record_is_named_with_its_line_and_the_way_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = games(tmp_path)
    flip(save_game(d, "20260102-b", host="ann", moves=6), line=1)
    assert main(resume(tmp_path)) == 1
    err = flat(capsys.readouterr().err)
    assert f"{d / '20260102-b.journal'} is damaged at line 1" in err
    assert "nothing before the damage can be resumed" in err
    assert "to host a new table instead, run `sorry-lan host`" in err
    assert "which game" not in err  # no empty list to choose from


def test_a_second_host_is_told_the_only_game_is_being_hosted_and_by_whom(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = games(tmp_path)
    save_game(d, "20260101-a", host="ann", end=True)
    held = Journal(save_game(d, "20260102-b", host="ann"))  # as a running host holds it
    try:
        assert main(resume(tmp_path)) == 1
        err = capsys.readouterr().err
    finally:
        held.close()
    assert flat(err) == (
        f"sorry-lan host: game 20260102-b is being hosted right now by sorry-lan process "
        f"{os.getpid()} on {platform.node()}: stop that host first, or join its table"
    )
    assert not (d / "20260102-b.journal.holder").exists()  # gone with the host


def _exited(proc: asyncio.subprocess.Process) -> bool:
    return proc.returncode is not None


# -- real hosts ------------------------------------------------------------------------


async def spawn(tmp_path: Path, *args: str) -> HostProcess:
    return await HostProcess.spawn(
        "--bind", LOCAL, "--port", "0", "--data-dir", str(tmp_path), *args
    )  # fmt: skip


@pytest.mark.asyncio
async def test_resume_id_resumes_that_game_and_a_second_host_is_refused(tmp_path: Path) -> None:
    d = games(tmp_path)
    save_game(d, "20260101-a", host="ann", moves=3)
    save_game(d, "20260102-b", host="mallory", moves=11)
    host = await spawn(tmp_path, "--resume", "20260101-a", "--name", "ann")
    proc, port, head = host.proc, host.port, host.head
    assert head == "resumed 20260101-a.journal: 3 moves replayed\n"
    second = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sorry_lan", "host", "--headless", "--no-mdns", "--port", "0",
        "--data-dir", str(tmp_path), "--resume", "20260101-a",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await asyncio.wait_for(second.communicate(), 20)
    assert second.returncode == 1
    assert flat(err.decode()) == (
        f"sorry-lan host: game 20260101-a is being hosted right now by sorry-lan process "
        f"{proc.pid} on {platform.node()}: stop that host first, or join its table"
    )
    seats = (("ann", ANN), ("bob", BOB))
    clients = [GameClient(LOCAL, port, n, ClientOptions(token=t)) for n, t in seats]
    try:
        for c in clients:
            await c.connect()
        for _ in range(500):  # (version 5: the board is shown once the laptops hold it)
            if clients[0].model.snapshot is not None:
                break
            await asyncio.sleep(0.01)
        assert clients[0].model.snapshot is not None and clients[0].model.colour == 0
        results = await asyncio.wait_for(asyncio.gather(*(run_bot(c) for c in clients)), 60)
        out, err = await asyncio.wait_for(proc.communicate(), 20)
        assert proc.returncode == 0, err.decode()
        assert all(r is not None for r in results)
        assert "game over: Red (ann) won" in out.decode()
    finally:
        await host.finish(clients)
    states = {g.id: g.state for g in saved_games(d)[0]}
    assert states == {"20260101-a": FINISHED, "20260102-b": "unfinished"}


@pytest.mark.asyncio
async def test_a_game_over_before_its_end_mark_tells_the_players_the_result(
    tmp_path: Path,
) -> None:
    d = games(tmp_path)
    save_game(d, "20260101-a", host="ann", to_the_end=True)  # no end mark: the host died
    host = await spawn(tmp_path, "--resume", "--name", "ann", "--grace", "30")
    proc, port, head = host.proc, host.port, host.head
    assert "(the game is over)" in head
    seats = (("ann", ANN), ("bob", BOB))
    clients = [GameClient(LOCAL, port, n, ClientOptions(token=t)) for n, t in seats]
    try:
        await asyncio.sleep(0.5)
        assert not _exited(proc)  # it waits for the players to learn the result
        for c in clients:
            await c.connect()
        results = await asyncio.wait_for(asyncio.gather(*(run_bot(c) for c in clients)), 20)
        out, err = await asyncio.wait_for(proc.communicate(), 20)
    finally:
        await host.finish(clients)
    assert proc.returncode == 0, err.decode()
    assert all(r is not None and list(r.winners) for r in results)
    text = out.decode()
    assert "game over:" in text
    assert saved_games(d)[0][0].state == FINISHED


@pytest.mark.asyncio
async def test_a_game_over_nobody_comes_back_for_ends_after_the_grace(tmp_path: Path) -> None:
    d = games(tmp_path)
    save_game(d, "20260101-a", host="ann", to_the_end=True)
    proc = (await spawn(tmp_path, "--resume", "--name", "ann", "--grace", "1")).proc
    out, err = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode == 0, err.decode()
    assert "game over:" in out.decode()
    assert saved_games(d)[0][0].state == FINISHED


def test_resuming_a_bots_game_says_how_far_it_had_gone_not_how_it_ended(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A headless table of bots plays to its end as soon as it listens: the line saying
    # what was resumed still tells the game as the journal left it (not over).
    path = games(tmp_path) / "20260101-a.journal"
    journal = Journal(path)
    game = Game(Variant.STANDARD, (0, 2), seed=3)
    journal.game(game, {0: "bot a", 2: "bot b"}, [0, 2], {}, table="t", host="h")
    game.start()
    for _ in range(3):
        sid, move = game.state_id, game.legal_moves()[0]
        game.play(move)
        journal.move(sid, move.compact())
    journal.close()
    argv = [*resume(tmp_path), "--bind", LOCAL, "--port", "0", "--bot-delay", "0"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("resumed 20260101-a.journal: 3 moves replayed\n"), out


# -- the listing a family reads: 80 columns, newest first, where it was hosted -------

LANGS = list(LANGUAGES)
HEADINGS = ("STARTED", "HOST", "PLAYERS", "WINNER", "TOOK")


def kept_from(
    tmp_path: Path, name: str, variant: Variant, seats: int, seed: int
) -> list[dict[str, Any]]:
    """The records another laptop's table (a game and a rematch, hosted by ``name``)
    sent this one at each game's end."""
    other = tmp_path / f"table-{seed}"
    other.mkdir()
    rematched_table(other, "n000001-t", variant, seats, seed=seed)
    [table] = saved_games(other)[0]
    return [record_of(table, n) | {"host": name} for n in (1, 2)]


def evening(tmp_path: Path) -> tuple[Path, int]:
    """A data dir with an evening of games of every kind: a table hosted here (points,
    a rematch), two tables at other laptops (teams; the host's name is long), an
    unfinished game and a damaged one with long names; and how many games it holds."""
    d = games(tmp_path)
    rematched_table(d, "n000001-20260921-141320-4242", Variant.POINTS, 3)
    save_game(d, "n000002-20260922-101010-4242", host="Ελένη Παπαδοπούλου", moves=11)
    flip(save_game(d, "n000003-20260923-101010-4242", host="निरंजना", moves=9), line=5)
    store = PlayedStore(tmp_path / "played")
    for record in kept_from(tmp_path, "Gwenllian ap Rhys ab Ifan", Variant.TEAM, 4, seed=5):
        assert store.save(record) is not None
    for record in kept_from(tmp_path, "สมศักดิ์", Variant.STANDARD, 2, seed=6):
        assert store.save(record) is not None
    return tmp_path, 2 + 1 + 1 + 2 + 2


def rows(lines: list[str]) -> list[str]:
    """The lines of the listing that are a game's row (not an id nor a note under one)."""
    return [line for line in lines[1:] if not line.startswith("    ")]


@pytest.mark.parametrize("lang", LANGS)
def test_every_game_is_one_row_of_at_most_80_columns_in_every_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, n = evening(tmp_path)
    for more in ([], ["--ids"]):
        assert main(["--lang", lang, "games", *more, "--data-dir", str(data)]) == 0
        lines = capsys.readouterr().out.splitlines()
        too_wide = [(room(line), line) for line in lines if room(line) > 80]
        assert too_wide == []
        assert len(rows(lines)) == n  # a line a game: none wraps onto a second
        with use_language(lang):
            heads = [pgettext("column", h) for h in HEADINGS]
        assert lines[0].split() == " ".join(heads).split()  # every heading whole
    ids = [line.strip() for line in lines if line.startswith(("    n0", "    played-"))]
    assert "n000001-20260921-141320-4242 --game 1" in ids
    assert len(ids) == n


def test_the_newest_game_comes_first_and_says_where_it_was_hosted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = games(tmp_path)
    rematched_table(d, "n000001-x")  # on the pair's clock: 2026-09-21 14:13 and 14:14
    store = PlayedStore(tmp_path / "played")
    early, late = kept_from(tmp_path, "Cerys", Variant.STANDARD, 2, seed=6)
    store.save(early | {"started": "2026-09-20T20:00:00Z", "ended": "2026-09-20T20:42:00Z"})
    store.save(late | {"started": "2026-09-22T20:00:00Z", "ended": "2026-09-22T21:05:00Z"})
    assert main(["games", "--data-dir", str(tmp_path)]) == 0
    listed = rows(capsys.readouterr().out.splitlines())
    assert [line.split("  ")[0] for line in listed] == [
        when(calendar.timegm((2026, 9, 22, 20, 0, 0))),
        when(calendar.timegm((2026, 9, 21, 14, 14, 20))),
        when(calendar.timegm((2026, 9, 21, 14, 13, 20))),
        when(calendar.timegm((2026, 9, 20, 20, 0, 0))),
    ]
    assert [line.split()[2] for line in listed] == ["Cerys", "here", "here", "Cerys"]
    assert listed[0].endswith("1 h 5 min") and listed[3].endswith("42 min")


def winner_of(record: dict[str, Any]) -> str:
    names = {seat["colour"]: seat["name"] for seat in record["seats"]}
    [colour] = record["result"]["winners"]
    return str(names[colour])


@pytest.mark.parametrize("played_first", [0, 1])
def test_streaks_follow_the_order_the_games_were_played_within_one_second(
    played_first: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two games of another laptop's table that started and ended in the same second
    # (bots play fast): the names the files get do not tell which came first, the
    # order this laptop filed them (as each ended) does.
    a, b = kept_from(tmp_path, "Cerys", Variant.STANDARD, 2, seed=3)
    second = "2026-09-21T14:13:20Z"
    records = [r | {"started": second, "ended": second} for r in (a, b)]
    store = PlayedStore(tmp_path / "played")
    order = [records[played_first], records[1 - played_first]]
    paths = [store.save(r) for r in order]
    assert None not in paths and len(set(paths)) == 2
    for i, path in enumerate(paths):
        assert path is not None
        os.utime(path, ns=(10**18 + i, 10**18 + i))
    winners = ["ann" if winner_of(r) == "ann" else "bot" for r in order]
    assert sorted(winners) == ["ann", "bot"]
    assert main(["games", "--stats", "--json", "--data-dir", str(tmp_path)]) == 0
    board = json.loads(capsys.readouterr().out)
    (ann,) = board["people"]
    (bot,) = board["bots"]
    last = winners[-1]
    assert (ann["streak"], bot["streak"]) == ((1, 0) if last == "ann" else (0, 1))
    assert main(["games", "--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    newest = rows(lines)[0][lines[0].index("WINNER") :].split()[0]
    assert ("ann" if newest == "ann" else "bot") == last


@pytest.mark.parametrize("lang", LANGS)
def test_the_scoreboard_fits_80_columns_in_every_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, _n = evening(tmp_path)
    assert main(["--lang", lang, "games", "--stats", "--json", "--data-dir", str(data)]) == 0
    board = json.loads(capsys.readouterr().out)
    names = [s["name"] for s in board["people"] + board["bots"]]
    assert main(["--lang", lang, "games", "--stats", "--data-dir", str(data)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [(room(line), line) for line in lines if room(line) > 80] == []
    players = [line for line in lines[1:] if not line.startswith(" ") and " " in line.strip()]
    assert [line.rsplit(None, 4)[0] for line in players] == names  # a line each, whole
