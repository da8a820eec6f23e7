"""The tmux game driver itself: a game with no split 7 taken goes on to a rematch.

:func:`tmux_games.play_captured` plays a rematch when a game ended before a split's
second parts were captured (a loaded machine can draw the list late, the driver then
plays another move and the game goes another way).  The host's ``r`` opens the next
game's lobby; the driver must start that game too, or it waits out its whole limit.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import tmux_games
from tmux_harness import private_tmux

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.mark.timeout(300)
def test_a_game_without_a_split_is_followed_by_a_rematch_played_out(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # No split first part is ever read, so every game ends without the split screen.
    monkeypatch.setattr(tmux_games, "split_entry", lambda screen: None)
    with private_tmux("host") as tmux:
        played = tmux_games.play_captured(tmux, "en", tmp_path / "data", games=2, limit=240)
    assert "split" not in played.screens
    assert {"lobby", "game", "help", "over"} <= set(played.screens)
    # (one seed-5 game is 52 of our turns when its split is taken; two games are more)
    assert played.turns > 60, played.turns
