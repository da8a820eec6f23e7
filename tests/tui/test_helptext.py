"""The help's sections follow the screen and the variant."""

from __future__ import annotations

from sorry_lan.rules.variants import Variant
from sorry_lan.tui.helptext import help_text
from sorry_lan.tui.state import Screen, UiState


def test_each_screen_has_its_own_keys_and_the_variant_its_rules() -> None:
    find = help_text(UiState())
    assert "Find a game" in find and "Rules in short" not in find
    lobby = help_text(UiState(screen=Screen.LOBBY))
    assert "space" in lobby and "add a bot" not in lobby and "Rules in short" in lobby
    assert "add a bot" in help_text(UiState(screen=Screen.LOBBY, is_host=True))
    game = help_text(UiState(screen=Screen.GAME, variant=Variant.TEAM))
    assert "j/k" in game and "Red plays with Yellow" in game and "Play for points" not in game
    over = help_text(UiState(screen=Screen.OVER, variant=Variant.POINTS))
    assert "say you want another game (the host opens its lobby)" in over
    assert "Play for points" in over
    # The r of the game over, by who presses it (README, "Another game").
    hosting = help_text(UiState(screen=Screen.OVER, is_host=True))
    assert "open the next game's lobby, with the same seats" in hosting
    assert "say you want another game" not in hosting
    headless = help_text(UiState(screen=Screen.OVER, auto_start=True))
    assert "say you want another game (it begins once every" in headless
    watching = help_text(UiState(screen=Screen.GAME, spectating=True))
    assert "You have no seat" in watching and "j/k" not in watching


def test_the_host_s_variant_key_lists_every_variant_of_the_registry() -> None:
    from sorry_lan.i18n.words import variant_title
    from sorry_lan.rules.variants import VARIANTS

    lobby = help_text(UiState(screen=Screen.LOBBY, is_host=True), cols=200)
    line = next(line for line in lobby.splitlines() if "change the rules:" in line)
    assert line.endswith("change the rules: " + ", ".join(map(variant_title, VARIANTS)))
