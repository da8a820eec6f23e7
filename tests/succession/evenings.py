"""What each laptop of an in-memory evening keeps: the journals of the tables it
hosted (``journals/``) and the records its client was sent and filed (``played/``,
``net/played``), in a data directory of its own.

:class:`Keeper` files a laptop's records as ``GameClient`` does and writes the
journals of the hosts it ran as ``net/journal`` does; ``sim.kept`` reads a data
directory back (:func:`seen`) and sets laptops side by side (:func:`differ`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pair import Pair
from sim.kept import Seen, differ, seen, write_journal

from sorry_lan.client.model import ClientModel
from sorry_lan.net.journal import SUFFIX
from sorry_lan.net.played import PlayedStore

__all__ = ["Keeper", "Seen", "differ", "journal_of", "seen"]


def journal_of(pair: Pair) -> list[dict[str, Any]]:
    """A host's journal: a successor's begins with its takeover record."""
    return [*pair.table.history[:1], *pair.journal]


@dataclass
class Keeper:
    """One laptop's data directory: the journals it hosted, the games its client filed."""

    root: Path
    hosted: list[Pair] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.store = PlayedStore(self.root / "played")

    def file(self, model: ClientModel) -> None:
        """File the whole games ``model`` was sent since the last call (``GameClient``)."""
        for got in model.take_records():
            self.store.save(got.record)

    def host(self, pair: Pair) -> None:
        self.hosted.append(pair)

    def write(self) -> None:
        for n, pair in enumerate(self.hosted, 1):
            name = f"n{n:06d}-20260921-141320-1{SUFFIX}"
            write_journal(self.root / "journals" / name, journal_of(pair))
