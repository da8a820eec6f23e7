"""Whether the decision on the board follows a 2 is one answer on a laptop (issue 30):
the fold's (``client.so_far``), the same in the published view and in the board a
successor would take over, at every state of a game on a real host core in memory
(``tests/authority/pair.py``), and for a process that comes back mid-game after a 2,
which learns it from the host's record of the game so far."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
from pair import Pair

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.client.model import ClientModel


def _arrive(pair: Pair, model: ClientModel) -> int:
    model.join(pair.now)
    cid, _ = pair.connect(model)
    pair.pump()
    assert model.connected
    return cid


def _agree(model: ClientModel, truth: bool) -> None:
    shown = model.table.shown()
    assert shown is not None
    assert model.view.after_two is truth and shown.after_two is truth
    assert model.seen.after_two is truth


def test_after_a_two_every_reader_and_a_process_back_mid_game_agree_with_the_host() -> None:
    table = Table(TableConfig(seats=2, auto_start=True, seed=3))
    pair = Pair(table)
    models = [ClientModel(n) for n in ("ann", "bob")]
    cids = [_arrive(pair, model) for model in models]
    game = pair.table.game
    assert game is not None
    pick = random.Random(3)
    backs = 0
    for _ in range(5_000):
        if game.over or backs >= 3:
            break
        for model in models:
            _agree(model, game.after_two)
        if game.after_two:  # ann's process dies; a new one comes back with her token
            pair.lose(cids[0])
            back = ClientModel("ann", token=models[0].token)
            cids[0] = _arrive(pair, back)
            models[0] = back
            assert back.book.so_far is not None  # (the host's record of the game so far)
            _agree(back, True)
            backs += 1
        movers = [x for x in models if x.moves is not None]
        for x in movers:
            offer = x.moves
            assert offer is not None
            x.play(pick.choice(offer.moves).id)
        pair.pump()
    assert backs == 3
