"""A laptop's part in its table's succession (issue 19): its standby, its takeover.

A :class:`Heir` belongs to the :class:`~sorry_lan.net.client.GameClient` of a player
whose laptop may host the table (a ``join`` player or a remote ``sorry-lan bot``).  It
runs the laptop's standby listener (:mod:`sorry_lan.net.standby`) from the start (the
client's model offers its port and this machine's addresses to the host), and does
what the client's recovery (:func:`sorry_lan.net.recovery.recover`, which carries out
the table's election while the host is lost) asks of it:

- while the host is there: nothing (a ``CloseStandby`` after a false alarm:
  :meth:`Heir.carry_out_now`);
- count votes on its standby (:meth:`Heir.open_standby`, :meth:`Heir.votes`) and
  wake the recovery at each vote, at the table's adverts (:meth:`Heir.hint`) and at
  the person's answer (:meth:`Heir.pause`, :meth:`Heir.next_poke`);
- take over (:meth:`Heir.take_over`): give the listening socket and the connections
  the standby held to a new host started by the ``successor`` callback from what the
  client knows, at the address the client then joins with the seat's token;
- nobody reachable for the grace: ask the person at the laptop through the
  ``ask_alone`` callback while the walk goes on (:meth:`Heir.ask`,
  :meth:`Heir.answered`); a game it then takes over alone gets a new table id (a
  game of its own, never the table's).  ``join`` asks its person (``tui.alone``);
  with no callback (``sorry-lan bot``, a spectator) it never asks.

It decides nothing (the election and the recovery's steps do, and the model checks
each new host), never calls the client (the client drives it), does not build the
new host's table, journal or advert (the ``successor`` the commands give does, with
``authority.takeover``), does not find the laptop's addresses (the ``addresses``
callback, from the discovery layer, does) and draws nothing (the model's
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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.takeover import build_table, config_of, pin_verifier
from sorry_lan.succession.election import CloseStandby, Decision, TakeOver, TryCandidate
from sorry_lan.succession.standby import Standby
from sorry_lan.succession.timings import LaptopTimings

from .hosted import Advert, HostedTable
from .journal import Journal
from .saved import new_journal_path
from .standby import StandbyListener

if TYPE_CHECKING:
    from sorry_lan.authority.table import Table
    from sorry_lan.succession.knowledge import Knowledge
    from sorry_lan.wire import messages as m

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

#: The standby's listening socket, as a successor is given it.
ListeningSocket = socket.socket


_DEFAULT = LaptopTimings()


@dataclass(frozen=True)
class HeirOptions:
    """Where the standby listens, and how long one try may take (seconds): the
    delays are :class:`~sorry_lan.succession.timings.LaptopTimings`' (:attr:`timings`,
    checked when the options are built)."""

    port: int = 0  # 0: the system picks a free port
    bind: str = "0.0.0.0"
    keep_next: bool = False  # keep port + 1 for the phones' page (StandbyListener)
    also: tuple[str, ...] = ("::",)
    attempt_timeout: float = _DEFAULT.attempt_timeout  # one try, at a candidate or the host
    host_retry_max: float = _DEFAULT.host_retry_max  # the old host tried at least this often
    timings: LaptopTimings = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        timings = LaptopTimings(
            attempt_timeout=self.attempt_timeout, host_retry_max=self.host_retry_max
        )
        object.__setattr__(self, "timings", timings)


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
        self.timings = self.options.timings
        self.listener = StandbyListener(
            bind=self.options.bind, port=self.options.port, also=self.options.also,
            on_vote=self._poke, on_host=self._poke, greet_within=self.timings.greet_within,
            keep_next=self.options.keep_next,
        )
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
        decision needs the recovery (the host handed the table over)."""
        needs = False
        for decision in decisions:
            if isinstance(decision, CloseStandby):
                self.close_standby()
            elif isinstance(decision, TakeOver | TryCandidate):
                needs = True
        return needs

    def hint(self, epoch: int, addrs: Sequence[str], port: int) -> None:
        """The discovery layer found this table advertised at ``epoch`` on ``addrs`` and
        ``port`` (an mDNS browse by table id): the election is told of it while the
        host is lost (at once while it is): a newer epoch is tried first."""
        self._hints = [*self._hints[-(MAX_ADDRS - 1):], (epoch, tuple(addrs), port)]
        self._poke()

    # -- the host lost (what net/recovery.py asks) ---------------------------------------

    @property
    def may_ask(self) -> bool:
        """A person at this laptop may be asked to play on alone (and it can host)."""
        return self.ask_alone is not None and self.successor is not None

    @property
    def can_host(self) -> bool:
        """This laptop may host the table (a laptop that cannot only votes)."""
        return self.successor is not None

    def take_hints(self) -> list[tuple[int, tuple[str, ...], int]]:
        """The table's adverts found since the last call (epoch, addresses, port)."""
        hints, self._hints = self._hints, []
        return hints

    @property
    def standing(self) -> bool:
        """Its standby counts votes."""
        return self._standby is not None

    @property
    def elected(self) -> bool:
        """Its standby no longer counts votes, or counted enough (a try of the old host
        under way is cut short: the voters wait for this laptop's welcome)."""
        return self._standby is None or self._standby.ready

    @property
    def behind(self) -> bool:
        """Its standby turned a vote away: that laptop saw more of the game."""
        return self._standby is not None and self._standby.behind

    def votes(self, now: float) -> int | None:
        """The votes its standby counts now, its own included (None: not standing)."""
        return None if self._standby is None else self._standby.votes(now)

    def next_poke(self) -> asyncio.Future[bool]:
        """Forget the pokes so far, at once, and wait for the next one (a vote, the
        standby hosting, an advert, an answer): done when it comes."""
        self._poked.clear()
        return asyncio.ensure_future(self._poked.wait())

    async def pause(self, until: float) -> None:
        """Wait until ``until`` or a poke, whichever is first, and always give the event
        loop a turn (the standby answers voters on it: a loop that never waits would
        starve them)."""
        left = max(until - time.monotonic(), self.timings.min_pause)
        if not self._poked.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), left)
        else:
            await asyncio.sleep(0)
        self._poked.clear()

    def _poke(self) -> None:
        self._poked.set()

    def ask(self, epoch: int) -> None:
        """Ask the person at this laptop whether to play on alone at ``epoch`` (once
        at a time; with no ``ask_alone``, nobody is asked)."""
        if self.ask_alone is not None and self._asking is None:
            self._asking = asyncio.ensure_future(self.ask_alone(epoch))
            self._asking.add_done_callback(lambda _: self._poke())

    def answered(self) -> bool:
        """Whether the person said yes since :meth:`ask` (each answer once)."""
        asking = self._asking
        if asking is None or not asking.done():
            return False
        self._asking = None
        return not asking.cancelled() and asking.exception() is None and asking.result()

    def stop_asking(self) -> None:
        """Withdraw the question (a host was found, or the election gave up)."""
        if self._asking is not None:
            self._asking.cancel()
            self._asking = None

    def open_standby(
        self, succession: m.Succession | None, me: int | None,
        seen: tuple[int, int] | None = None,
    ) -> None:
        """Count votes on the standby for the table ``succession`` tells, as seat ``me``
        holding ``seen``, its newest state (a laptop that cannot host, or is not of the
        electorate, does not stand)."""
        if succession is None or me is None or self.successor is None:
            return
        try:
            self._standby = Standby.of(succession, me, seen)
        except ValueError as exc:  # not a laptop of the electorate
            log.info("not standing for the table: %s", exc)
            return
        self.listener.votes = self._standby

    def close_standby(self) -> None:
        """Stop counting votes.  A standby that already said its votes were enough
        (the election stopped standing before it heard them, or they ran out before it
        did) answers as one that does not stand from now on, and the voters it held for
        the new host that is not coming are told so (held, each would wait out its try
        and try again, held again, for 2 D before it walked on)."""
        self._standby = None
        self.listener.stand_down()

    async def take_over(
        self, knowledge: Knowledge | None, epoch: int, *, alone: bool = False
    ) -> tuple[str, int] | None:
        """Start the new host from ``knowledge``: the address it listens on (None: it
        could not).  ``alone`` (the person agreed to play on with nobody else
        reachable): a game of its own under a new table id, so that it is never taken
        for the table's (the others may be playing on: its journal, adverts and seats
        are not the table's, and the table's host never steps down for it)."""
        if knowledge is None or self.successor is None or not self.listener.listening:
            log.info("this laptop cannot take the table over: it does not know enough")
            return None
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
            return None
        self.took_over += 1
        self.listener.hand_to(self.hosted.server)
        return self.hosted.address

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
