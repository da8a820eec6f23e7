"""The games ``sorry-lan games`` lists (``net/kept``): the journals, then the games kept
from other hosts' tables, a game this machine both hosted and kept counted once; a
kept record read back as a saved game (winner, players, moves, times) and exported as
it was sent; a kept file that is no record left out with a note; the scoreboard
counting kept games in the order they were played."""

from __future__ import annotations

from pathlib import Path

from test_saved import rematched_table

from sorry_lan.net.kept import kept_game, listed_games, record_of
from sorry_lan.net.played import PlayedStore
from sorry_lan.net.saved import saved_games
from sorry_lan.net.scoreboard import finished_games, scoreboard
from sorry_lan.records import check
from sorry_lan.rules import Variant


def test_a_kept_game_is_listed_after_the_journals_and_exports_as_sent(tmp_path: Path) -> None:
    other = tmp_path / "other-host"
    other.mkdir()
    winners = rematched_table(other, "n000001-x", Variant.POINTS, 3)
    [elsewhere] = saved_games(other)[0]
    sent = [record_of(elsewhere, n) for n in (1, 2)]  # what that host sent at each end
    mine = tmp_path / "journals"
    mine.mkdir()
    rematched_table(mine, "n000001-mine", seed=4)
    store = PlayedStore(tmp_path / "played")
    for record in sent:
        assert store.save(record) is not None
    games, notes = listed_games(mine)
    assert notes == [] and [g.kept for g in games] == [False, True, True]
    newest = games[1]
    assert newest.id.startswith("played-") and newest.state == "finished"
    [game] = newest.games
    assert game.winners == winners[1] and game.points and game.moves > 0
    assert game.started is not None and game.ended is not None and game.seconds is not None
    assert newest.as_json()["kept"] is True
    assert record_of(newest) == sent[1]
    assert check(record_of(games[2])).game.over
    assert kept_game(newest.path).games[0].winners == winners[1]


def test_a_game_hosted_here_and_kept_too_counts_once(tmp_path: Path) -> None:
    journals = tmp_path / "journals"
    journals.mkdir()
    winners = rematched_table(journals, "n000001-a")
    [hosted] = saved_games(journals)[0]
    store = PlayedStore(tmp_path / "played")
    for n in (1, 2):  # this machine's own player (or a bot run here) kept both games
        store.save(record_of(hosted, n))
    games, _notes = listed_games(journals)
    assert [g.kept for g in games] == [False]
    assert [p.winners for p in finished_games(games)] == winners
    assert sum(s.games.played for s in scoreboard(games) if not s.bot) == 2


def test_kept_games_go_into_the_scoreboard_by_when_they_were_played(tmp_path: Path) -> None:
    journals = tmp_path / "journals"
    journals.mkdir()
    rematched_table(journals, "n000001-a")  # on the pair's clock: 2026-09-21
    store = PlayedStore(tmp_path / "played")
    other = tmp_path / "o"
    other.mkdir()
    rematched_table(other, "n000001-b", seed=4)
    [theirs] = saved_games(other)[0]
    early = record_of(theirs, 1) | {"started": "2020-01-01T00:00:00Z", "seed": 1}
    store.save(early)
    (tmp_path / "played" / "played-20200101-000000-0123456789ab.json").write_text("nope")
    games, notes = listed_games(journals)
    assert len(notes) == 1 and "0123456789ab" in str(notes[0])
    played = finished_games(games)
    assert played[0].started is not None and played[0].started < (played[1].started or 0)
    assert len(played) == 3
