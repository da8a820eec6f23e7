"""The engine's results are pinned: the digests of ``golden_games`` as they were
before the engine was sped up (issue 24), for simulate's random and greedy games in
every variant, ``Game``'s games and views, playouts, move generation and the bots'
choices.  A digest that changes means the engine (or a bot) now plays some game
differently; if that is intended, say why in the commit and regenerate them with
``python scripts/engine_golden.py``.  The expert's digests are printed by that
script (``--expert``), not pinned here: they take minutes."""

from __future__ import annotations

import pytest
from golden_games import digest_makers

PINNED = {
    "simulate:standard:2:random": "19a33a930c1ca2d01bf0fed3dbf7935b",
    "simulate:standard:2:greedy": "038787f2bfae12f32e42112e217d09ff",
    "simulate:standard:3:random": "8548c9ce8b875a503911db39b7a31c6f",
    "simulate:standard:3:greedy": "b35bbf73ed199ac8f6cfed23718be2b5",
    "simulate:standard:4:random": "151bb60426498a8c38d586b6e2159fcc",
    "simulate:standard:4:greedy": "3c763e63e17f325e515f3021659c9f5e",
    "simulate:team:4:random": "ec227ca2a0b9214d64742d493375f311",
    "simulate:team:4:greedy": "60d05b5d49d702b51fc0a92e0509373c",
    "simulate:points:2:random": "f3d91158e3647cc482883d9cd20981e7",
    "simulate:points:2:greedy": "45a2a996ce48920582f615ce51477198",
    "simulate:points:4:random": "7d91f8886f1dc51cc335c37f66e1fea6",
    "simulate:points:4:greedy": "860182a8a4a6c1c111f4d79081214668",
    "game:standard:02": "9ee52d6b7cbf298cf1bb13a07a66dd9f",
    "playout:standard:02": "126a92bb76ae9367ecd93ac3b47e77ad",
    "game:standard:0123": "fb5712c021a0d459aeac693a5e0e25d6",
    "playout:standard:0123": "87cd9dbe0b5c7209ef26085d1b30793e",
    "game:team:0123": "c3684417804b88946edb40ea4545c552",
    "playout:team:0123": "533722b35cbfa1e8e996acd635979b4b",
    "game:points:13": "80600678399770ff60c1f80c111bb1b5",
    "game:points:012": "955642b01a05bfe4515aacc12f2408fe",
    "movegen": "6b6104dd57f09977cb4299806da7ca62",
    "choose:random": "78e889c02e14b7b3287084b6e74adae5",
    "choose:greedy": "57735d24beffa055e8ffc2061a2a3362",
}


# (no module-wide fixture or xdist group: each test computes its own digest, so the
# digests, 25 s of CPU together, spread over the workers instead of holding one)
MAKERS = digest_makers()


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_engine_plays_every_pinned_game_as_before(name: str) -> None:
    assert MAKERS[name]() == PINNED[name]


def test_every_digest_is_pinned() -> None:
    assert sorted(MAKERS) == sorted(PINNED)
