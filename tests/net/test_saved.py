"""Saved games: describing journals, choosing the one to resume, salvaging damage."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))

from pair import EPOCH, Pair

from sorry_lan.authority.journal_format import scan
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.restore import replay
from sorry_lan.authority.table import Table, TableConfig, token_hash
from sorry_lan.codes import JournalFailure
from sorry_lan.net.journal import SUFFIX, Journal, JournalError, load
from sorry_lan.net.saved import (
    DAMAGED,
    FINISHED,
    UNFINISHED,
    Ask,
    NotChosen,
    Resumable,
    SavedGame,
    answered,
    find,
    new_journal_path,
    pick,
    resumable,
    salvage,
    saved_games,
)
from sorry_lan.rules import Game, Variant
from sorry_lan.wire import messages as m


def save_game(
    directory: Path,
    gid: str,
    host: str = "ann",
    moves: int = 5,
    end: bool = False,
    to_the_end: bool = False,
    seed: int = 3,
) -> Path:
    """A journal ``gid`` hosted by ``host`` (the red seat) with ``moves`` moves."""
    path = directory / f"{gid}.journal"
    journal = Journal(path)
    game = Game(Variant.STANDARD, (0, 2), seed=seed)
    tokens = {0: token_hash(host.encode().ljust(16, b"-")), 2: token_hash(b"b" * 16)}
    journal.game(game, {0: host, 2: "bob"}, [], tokens, owner=0, table=f"{host}'s", host=host)
    game.start()
    played = 0
    while not game.over and (to_the_end or played < moves):
        sid = game.state_id
        move = game.legal_moves()[0]
        game.play(move)
        journal.move(sid, move.compact())
        played += 1
    if end:
        journal.end()
    journal.close()
    return path


def rematched_table(
    directory: Path, gid: str, variant: Variant = Variant.STANDARD, seats: int = 2, seed: int = 3
) -> list[list[str]]:
    """A table where ann plays bots, a game and a rematch, through the in-memory host
    (a minute a game on its clock), kept as journal ``gid``: each game's winners by
    name.  Seed 3, two seats: a bot wins the first game,
    ann the rematch."""
    table = Table(TableConfig(variant=variant, seats=seats, auto_start=True, seed=seed,
                              bot_level="random", turn_timeout=0.0))  # fmt: skip
    for _ in range(seats - 1):
        table.add_bot(None, level="random")
    pair = Pair(table, HostOptions(heartbeat=1000.0, dead_after=5000.0, stay=True))
    _cid, ann = pair.join("ann")
    pair.advance(60.0)
    first = pair.table.game
    ann.send(m.Rematch())
    pair.pump()
    pair.advance(60.0)
    second = pair.table.game
    assert first is not None and second is not None and first.over and second.over
    journal = Journal(directory / f"{gid}.journal")
    for record in pair.journal:
        journal.append(record)
    journal.close()
    recorded = pair.journal[0]["names"]
    assert isinstance(recorded, dict)
    names = {int(c): str(n) for c, n in recorded.items()}
    return [[names[c] for c in g.winners] for g in (first, second)]


def test_a_rematch_does_not_hide_the_first_game(tmp_path: Path) -> None:
    winners = rematched_table(tmp_path, "n000001-x")
    assert winners[0] != winners[1]
    (game,) = saved_games(tmp_path)[0]
    assert [(g.number, g.winners, g.over) for g in game.games] == [
        (1, winners[0], True),
        (2, winners[1], True),
    ]
    # each ends when its journal says (the move that ended it carries the time): the
    # bots played the first out at once, not when the rematch began a minute later
    assert game.games[0].ended == EPOCH and game.games[0].seconds == 0.0
    assert game.games[1].ended == game.games[1].started == EPOCH + 60.0 != game.last_move
    assert not game.games[0].points
    # a journal from before that is estimated as before: the next start, the file's time
    path = tmp_path / "n000001-x.journal"
    records = [{k: v for k, v in r.items() if k != "t" or r["k"] != "move"}
               for r in scan(path.read_bytes()).records]  # fmt: skip
    path.unlink()
    old = Journal(path)
    for record in records:
        old.append(record)
    old.close()
    (game,) = saved_games(tmp_path)[0]
    assert game.games[0].ended == game.games[1].started and game.games[0].seconds == 60.0
    assert game.games[1].ended == game.last_move


@pytest.mark.parametrize(("variant", "seats"), [(Variant.POINTS, 3), (Variant.TEAM, 4)])
def test_points_and_teams_are_kept_per_game(tmp_path: Path, variant: Variant, seats: int) -> None:
    winners = rematched_table(tmp_path, "n000001-y", variant, seats)
    (game,) = saved_games(tmp_path)[0]
    for played, won in zip(game.games, winners, strict=True):
        assert played.winners == won and len(played.players) == seats
        assert sorted(played.bots) == sorted(n for n in played.players if n != "ann")
        if variant is Variant.POINTS:
            assert set(played.points) == set(played.players) and played.points[won[0]] > 0
        else:
            assert len(won) == 2 and not played.points
    assert game.as_json()["games"][0]["winners"] == winners[0]


def flip(path: Path, line: int) -> None:
    data = bytearray(path.read_bytes())
    start = 0
    for _ in range(line - 1):
        start = data.index(b"\n", start) + 1
    data[start + 3] ^= 0x01
    path.write_bytes(bytes(data))


def test_games_are_described_newest_first(tmp_path: Path) -> None:
    save_game(tmp_path, "20260101-a", moves=4, end=True)
    save_game(tmp_path, "20260102-b", moves=7)
    flip(save_game(tmp_path, "20260103-c", moves=6), line=5)
    (tmp_path / "20260104-d.journal").write_bytes(b"")  # a host that never started a game
    games, notes = saved_games(tmp_path)
    assert notes == []
    assert [g.id for g in games] == ["20260103-c", "20260102-b", "20260101-a"]
    c, b, a = games
    assert (a.state, b.state, c.state) == (FINISHED, UNFINISHED, DAMAGED)
    assert b.moves == 7 and b.players == ["ann", "bob"] and b.table == "ann's"
    assert b.variant == "standard" and b.started is not None and b.last_move is not None
    assert c.problem is not None and c.problem.startswith("line 5: its checksum")
    assert c.salvage_moves == 3  # lines 2-4
    data = b.as_json()
    assert data["state"] == "unfinished" and data["started"].endswith("Z")


def test_a_record_that_does_not_replay_is_damage_too(tmp_path: Path) -> None:
    path = save_game(tmp_path, "g", moves=3)
    journal = Journal(path)
    journal.append({"k": "seat", "colour": 2})  # checksummed, but malformed
    journal.close()
    (game,), _ = saved_games(tmp_path)
    assert game.state == DAMAGED
    assert game.problem == "line 5: a malformed seat record: no 'name' field"
    assert game.salvage_moves == 3


def test_pick_resumes_only_your_one_unfinished_game(tmp_path: Path) -> None:
    save_game(tmp_path, "20260101-a", host="ann", end=True)
    save_game(tmp_path, "20260102-b", host="ann")
    games, _ = saved_games(tmp_path)
    assert pick(games, "Ann") == games[0]
    asked = pick(games, "zed")
    assert isinstance(asked, Ask) and "hosted by ann, not zed" in asked.why
    save_game(tmp_path, "20260103-c", host="mallory")
    games, _ = saved_games(tmp_path)
    asked = pick(games, "ann")
    assert isinstance(asked, Ask) and asked.why == "2 games are unfinished"
    assert [g.id for g in asked.choices] == ["20260103-c", "20260102-b"]


def test_with_no_name_given_this_machines_one_unfinished_game_is_resumed(
    tmp_path: Path,
) -> None:
    save_game(tmp_path, "20260101-a", host="Zed", end=True)
    save_game(tmp_path, "20260102-b", host="Zed")
    games, _ = saved_games(tmp_path)
    assert pick(games, None) == games[0]  # no name given: whoever hosted it, it is yours
    asked = pick(games, "host")  # a name given that is not the host's: asked
    assert isinstance(asked, Ask) and "hosted by Zed, not host" in asked.why
    flip(save_game(tmp_path, "20260103-c", host="Zed"), line=3)
    games, _ = saved_games(tmp_path)
    asked = pick(games, None)  # a damaged newer journal is still never skipped
    assert isinstance(asked, Ask) and "20260103-c" in asked.why
    save_game(tmp_path, "20260104-d", host="Zed")
    games, _ = saved_games(tmp_path)
    asked = pick(games, None)
    assert isinstance(asked, Ask) and asked.why == "2 games are unfinished"


def test_a_newer_damaged_journal_is_never_skipped(tmp_path: Path) -> None:
    save_game(tmp_path, "20260101-a", host="ann")
    flip(save_game(tmp_path, "20260102-b", host="ann"), line=3)
    games, _ = saved_games(tmp_path)
    asked = pick(games, "ann")
    assert isinstance(asked, Ask) and "20260102-b" in asked.why and "line 3" in asked.why
    assert [g.id for g in asked.choices] == ["20260101-a", "20260102-b"]


def _clock_says(monkeypatch: pytest.MonkeyPatch, t: float) -> None:
    """The wall clock reads ``t`` (Unix seconds) from now on."""
    real = time.gmtime
    monkeypatch.setattr(time, "time", lambda: t)
    monkeypatch.setattr(time, "time_ns", lambda: int(t * 10**9))
    monkeypatch.setattr(time, "gmtime", lambda secs=None: real(t if secs is None else secs))


def test_the_newest_journal_is_the_last_made_even_after_the_clock_went_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_game(tmp_path, "20260101-a", host="ann", end=True)  # a name from before: oldest
    day = 1_800_000_000.0
    _clock_says(monkeypatch, day)
    first = new_journal_path(tmp_path).name.removesuffix(SUFFIX)
    save_game(tmp_path, first, host="ann")
    _clock_says(monkeypatch, day - 86_400)  # the clock went back a day
    second = new_journal_path(tmp_path).name.removesuffix(SUFFIX)
    flip(save_game(tmp_path, second, host="ann"), line=3)
    games, _ = saved_games(tmp_path)
    assert [g.id for g in games] == [second, first, "20260101-a"]  # newest first
    asked = pick(games, "ann")  # the damaged newest is not skipped in silence
    assert isinstance(asked, Ask) and second in asked.why and "line 3" in asked.why
    _clock_says(monkeypatch, day + 3600)
    third = new_journal_path(tmp_path).name.removesuffix(SUFFIX)
    save_game(tmp_path, third, host="ann", end=True)
    assert [g.id for g in saved_games(tmp_path)[0]] == [third, second, first, "20260101-a"]


def test_nothing_to_resume(tmp_path: Path) -> None:
    save_game(tmp_path, "a", end=True)
    games, _ = saved_games(tmp_path)
    with pytest.raises(JournalError, match="no unfinished game"):
        pick(games, "ann")
    assert saved_games(tmp_path / "missing") == ([], [])


def test_a_game_a_running_host_holds_is_marked_and_not_picked(tmp_path: Path) -> None:
    path = save_game(tmp_path, "20260101-a", host="ann")
    save_game(tmp_path, "20260102-b", host="ann", end=True)
    held = Journal(path)
    try:
        games, _ = saved_games(tmp_path)
        assert games[1].running
        with pytest.raises(JournalError):
            pick(games, "ann")
    finally:
        held.close()


def test_find_by_id_or_unique_prefix(tmp_path: Path) -> None:
    save_game(tmp_path, "20260101-100000-1", end=True)
    save_game(tmp_path, "20260101-110000-2")
    games, _ = saved_games(tmp_path)
    assert find(games, "20260101-11").id == "20260101-110000-2"
    with pytest.raises(JournalError, match="2 saved games have ids starting"):
        find(games, "20260101")
    with pytest.raises(JournalError, match="no saved game has the id"):
        find(games, "1999")


def test_salvage_keeps_the_damaged_file_and_resumes_the_intact_part(tmp_path: Path) -> None:
    path = save_game(tmp_path, "g", moves=8)
    flip(path, line=6)
    damaged = path.read_bytes()
    (game,), _ = saved_games(tmp_path)
    copy = salvage(game)
    assert copy.read_bytes() == damaged and copy.name == "g.damaged"
    restored = replay(load(path))
    assert restored is not None and restored.moves == 4
    (again,), _ = saved_games(tmp_path)
    assert again.state == UNFINISHED
    Journal(path).close()  # and it can be appended to


def test_whether_and_how_a_chosen_game_resumes() -> None:
    def game(state: str, **more: object) -> SavedGame:
        return SavedGame("g", Path("g.journal"), state, **more)  # type: ignore[arg-type]

    assert resumable(game(UNFINISHED)) is Resumable.YES
    assert resumable(game(UNFINISHED, running=True)) is Resumable.RUNNING
    assert resumable(game(FINISHED)) is Resumable.FINISHED
    assert resumable(game(DAMAGED, salvage_bytes=300, salvage_moves=2)) is Resumable.SALVAGE
    assert resumable(game(DAMAGED, salvage_bytes=120)) is Resumable.SALVAGE  # its game record
    assert resumable(game(DAMAGED)) is Resumable.NOTHING_INTACT
    assert resumable(game(DAMAGED, running=True)) is Resumable.RUNNING


def test_a_damaged_journal_is_salvaged_only_up_to_its_damage(tmp_path: Path) -> None:
    flip(save_game(tmp_path, "20260101-a", moves=4), line=4)
    flip(save_game(tmp_path, "20260102-b", moves=4), line=1)
    b, a = saved_games(tmp_path)[0]
    assert resumable(a) is Resumable.SALVAGE and a.salvage_moves == 2
    assert resumable(b) is Resumable.NOTHING_INTACT


def test_an_answer_chooses_by_number_or_id(tmp_path: Path) -> None:
    save_game(tmp_path, "20260101-a")
    save_game(tmp_path, "20260102-b")
    games, _ = saved_games(tmp_path)
    assert [answered(games, a).id for a in ("1", "2", "20260101")] == [
        "20260102-b",
        "20260101-a",
        "20260101-a",
    ]
    for wrong in ("0", "3", "1999"):
        with pytest.raises(NotChosen) as caught:
            answered(games, wrong)
        assert caught.value.code is JournalFailure.NO_ID


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owners")
def test_journals_of_other_users_are_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_game(tmp_path, "a")
    mine = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: mine + 1)
    games, notes = saved_games(tmp_path)
    assert games == [] and len(notes) == 1 and "belongs to another user" in str(notes[0])
