"""A snapshot of a game already under way (a resumed table, a rejoin) is not logged as
"the game begins"."""

from __future__ import annotations

from sorry_lan.authority.seat_messages import snapshot
from sorry_lan.client.model import ClientModel
from sorry_lan.rules import START, Game, Variant
from sorry_lan.tui.feed import apply_event
from sorry_lan.tui.state import UiState


def _log_after(game: Game) -> list[str]:
    st = UiState()
    apply_event(st, ClientModel("ann"), snapshot(game, 0))
    return list(st.log)


def test_a_new_game_begins_and_a_game_under_way_is_rejoined() -> None:
    game = Game(Variant.STANDARD, (0, 2), seed=5)
    game.start()
    assert _log_after(game)[0] == "the game begins"  # then who drew what
    while all(p == START for p in game.pawns):
        game.play(game.legal_moves()[0])
    assert _log_after(game)[0] == "back at the game in progress"


def test_a_new_game_of_play_for_points_begins_though_a_pawn_of_each_is_out() -> None:
    game = Game(Variant.POINTS, (0, 2), seed=5)
    game.start()
    assert any(p != START for p in game.pawns)  # each fourth pawn starts on its exit
    assert _log_after(game)[0] == "the game begins"
    opening = game.pawns
    while game.pawns == opening:
        game.play(game.legal_moves()[0])
    assert _log_after(game)[0] == "back at the game in progress"
