"""RECORD.md is enough to read a record: a stranger's deal, written here from its
"Dealing from the seed" section alone (a Mersenne Twister from its published
algorithm, not Python's ``random``), gives each golden record's first player, its
whole ``deck``, its reshuffle counts and, in play for points, hands that hold every
card played; and every field, turn type and strength the checker knows is in it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from sorry_lan.bots.strengths import STRENGTHS
from sorry_lan.records import load
from sorry_lan.records.fields import HEADER, TURNS

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "protocol" / "RECORD.md").read_text()
#: The golden records dealt from a seed (a game that moved hosts has none).
GOLDEN = sorted(p for p in (ROOT / "protocol" / "records").glob("*.json")
                if load(p.read_bytes())["seed"] is not None)
COLOURS = ("red", "blue", "yellow", "green")
MASK = 0xFFFFFFFF


class Twister:
    """MT19937 (Matsumoto and Nishimura, 1998), seeded by ``init_by_array``."""

    def __init__(self, key: list[int]) -> None:
        mt = [0] * 624
        mt[0] = 19650218
        for i in range(1, 624):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK
        i, j = 1, 0
        for _ in range(max(624, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & MASK
            i, j = i + 1, j + 1
            if i >= 624:
                mt[0], i = mt[623], 1
            if j >= len(key):
                j = 0
        for _ in range(623):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & MASK
            i += 1
            if i >= 624:
                mt[0], i = mt[623], 1
        mt[0] = 0x80000000
        self.mt, self.index = mt, 624

    def next32(self) -> int:
        if self.index >= 624:
            mt = self.mt
            for k in range(624):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7FFFFFFF)
                mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def bits(self, k: int) -> int:
        return self.next32() >> (32 - k)

    def below(self, n: int) -> int:
        k = n.bit_length()
        r = self.bits(k)
        while r >= n:
            r = self.bits(k)
        return r

    def shuffle(self, cards: list[str]) -> None:
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]


def words(seed: int) -> list[int]:
    out = []
    while seed:
        out.append(seed & MASK)
        seed >>= 32
    return out or [0]


UNSHUFFLED = ["1"] * 5 + [c for c in ("2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry")
                          for _ in range(4)]  # fmt: skip


def stranger_replays(record: dict[str, Any]) -> None:
    """The deal as RECORD.md tells it, followed along ``record``'s turns."""
    rng = Twister(words(record["seed"]))
    pile = list(UNSHUFFLED)
    rng.shuffle(pile)
    seated = [s["colour"] for s in record["seats"]]
    drawn_first = seated[rng.below(len(seated))]
    first = record["options"]["first"] or drawn_first
    assert record["first"] == first
    drawn: list[str] = []
    discards: list[str] = []
    reshuffles: list[int] = []

    def draw() -> str:
        nonlocal pile, discards
        if not pile:
            pile, discards = discards, []
            rng.shuffle(pile)
            reshuffles.append(len(pile))
        drawn.append(pile.pop())
        return drawn[-1]

    moves = [t for t in record["turns"] if t["type"] in ("move", "lost")]
    if record["variant"] == "points":
        order = seated[seated.index(first):] + seated[: seated.index(first)]
        hands: dict[str, list[str]] = {c: [] for c in seated}
        for _ in range(5):
            for colour in order:
                hands[colour].append(draw())
        for i, move in enumerate(moves):
            hands[move["who"]].remove(move["card"])  # the card played was in the hand
            discards.append(move["card"])
            if i < len(moves) - 1:
                hands[move["who"]].append(draw())
    else:
        for move in moves:
            assert draw() == move["card"]
            discards.append(move["card"])
    assert drawn == record["deck"]
    assert reshuffles == [t["cards"] for t in record["turns"] if t["type"] == "reshuffle"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_a_stranger_deals_each_golden_record_from_the_document(path: Path) -> None:
    stranger_replays(load(path.read_bytes()))


def test_a_stranger_tells_a_false_first_player() -> None:
    record = load((ROOT / "protocol" / "records" / "team-4.json").read_bytes())
    record["first"] = "red" if record["first"] != "red" else "blue"
    with pytest.raises(AssertionError):
        stranger_replays(record)


def test_every_field_turn_type_and_strength_is_documented() -> None:
    named = set(re.findall(r"`([a-z_]+)`", DOC)) | set(re.findall(r'"([a-z]+)"', DOC))
    parts = ("pawn", "from", "to", "end", "bumps", "target")
    results = ("winner", "winners", "points")
    missing = [
        word for word in (*HEADER, *TURNS, *(f for _v, fs in TURNS.values() for f in fs),
                          *parts, *results, *STRENGTHS)
        if word not in named
    ]  # fmt: skip
    assert missing == []
