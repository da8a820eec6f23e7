"""Records to replay in tests: the golden examples, and games played here by random
moves through the host's journal records (finished, or stopped part way: the records
tests' journal of random moves)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "records"))

from test_records import journal

from sorry_lan.records import from_journal
from sorry_lan.rules import Variant

GOLDEN = Path(__file__).resolve().parents[2] / "protocol" / "records"


def golden(name: str) -> dict[str, Any]:
    """A golden record (``standard-2``, ``team-4``, ``points-3``)."""
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data


def played(
    variant: Variant = Variant.STANDARD,
    seated: tuple[int, ...] = (0, 2),
    seed: int = 7,
    moves: int | None = None,
) -> dict[str, Any]:
    """The record of a game of random moves (stopped after ``moves`` if given)."""
    return from_journal(journal(variant, seated, seed, moves), ended=60.0)
