"""Whole games over real TCP on 127.0.0.1: every variant, 2 to 4 players, bot clients."""

from __future__ import annotations

import pytest
from netkit import bots_play, start_host

from sorry_lan.bots import STRENGTHS, master, play_out
from sorry_lan.rules import Game, Variant
from sorry_lan.rules.cards import card_counts

CASES = [
    (Variant.STANDARD, 2),
    (Variant.STANDARD, 3),
    (Variant.STANDARD, 4),
    (Variant.POINTS, 2),
    (Variant.POINTS, 3),
    (Variant.POINTS, 4),
    (Variant.TEAM, 4),
]


@pytest.mark.asyncio
@pytest.mark.parametrize(("variant", "players"), CASES)
async def test_full_game_between_bot_clients(variant: Variant, players: int) -> None:
    seed = 100 + players
    server = await start_host(variant, seats=players, seed=seed)
    try:
        clients, results, stats = await bots_play(server, [f"p{i}" for i in range(players)])
        game = server.table.game
        assert game is not None and game.over
        expected = _fresh(variant, game.seated, seed)
        assert game.winner == expected.winner
        assert game.pawns == expected.pawns
        for c, r, s in zip(clients, results, stats, strict=True):
            assert r is not None
            assert list(r.winners) == list(game.winners)
            assert c.model.pawns == game.pawns  # the board each client kept from events
            assert c.model.discarded == card_counts(game.deck.discards)  # and the discard pile
            assert s.refused == []
            assert s.round_trips
        for c in clients:
            await c.close()
    finally:
        await server.close()


def _fresh(variant: Variant, seated: tuple[int, ...], seed: int) -> Game:
    game = Game(variant, seated, seed=seed)
    game.start()
    return play_out(game)


@pytest.mark.asyncio
@pytest.mark.parametrize("strength", STRENGTHS)
async def test_host_bots_and_a_client_finish_with_the_same_result_as_offline(
    strength: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(master, "WORK", 500)  # the master's whole games, in seconds
    # A budget far beyond the work limit, so a busy machine cannot cut a search short.
    server = await start_host(Variant.STANDARD, seats=3, bots=2, seed=7, bot_level=strength,
                              bot_budget=60.0)
    try:
        clients, results, _ = await bots_play(server, ["solo"], strength, budget=60.0)
        game = server.table.game
        assert game is not None and game.over
        offline = Game(Variant.STANDARD, game.seated, seed=7)
        offline.start()
        play_out(offline, strength, budget=60.0)
        # Every move the same: the host's bots, the networked bot and the offline ones.
        assert (game.winner, game.pawns, game.moves_played) == (
            offline.winner, offline.pawns, offline.moves_played)
        assert results[0] is not None
        await clients[0].close()
    finally:
        await server.close()
