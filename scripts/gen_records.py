#!/usr/bin/env python3
"""Regenerate (or, with --check, verify) the golden game records in ``protocol/records/``.

One record per variant: a real game from a fixed seed, the seats played by the greedy
bot (seeded), written down as the host's journal would hold it (the records
``sorry_lan.authority.journal_records`` builds) and exported by
``sorry_lan.records.from_journal``, with a bot seated, a player coming back and one
chat line, so every kind of turn entry appears; and one game that moved hosts
(``moved-standard-2.json``): its first host journalled 24 moves and was lost, a laptop
took it over with the game so far it was sent and played it to the end, and its record
is the whole game, stitched from the two (no seed, no deck; both hosts in ``hosts``).
``--check`` writes nothing and exits 1 when a committed file differs from what the code
produces.

Run from anywhere: ``python scripts/gen_records.py [--check]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sorry_lan.authority.journal_records import (  # noqa: E402
    back_record,
    chat_record,
    cover_record,
    game_record,
    move_record,
    seat_record,
    takeover_record,
)
from sorry_lan.bots.base import position_of  # noqa: E402
from sorry_lan.bots.registry import make_bot  # noqa: E402
from sorry_lan.records import dump, from_journal  # noqa: E402
from sorry_lan.rules import Game, Variant  # noqa: E402
from sorry_lan.rules.cards import card_counts  # noqa: E402
from sorry_lan.rules.midgame import Midgame, rebuild  # noqa: E402

OUT = ROOT / "protocol" / "records"
START = 1_790_000_000  # the games' start time (Unix seconds)
GAMES: dict[str, tuple[Variant, tuple[int, ...], int]] = {
    "standard-2.json": (Variant.STANDARD, (0, 2), 11),
    "team-4.json": (Variant.TEAM, (0, 1, 2, 3), 12),
    "points-3.json": (Variant.POINTS, (0, 1, 3), 13),
}
NAMES = {0: "Ann", 1: "Bob", 2: "Cai", 3: "Dee"}
TID = "k1tchen2"  # the table's id (its advert's)
MOVED = "moved-standard-2.json"


def journal(variant: Variant, seated: tuple[int, ...], seed: int) -> list[dict[str, Any]]:
    """The journal of one game: the greedy bot plays every seat (the last is a bot's
    at the table, the others people's); a chat line after the first move, the first
    seat's person comes back with a new token after ten moves, goes away for moves 20
    to 30 (a random bot covers the seat) and takes it back; the game's
    last move says when it ended, half an hour after its start."""
    game = Game(variant, seated, seed=seed)
    names = {c: NAMES[c] for c in seated}
    last = seated[-1]
    names[last] = "greedy bot 1"
    tokens = {c: f"token-{c}" for c in seated if c != last}
    records = [
        game_record(game, names, [last], tokens, t=START, owner=seated[0],
                    table="Kitchen table", host=NAMES[seated[0]], levels={last: "greedy"},
                    tid=TID, epoch=1)
    ]  # fmt: skip
    game.start()
    bots = {c: make_bot("greedy", seed + c) for c in seated}
    while not game.over:
        move = bots[game.turn].choose(position_of(game), game.legal_moves())
        sid = game.state_id
        game.play(move)
        records.append(move_record(sid, move.compact(), START + 1800 if game.over else None))
        if game.moves_played == 20:
            records.append(cover_record(seated[0], "random"))
        if game.moves_played == 30:
            records.append(back_record(seated[0], names[seated[0]]))
        if game.moves_played == 1:
            records.append(chat_record(seated[0], "good luck!"))
        if game.moves_played == 10:
            records.append(seat_record(seated[0], names[seated[0]], "token-again"))
    return records


def moved() -> dict[str, Any]:
    """The record of a standard game for Ann and Cai that moved hosts: Ann's laptop
    hosted 24 moves and was lost; Cai's took the table over at epoch 2 with the game
    so far its client had built (RECORD.md: as the old host's record), shuffled the
    unseen cards from a seed of its own and hosted the game to its end."""
    seated = (0, 2)
    game = Game(Variant.STANDARD, seated, seed=21)
    names = {c: NAMES[c] for c in seated}
    tokens = {c: f"token-{c}" for c in seated}
    old = [game_record(game, names, [], tokens, t=START, owner=0, table="Kitchen table",
                       host="Ann", tid=TID, epoch=1)]  # fmt: skip
    game.start()
    bots = {c: make_bot("greedy", 21 + c) for c in seated}
    while game.moves_played < 24:
        move = bots[game.turn].choose(position_of(game), game.legal_moves())
        old.append(move_record(game.state_id, move.compact()))
        game.play(move)
    so_far = from_journal(old)
    position = Midgame(
        game.variant, game.seated, game.pawns, game.turn, game.state_id, card=game.card,
        after_two=game.after_two, discarded=card_counts(game.deck.discards),
    )  # fmt: skip
    new = [takeover_record(
        position, 22, tid=TID, from_epoch=1, epoch=2, names=names, bots=[], tokens=tokens,
        pids={0: 0, 2: 1}, t=START + 600, owner=None, table="Kitchen table", host="Cai",
        so_far=so_far | {"hosts": [{"epoch": 1, "host": "Ann"}]}, seat=1,
    )]  # fmt: skip
    heir = rebuild(position, 22)
    while not heir.over:
        move = bots[heir.turn].choose(position_of(heir), heir.legal_moves())
        sid = heir.state_id
        heir.play(move)
        new.append(move_record(sid, move.compact(), START + 1500 if heir.over else None))
    return from_journal(new)


def expected() -> dict[Path, bytes]:
    """Each golden file's bytes as the code writes them now."""
    out = {}
    for name, (variant, seated, seed) in GAMES.items():
        records = journal(variant, seated, seed)
        record = from_journal(records, chat=True)
        out[OUT / name] = dump(record)
    out[OUT / MOVED] = dump(moved())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify, do not write")
    args = parser.parse_args(argv)
    stale = []
    for path, data in expected().items():
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(path)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    for path in stale:
        print(f"{path.relative_to(ROOT)} is stale: run python scripts/gen_records.py",
              file=sys.stderr)  # fmt: skip
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
