"""Watching the LAN for one table's adverts (issue 19: a client whose host is lost).

A client that lost its host looks for its table by id: the laptop that took it over
advertises the same table id (TXT ``tid``) at a higher epoch (TXT ``ep``), on whatever
addresses it has now.  :class:`TableWatch` runs a
:class:`~sorry_lan.discovery.browser.GameBrowser` on a zeroconf instance the caller
owns and tells ``on_found`` of every live, joinable advert of that table id, each time
it shows up or changes (a game under way or full too: the client holds a seat there),
as a :class:`Sighting`: its epoch, its addresses (the one that
answered the liveness probe first) and its port.

It does not judge the epoch (the client's election decides whether an advert is newer
than the host it knows, and whether to follow it), connect to the table, or create or
close the zeroconf instance.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from zeroconf.asyncio import AsyncZeroconf

from sorry_lan.discovery.advert import FoundGame, Unjoinable
from sorry_lan.discovery.browser import (
    DEFAULT_PROBE_TIMEOUT,
    ChangeKind,
    GameBrowser,
    GameEvent,
    Prober,
    tcp_probe,
)


@dataclass(frozen=True, slots=True)
class Sighting:
    """An advert of the watched table: its host's ``epoch``, ``addresses`` (the one
    that answered first) and ``port``."""

    epoch: int
    addresses: tuple[str, ...]
    port: int


#: What an advert may say of a table a client already sits at and still follows: a
#: new player could not join it (full, playing, finished), but its seats' holders can.
FOLLOWABLE = frozenset({None, Unjoinable.FULL, Unjoinable.PLAYING, Unjoinable.FINISHED})


def sighting(game: FoundGame, tid: str) -> Sighting | None:
    """What a live advert says of table ``tid`` (None: another table, one that does not
    answer, or one whose protocol this client does not speak or cannot read)."""
    if game.table_id != tid or game.reason not in FOLLOWABLE or game.address is None:
        return None
    rest = tuple(a for a in game.addresses if a != game.address)
    return Sighting(game.epoch, (game.address, *rest), game.port)


class TableWatch:
    """Tells ``on_found`` of each live advert of table ``tid`` seen on ``zc``, from
    :meth:`start` until :meth:`close`.
    ``on_found`` is called in the event loop and must not block."""

    def __init__(
        self,
        zc: AsyncZeroconf,
        tid: str,
        on_found: Callable[[Sighting], None],
        *,
        prober: Prober = tcp_probe,
        probe_timeout: float = DEFAULT_PROBE_TIMEOUT,
        reverify_interval: float | None = 2.0,
    ) -> None:
        self.tid = tid
        self._on_found = on_found
        self.seen: list[Sighting] = []  # every sighting told, in order
        self._browser = GameBrowser(
            zc, on_change=self._changed, prober=prober, probe_timeout=probe_timeout,
            reverify_interval=reverify_interval,
        )

    def _changed(self, event: GameEvent) -> None:
        if event.kind is ChangeKind.REMOVED:
            return
        found = sighting(event.game, self.tid)
        if found is not None:
            self.seen.append(found)
            self._on_found(found)

    async def start(self) -> None:
        await self._browser.async_start()

    async def close(self) -> None:
        """Stop browsing (the zeroconf instance stays open: it is the caller's)."""
        await self._browser.async_close()
