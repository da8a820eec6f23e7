"""``join --text`` (and the board's join) with several tables found, on a terminal:
the games are numbered and the person types one, rather than retyping an address
and port heard once (issue 33).  A game that can only be watched is chosen to watch."""

from __future__ import annotations

import pytest

from sorry_lan.commands.join import choose_game
from sorry_lan.discovery import FoundGame, GameAd, Unjoinable


def advert(name: str, reason: Unjoinable | None = None) -> FoundGame:
    return FoundGame(
        service_name=f"{name}._sorry-lan._tcp.local.", instance=name, name=name,
        ad=GameAd(name, "Bob", seats_total=4, seats_taken=2), addresses=("10.0.0.5",),
        port=47474, reason=reason, address="10.0.0.5",
    )  # fmt: skip


def test_a_number_chooses_its_game_and_a_wrong_one_asks_again(
    capsys: pytest.CaptureFixture[str],
) -> None:
    games = [advert("Kitchen"), advert("Attic", Unjoinable.PLAYING)]
    answers = iter(["3\n", "two\n", "2\n"])
    picked = choose_game(games, lambda: next(answers))
    assert picked is games[1] and not picked.joinable  # (chosen to watch)
    said = capsys.readouterr().out
    assert said.count("Type the number of the game to join") == 3
    assert said.count("no game has that number: type one from 1 to 2") == 2


def test_nothing_typed_or_the_end_of_input_gives_up() -> None:
    games = [advert("Kitchen"), advert("Attic")]
    assert choose_game(games, lambda: "\n") is None
    assert choose_game(games, lambda: "") is None
