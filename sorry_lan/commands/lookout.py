"""How a ``join`` client (player or spectator) finds its table again when the host is
lost (issue 19): the wiring of :mod:`sorry_lan.net.heir` and the LAN's adverts.

:func:`client_heir` gives a player's client the heir :func:`~sorry_lan.commands.successor.make_heir`
makes (a laptop that may host), and a spectator's one that only follows: a spectator
never votes or hosts, but walks the same succession order, waits at the candidate's
standby and follows the new host.  :class:`MdnsFinder` is the client's
:class:`~sorry_lan.net.client.TableFinder`: while the host is lost it opens a zeroconf
instance (on the ``--interface`` addresses if given) and watches for adverts of the
table's id (:class:`~sorry_lan.discovery.tablewatch.TableWatch`), so a successor whose
addresses are not those the old host listed is found too; where multicast is blocked
it finds nothing and the listed addresses do the work.  :class:`AdvertWatch` runs
such a finder for a host while its game waits, cut off from most of its laptops
(SPEC 13: it steps down on an advert of its table at a newer epoch, which shows a
successor at addresses it may never have been told).

It decides nothing about who hosts (the client's election does) and prints nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from sorry_lan.commands.successor import make_heir
from sorry_lan.net.heir import AskAloneQuestion, Heir

if TYPE_CHECKING:
    from zeroconf.asyncio import AsyncZeroconf

    from sorry_lan.discovery.tablewatch import Sighting, TableWatch
    from sorry_lan.net.client import Sighted

log = logging.getLogger(__name__)


def client_heir(
    args: argparse.Namespace, spectate: bool, ask_alone: AskAloneQuestion | None = None,
    on_phones: Callable[[str], None] | None = None,
) -> Heir:
    """The heir of a ``join`` client: a laptop's (it may host; ``ask_alone`` asks its
    person whether to play on alone when nobody else answers; ``on_phones`` is told
    the phones' page's address once it hosts) or, for a spectator, one that only
    follows the table (no standby, no successor, no question)."""
    if not spectate:
        return make_heir(args, ask_alone, on_phones)
    return Heir(lambda: ())


class MdnsFinder:
    """Watches the LAN for the table's adverts while the host is lost (see the module
    docstring); ``interfaces`` and ``ipv6`` as ``--interface`` and ``--ipv6`` say."""

    def __init__(self, interfaces: list[str] | None = None, ipv6: bool = False) -> None:
        self.interfaces = interfaces
        self.ipv6 = ipv6
        self._zc: AsyncZeroconf | None = None
        self._watch: TableWatch | None = None

    @classmethod
    def of(cls, args: argparse.Namespace) -> MdnsFinder:
        return cls(getattr(args, "interface", None), bool(getattr(args, "ipv6", False)))

    async def start(self, tid: str, sighted: Sighted) -> None:
        """Watch for table ``tid``; each live advert is told to ``sighted``.  Raises
        :class:`~sorry_lan.discovery.DiscoveryError` when mDNS cannot be opened here."""
        from sorry_lan.discovery import make_zeroconf
        from sorry_lan.discovery.tablewatch import TableWatch

        await self.stop()

        def found(seen: Sighting) -> None:
            log.info("the table is advertised at epoch %d on %s port %d",
                     seen.epoch, ", ".join(seen.addresses), seen.port)
            sighted(seen.epoch, seen.addresses, seen.port)

        self._zc = make_zeroconf(self.interfaces, self.ipv6)
        self._watch = TableWatch(self._zc, tid, found)
        try:
            await self._watch.start()
        except BaseException:
            await self.stop()
            raise

    async def stop(self) -> None:
        """Stop watching and close the zeroconf instance (safe when not started)."""
        watch, zc, self._watch, self._zc = self._watch, self._zc, None, None
        if watch is not None:
            await watch.close()
        if zc is not None:
            await zc.async_close()


class Finder(Protocol):
    """What :class:`AdvertWatch` needs of a finder (an :class:`MdnsFinder`)."""

    async def start(self, tid: str, sighted: Sighted) -> None: ...

    async def stop(self) -> None: ...


class AdvertWatch:
    """A hosted table's adverts, watched with ``finder`` while its host is cut off:
    :meth:`cut_off` is the server's ``on_cut_off``, each advert of table ``tid`` goes
    to ``sighted`` (the server's ``advert``).  Where mDNS cannot be opened it watches
    nothing (the probes of the laptops' offered addresses still do their part)."""

    def __init__(self, finder: Finder, tid: str, sighted: Sighted) -> None:
        self.finder = finder
        self.tid = tid
        self.sighted = sighted
        self.watching = False
        self._want = False
        self._broken = False
        self._task: asyncio.Task[None] | None = None

    def cut_off(self, cut: bool) -> None:
        """The host is cut off (True) or no longer (False): start or stop watching."""
        self._want = cut
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._follow())

    async def _follow(self) -> None:
        from sorry_lan.discovery import DiscoveryError

        while self.watching != self._want and not self._broken:
            if self._want:
                try:
                    await self.finder.start(self.tid, self.sighted)
                except DiscoveryError as exc:
                    log.info("the table's adverts cannot be watched: %s", exc)
                    self._broken = True
                    return
                self.watching = True
            else:
                await self.finder.stop()
                self.watching = False

    async def close(self) -> None:
        """Stop watching (safe to call twice)."""
        self._want = False
        self._broken = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.finder.stop()
        self.watching = False
