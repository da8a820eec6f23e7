"""A laptop's part in its table's succession (issue 19): stand by, vote, follow, or host.

A :class:`Heir` belongs to the :class:`~sorry_lan.net.client.GameClient` of a player
whose laptop may host the table (a ``join`` player or a remote ``sorry-lan bot``).  It
runs the laptop's standby listener (:mod:`sorry_lan.net.standby`) from the start (the
client's model offers its port and this machine's addresses to the host), and carries
out what the table's election (``ClientModel.election``, sans I/O) decides:

- while the host is there: nothing (a ``CloseStandby`` after a false alarm);
- when the link to the host is lost (:meth:`Heir.recover`): keep reconnecting to the
  old host; try a candidate laptop's standby with the seat token (that hello is the
  vote; a ``busy`` answer is tried again every second) and follow the new host the
  model accepts; count votes on its own standby (``OpenStandby``) and, once they are
  enough (``TakeOver``), give the listening socket and the connections the standby
  held to a new host started by the ``successor`` callback from what the client
  knows (``ClientModel.knowledge()``), and join it on loopback with the seat's token;
  never stand while the board of a game in progress is not known here;
- nobody reachable for the grace (``AskAlone``): ask the person at the laptop through
  the ``ask_alone`` callback while the walk goes on; a yes goes to the election, and
  a game it then takes over alone gets a new table id (a game of its own, never the
  table's).  ``join`` asks its person (``tui.alone``); with no callback (``sorry-lan
  bot``, a spectator) it never asks.

It decides nothing (the election does, and the model checks each new host), does not
build the new host's table, journal or advert (the ``successor`` the commands give
does, with ``authority.takeover``), does not find the laptop's addresses (the
``addresses`` callback, from the discovery layer, does) and draws nothing (the model's
``TableNews`` and the client's link news say what happened).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.takeover import build_table, config_of, pin_verifier
from sorry_lan.codes import LinkNews
from sorry_lan.succession.election import (
    AskAlone,
    CloseStandby,
    Decision,
    Election,
    Follow,
    GiveUp,
    KeepTrying,
    OpenStandby,
    Phase,
    RefuseHost,
    TakeOver,
    TryCandidate,
)
from sorry_lan.succession.standby import Standby

from .hosted import Advert, HostedTable
from .journal import Journal
from .saved import new_journal_path
from .standby import StandbyListener

if TYPE_CHECKING:
    from sorry_lan.authority.table import Table
    from sorry_lan.succession.knowledge import Knowledge

    from .client import GameClient
    from .host import HostServer

__all__ = ["MAX_ADDRS", "Heir", "HeirOptions", "ListeningSocket", "Successor", "start_table"]

log = logging.getLogger(__name__)

#: Starts the new host: from what this laptop knows, at an epoch, on the standby's
#: listening socket; returns the hosted table, open and serving.
Successor = Callable[["Knowledge", int, socket.socket], Awaitable[HostedTable]]
#: Asks the person at this laptop whether to play on here alone, at an epoch (nobody
#: else could be reached since the host was lost, for the grace): their answer.
AskAloneQuestion = Callable[[int], Awaitable[bool]]

MAX_ADDRS = 8  # addresses an offer carries at most
MIN_PAUSE = 0.02  # seconds: the shortest wait between two looks at the election
IDLE = 1.0  # seconds to wait when the election names no time (only inputs will do)
#: The phases in which the old host is still tried (it may be back: then this laptop
#: neither votes nor hosts).
_TRY_HOST = (Phase.LOST, Phase.WALKING, Phase.STANDBY)

#: The standby's listening socket, as a successor is given it.
ListeningSocket = socket.socket


@dataclass(frozen=True)
class HeirOptions:
    """Where the standby listens, and how long one try may take (seconds)."""

    port: int = 0  # 0: the system picks a free port
    bind: str = "0.0.0.0"
    also: tuple[str, ...] = ("::",)
    attempt_timeout: float = 2.0  # one connect and welcome, at a candidate or the host
    host_retry_max: float = 2.0  # the old host is tried again at least this often


class Heir:
    """See the module docstring.  ``addresses`` gives this laptop's LAN addresses for
    the offer; ``successor`` starts a new host (None: this laptop only votes and
    follows, it never hosts); ``ask_alone`` asks the person at this laptop whether to
    play on alone when nobody else can be reached (None: a bot or headless laptop,
    which never takes the table over without a majority)."""

    def __init__(
        self,
        addresses: Callable[[], Sequence[str]],
        successor: Successor | None = None,
        options: HeirOptions | None = None,
        ask_alone: AskAloneQuestion | None = None,
    ) -> None:
        self.addresses = addresses
        self.successor = successor
        self.ask_alone = ask_alone
        self._asking: asyncio.Future[bool] | None = None  # the person's answer, to come
        self.options = options or HeirOptions()
        self.listener = StandbyListener(
            bind=self.options.bind, port=self.options.port, also=self.options.also,
            on_vote=self._poke, on_host=self._poke,
        )
        self.attempt_timeout = self.options.attempt_timeout
        self.hosted: HostedTable | None = None  # the table this laptop took over
        self.took_over = 0  # takeovers made by this laptop (tests, reports)
        self._standby: Standby | None = None
        self._poked = asyncio.Event()
        self._hints: list[tuple[int, tuple[str, ...], int]] = []  # adverts not yet told

    # -- while the host is there ------------------------------------------------------

    async def start(self) -> tuple[int, tuple[str, ...]]:
        """Start the standby listener: its port and the addresses to offer."""
        if not self.listener.listening and not self.hosting:
            await self.listener.start()
        addrs = tuple(dict.fromkeys(self.addresses()))[:MAX_ADDRS]
        return self.listener.port, addrs

    @property
    def hosting(self) -> bool:
        """Whether this laptop hosts the table now."""
        return self.hosted is not None

    def carry_out_now(self, decisions: Sequence[Decision]) -> bool:
        """Carry out what may be done while connected (the standby closes); True when a
        decision needs :meth:`recover` (the host handed the table over)."""
        needs = False
        for decision in decisions:
            if isinstance(decision, CloseStandby):
                self._close_standby()
            elif isinstance(decision, TakeOver | TryCandidate):
                needs = True
        return needs

    def hint(self, epoch: int, addrs: Sequence[str], port: int) -> None:
        """The discovery layer found this table advertised at ``epoch`` on ``addrs`` and
        ``port`` (an mDNS browse by table id): the election is told of it while the
        host is lost (at once while it is): a newer epoch is tried first."""
        self._hints = [*self._hints[-(MAX_ADDRS - 1):], (epoch, tuple(addrs), port)]
        self._poke()

    def _adverts(self, election: Election) -> list[Decision]:
        hints, self._hints = self._hints, []
        now = time.monotonic()
        return [d for epoch, addrs, port in hints for d in election.advert(epoch, addrs, port, now)]

    # -- the host lost ------------------------------------------------------------------

    async def recover(
        self, client: GameClient, pending: Sequence[Decision] = (), unreachable: bool = False
    ) -> bool:
        """The link to the host failed (or the host handed the table over, with the
        ``pending`` decisions that says): carry the election out until the client is
        connected again (to the old host, a new one, or this laptop's own: True) or the
        election gives up (False)."""
        election = client.model.election
        assert election is not None
        election.may_ask = self.ask_alone is not None and self.successor is not None
        # (a laptop that cannot host never stands: it votes for the next one at once)
        election.can_host = self.successor is not None and not client.model.board_missing
        try:
            return await self._recover(client, election, pending, unreachable)
        finally:
            self._stop_asking()

    async def _recover(
        self, client: GameClient, election: Election, pending: Sequence[Decision],
        unreachable: bool,
    ) -> bool:
        decisions = [*pending, *election.host_lost(time.monotonic(), unreachable),
                     *self._adverts(election)]
        backoff = 0.05
        host_at = time.monotonic()  # when the old host is tried next
        while True:
            for decision in decisions:
                done = await self._carry_out(decision, client, election)
                if done is not None:
                    return done
            decisions = []
            attempt = election.waiting_for
            if attempt is not None:
                decisions = await client.try_candidate(attempt)  # Follow: connected
                log.debug("tried %s: %s", attempt, decisions)
                continue
            if election.phase is Phase.GONE:
                return False
            # (the table hosted by this laptop: no election, its own host is tried again)
            trying = election.phase in _TRY_HOST or client.model.hosted_here
            if time.monotonic() >= host_at and trying:
                back = await self._try_host(client)
                if back is None:  # votes came while the host was tried: count them
                    decisions = self._votes(election)
                    continue
                if back:
                    self._close_standby()
                    return True
                # (its unreachable: this laptop's own network may be down: never alone)
                decisions = [*client.take_decided(),
                             *election.host_lost(time.monotonic(), client.unreachable)]
                host_at = time.monotonic() + backoff
                backoff = min(backoff * 2, self.options.host_retry_max)
                if decisions:
                    continue
            wake = election.wake_at
            if trying:
                wake = host_at if wake is None else min(wake, host_at)
            await self._sleep(time.monotonic() + IDLE if wake is None else wake)
            decisions = [*election.tick(time.monotonic()), *self._votes(election),
                         *self._adverts(election), *self._answered(election)]

    def _answered(self, election: Election) -> list[Decision]:
        """The person's answer to :class:`AskAlone`, once it came: a yes is told to the
        election (which takes over alone only if still nobody else answered)."""
        asking = self._asking
        if asking is None or not asking.done():
            return []
        self._asking = None
        if asking.cancelled() or asking.exception() is not None or not asking.result():
            return []
        return election.alone_agreed(time.monotonic())

    def _stop_asking(self) -> None:
        if self._asking is not None:
            self._asking.cancel()  # (a host was found, or the election gave up)
            self._asking = None

    def _votes(self, election: Election) -> list[Decision]:
        if self._standby is None:
            return []
        now = time.monotonic()
        return election.standby_votes(self._standby.votes(now), now)

    async def _try_host(self, client: GameClient) -> bool | None:
        """Try the old host once: whether it welcomed us; None when, counting votes,
        this laptop's standby got its quorum meanwhile (the try is cut short: the
        voters wait for its welcome, and the host is lost to them)."""
        if self._standby is None:
            return await client.try_host()
        trying = asyncio.ensure_future(client.try_host())
        while True:
            self._poked.clear()
            poked = asyncio.ensure_future(self._poked.wait())
            await asyncio.wait((trying, poked), return_when=asyncio.FIRST_COMPLETED)
            poked.cancel()
            if trying.done():
                return trying.result()
            if self._standby is None or self._standby.ready:
                trying.cancel()  # (a try cut short closes what it opened)
                with contextlib.suppress(asyncio.CancelledError):
                    await trying
                return None

    async def _sleep(self, until: float) -> None:
        """Wait until ``until`` or a poke (a vote, the standby hosting), whichever is
        first, and always give the event loop a turn (the standby answers voters on it:
        a loop that never waits would starve them)."""
        left = max(until - time.monotonic(), MIN_PAUSE)
        if not self._poked.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), left)
        else:
            await asyncio.sleep(0)
        self._poked.clear()

    def _poke(self) -> None:
        self._poked.set()

    async def _carry_out(
        self, decision: Decision, client: GameClient, election: Election
    ) -> bool | None:
        """Carry out one decision; True or False when :meth:`recover` is over."""
        log.debug("election (%s): %s", election.phase.value, decision)
        match decision:
            case KeepTrying():
                await client.tell(LinkNews.HOST_LOST_WAITING(seconds=round(election.order.delay)))
            case TryCandidate():
                pass  # the loop tries it: the election waits on it
            case OpenStandby():
                self._open_standby(client)
            case CloseStandby():
                self._close_standby()
            case TakeOver(epoch=epoch, alone=True):
                return await self._take_over(epoch, client, alone=True)
            case TakeOver(epoch=epoch):
                return await self._take_over(epoch, client)
            case AskAlone(epoch=epoch):
                if self.ask_alone is not None and self._asking is None:
                    self._asking = asyncio.ensure_future(self.ask_alone(epoch))
                    self._asking.add_done_callback(lambda _: self._poke())
            case Follow():
                return True  # the connection that welcomed us is the link now
            case RefuseHost():
                client.drop_link()  # the model said bye
            case GiveUp():
                return False
        return None

    def _open_standby(self, client: GameClient) -> None:
        succession, me = client.model.succession, client.model.pid
        if succession is None or me is None or self.successor is None:
            return
        if client.model.board_missing:  # it would deal a fresh game for the one in progress
            log.info("not standing for the table: the board of its game is not known here")
            return
        try:
            self._standby = Standby.of(succession, me)
        except ValueError as exc:  # not a laptop of the electorate
            log.info("not standing for the table: %s", exc)
            return
        self.listener.votes = self._standby

    def _close_standby(self) -> None:
        self._standby = None
        if not self.listener.hosting:
            self.listener.votes = None

    async def _take_over(self, epoch: int, client: GameClient, *, alone: bool = False) -> bool:
        """Start the new host.  ``alone`` (the person agreed to play on with nobody
        else reachable): a game of its own under a new table id, so that it is never
        taken for the table's (the others may be playing on: its journal, adverts and
        seats are not the table's, and the table's host never steps down for it)."""
        knowledge = client.model.knowledge()
        if knowledge is None or self.successor is None or not self.listener.listening:
            log.info("this laptop cannot take the table over: it does not know enough")
            return False
        if alone:
            own = replace(knowledge.succession, table=secrets.token_hex(8))
            knowledge = replace(knowledge, succession=own)
            log.info("playing on alone: a game of its own, table %s", own.table)
        if self._standby is not None:
            self._standby.alone()  # every greeting from now on is the new host's
        sock = self.listener.take_socket()
        try:
            self.hosted = await self.successor(knowledge, epoch, sock)
        except Exception:
            log.info("the table could not be taken over", exc_info=True)
            sock.close()
            return False
        self.took_over += 1
        self.listener.hand_to(self.hosted.server)
        return await client.join_own_table(self.hosted.address)

    async def close(self) -> None:
        """Stop the listener and close the table this laptop hosts, if any."""
        await self.listener.close()
        if self.hosted is not None:
            await self.hosted.close()


async def start_table(
    knowledge: Knowledge,
    epoch: int,
    sock: socket.socket,
    journals: Path,
    *,
    also: Sequence[str] = ("::",),
    advertise: Callable[[HostServer], Advert | None] | None = None,
    options: HostOptions | None = None,
) -> HostedTable:
    """Host the table this laptop takes over, at ``epoch``, on ``sock``: a new journal
    in ``journals`` that starts with the ``takeover`` record, the table built from
    ``knowledge`` (its unseen cards shuffled afresh), the same table id, and the
    advert ``advertise`` makes (None: not advertised).  ``options`` are the host's
    limits and timings; the name, epoch, table id, takeover delay and PIN key are the
    table's, and the hosting seat this laptop's (``succession.host`` names it; a
    headless table's successor has no owner: lobby rights stay nobody's)."""
    succession = knowledge.succession
    name = knowledge.names().get(knowledge.pid, "host")

    def build(journal: Journal, now: float) -> Table:
        return build_table(
            knowledge, epoch=epoch, now=now, seed=secrets.randbits(63), wall=time.time(),
            journal=journal,  # its first record: the takeover
        )

    base = options if options is not None else HostOptions()
    hosted = HostedTable(
        config_of(succession.config, host_name=name),
        new_journal_path(journals),
        replace(
            base, name=name, epoch=epoch, table_id=knowledge.table,
            takeover_delay=float(succession.delay), pin_key=pin_verifier(knowledge),
            seat=knowledge.pid,  # this laptop's seat hosts (succession.host), owner or not
        ),
        build=build,
        sock=sock,
        also=also,
        tid=knowledge.table,
        # the laptops it knew stay in the order until each is back: one not back yet
        # still counts for the quorum and is still named to the others (this one
        # dying before they all reconnected must leave them a whole order)
        expect=[lap for lap in succession.order if lap.pid != knowledge.pid],
    )
    await hosted.open()
    if advertise is not None:
        hosted.advertise(advertise)
    return hosted
