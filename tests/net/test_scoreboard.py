"""The family's scoreboard: games played and won per name, by variant and player
count, streaks in the order the games were played, team wins, bots apart."""

from __future__ import annotations

from pathlib import Path

from test_saved import rematched_table

from sorry_lan.net.saved import FINISHED, PlayedGame, SavedGame, saved_games
from sorry_lan.net.scoreboard import finished_games, recent_form, scoreboard


def journal(gid: str, *games: PlayedGame) -> SavedGame:
    return SavedGame(id=gid, path=Path(f"{gid}.journal"), state=FINISHED, games=list(games))


def won(number: int, winners: list[str], players: list[str], variant: str = "standard",
        bots: tuple[str, ...] = ()) -> PlayedGame:  # fmt: skip
    return PlayedGame(number, variant, players, list(bots), winners=winners)


def test_streaks_follow_the_order_games_were_played_not_listed() -> None:
    newer = journal("n000002-b", won(1, ["bob"], ["ann", "bob"]), won(2, ["ann"], ["ann", "bob"]))
    older = journal("n000001-a", won(2, ["ann"], ["ann", "bob"]), won(1, ["ann"], ["ann", "bob"]))
    assert [(p.number, p.winners) for p in finished_games([newer, older])] == [
        (1, ["ann"]), (2, ["ann"]), (1, ["bob"]), (2, ["ann"])
    ]  # fmt: skip
    ann, bob = scoreboard([newer, older])
    assert (ann.name, ann.games.played, ann.games.won, ann.streak, ann.longest) == (
        "ann", 4, 3, 1, 2
    )  # fmt: skip
    assert (bob.games.won, bob.streak, bob.longest) == (1, 0, 1)


def test_by_variant_and_player_count_team_wins_names_and_bots() -> None:
    four = ["Ann", "bob", "cat", "bot 1"]
    games = journal(
        "n000001-a",
        won(1, ["Ann", "cat"], four, "team", bots=("bot 1",)),
        won(2, ["ann"], ["ann", "bob", "bot 1"], bots=("bot 1",)),
        won(3, [], ["ann", "bob"]),  # not finished: not counted
        won(4, ["bot 1"], ["bob", "bot 1"], "points", bots=("bot 1",)),
    )
    people = {s.name: s for s in scoreboard([games]) if not s.bot}
    (bot,) = [s for s in scoreboard([games]) if s.bot]
    assert [s.bot for s in scoreboard([games])] == [False, False, False, True]
    ann = people["ann"]  # "Ann" and "ann" are one name, shown as last spelled
    assert (ann.games.played, ann.games.won, ann.streak) == (2, 2, 2)
    assert {v: (t.played, t.won) for v, t in ann.by_variant.items()} == {
        "team": (1, 1), "standard": (1, 1)
    }  # fmt: skip
    assert {n: (t.played, t.won) for n, t in ann.by_seats.items()} == {4: (1, 1), 3: (1, 1)}
    assert people["cat"].games.won == 1 and people["bob"].games.won == 0
    assert (bot.name, bot.games.played, bot.games.won, bot.streak) == ("bot 1", 3, 1, 1)
    assert bot.as_json()["by_players"] == {
        "2": {"played": 1, "won": 1}, "3": {"played": 1, "won": 0},
        "4": {"played": 1, "won": 0},
    }  # fmt: skip


def test_a_rematched_table_counts_both_games(tmp_path: Path) -> None:
    winners = rematched_table(tmp_path, "n000001-x")
    scores = scoreboard(saved_games(tmp_path)[0])
    ann, bot = scores
    assert not ann.bot and bot.bot and ann.name == "ann"
    assert (ann.games.played, ann.games.won) == (2, 1) == (bot.games.played, bot.games.won)
    assert (ann.streak, bot.streak) == (1, 0) and winners[1] == ["ann"]


def test_recent_form_counts_each_persons_latest_five_games_and_leaves_bots_out() -> None:
    older = journal("n000001-a", *(won(k, ["Ann"], ["Ann", "bob"]) for k in range(1, 5)))
    newer = journal(
        "n000002-b",
        won(1, ["bob"], ["ann", "bob"]),
        won(2, ["ann"], ["ann", "bob", "bot 1"], bots=("bot 1",)),
        won(3, ["bot 1"], ["ann", "bot 1"], bots=("bot 1",)),
        won(4, [], ["ann", "bob"]),  # not finished: not counted
    )
    form = recent_form([newer, older])
    # ann's latest five: won, won, lost, won, lost (and four older wins before them)
    assert form == {"ann": (3, 5), "bob": (1, 5)}
    assert recent_form([newer], last=2) == {"ann": (1, 2), "bob": (1, 2)}
    assert recent_form([]) == {}
