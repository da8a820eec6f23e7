"""``--seed``: documented, and every game of a seeded table (rematches too) reproducible."""

from __future__ import annotations

import pytest

from sorry_lan.authority.table import Table, TableConfig, game_seed
from sorry_lan.cli import main
from sorry_lan.rules import Phase


def test_rematch_seeds_derive_from_the_tables_seed() -> None:
    assert game_seed(None, 0) is None and game_seed(None, 3) is None
    assert game_seed(7, 0) == 7
    seeds = [game_seed(7, n) for n in range(1, 50)]
    assert len(set(seeds)) == 49 and 7 not in seeds
    assert all(s is not None and 0 <= s < 2**63 for s in seeds)
    assert seeds == [game_seed(7, n) for n in range(1, 50)]  # the same every time
    assert game_seed(8, 1) != game_seed(7, 1)


def _rematch_deck(seed: int | None) -> list[int]:
    table = Table(TableConfig(seed=seed))
    table.add_bot(None)
    table.add_bot(None)
    table.start(None, 0.0)
    while table.tick(0.0):
        pass
    assert table.game is not None and table.game.over
    table.phase = Phase.LOBBY
    table._new_game(0.0)  # what a rematch does
    assert table.game is not None
    return [int(c) for c in table.game.deck.pile]


def test_a_seeded_tables_rematch_deals_the_same_cards() -> None:
    assert _rematch_deck(11) == _rematch_deck(11)
    assert _rematch_deck(11) != _rematch_deck(12)


def test_seed_is_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["host", "--help"])
    out = capsys.readouterr().out
    assert "--seed" in out and "reproducible" in out
