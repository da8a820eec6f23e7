"""The client's part while its host is lost: carry out the table's election.

:func:`recover` runs from the moment the link to a version-4 host fails (or the host
hands the table over) until the client is connected again, to the old host, a new
one or this laptop's own (True), or the election gives up (False).  It does what
``succession.retry.Recovery`` orders, one step at a time: try the candidate the
election waits on at its standby (:meth:`Link.try_candidate`: the hello is the
vote; the model checks a new host), try the old host again with its backoff, or
pause until the election's next time or a poke from the heir (a vote on its
standby, an advert, the person's answer).  A try of the old host is cut short when
the heir's standby gets its quorum meanwhile (the voters wait for its welcome).
Each decision of the election it carries out on the link (news: who hosts next is
being found, or at once that no laptop of the table can host it, ``heirless``; a
refused host's bye, joining the laptop's own new table) or the heir (its standby opened and
closed, the person asked, the new host started).

The client (:class:`~sorry_lan.net.client.GameClient`, a :class:`Link`) calls it and
owns the :class:`~sorry_lan.net.heir.Heir`; the heir never calls the client.  It
decides nothing: the election, the recovery's steps and the model do; it never
stands while the board of a game in progress is not known here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from sorry_lan.codes import LinkNews, Said
from sorry_lan.succession.election import (
    AskAlone,
    CloseStandby,
    Decision,
    Election,
    Follow,
    GiveUp,
    KeepTrying,
    OpenStandby,
    RefuseHost,
    TakeOver,
    TryCandidate,
)
from sorry_lan.succession.heirless import heirless
from sorry_lan.succession.retry import Pause, Recovery, TryHost

if TYPE_CHECKING:
    from sorry_lan.succession.knowledge import Knowledge
    from sorry_lan.wire import messages as m

    from .heir import Heir

__all__ = ["Link", "Seat", "recover"]

log = logging.getLogger(__name__)


class Seat(Protocol):
    """What the recovery reads of the client's model."""

    @property
    def election(self) -> Election | None: ...

    @property
    def hosted_here(self) -> bool: ...

    @property
    def board_missing(self) -> bool: ...

    @property
    def succession(self) -> m.Succession | None: ...

    @property
    def pid(self) -> int | None: ...

    @property
    def newest_state(self) -> tuple[int, int] | None: ...

    def knowledge(self) -> Knowledge | None: ...


class Link(Protocol):
    """What the recovery asks of the client: its connections and its news."""

    @property
    def model(self) -> Seat: ...

    @property
    def unreachable(self) -> bool: ...  # its last connect said "network is unreachable"

    async def try_host(self) -> bool: ...

    async def try_candidate(self, attempt: TryCandidate) -> list[Decision]: ...

    def take_decided(self) -> list[Decision]: ...

    async def tell(self, news: Said) -> None: ...

    def drop_link(self) -> None: ...

    async def join_own_table(self, address: tuple[str, int]) -> bool: ...


async def recover(
    link: Link, heir: Heir, pending: Sequence[Decision] = (), unreachable: bool = False
) -> bool:
    """The link to the host failed (``unreachable``: the network is), or the host
    handed the table over (the ``pending`` decisions say so): carry the election out
    until the client is connected again (True) or the election gives up (False)."""
    election = link.model.election
    assert election is not None
    election.may_ask = heir.may_ask
    # (a laptop that cannot host never stands: it votes for the next one at once)
    election.can_host = heir.can_host and not link.model.board_missing
    try:
        return await _recover(link, heir, election, pending, unreachable)
    finally:
        heir.stop_asking()


async def _recover(
    link: Link, heir: Heir, election: Election, pending: Sequence[Decision],
    unreachable: bool,
) -> bool:
    decisions = [*pending, *election.host_lost(time.monotonic(), unreachable),
                 *_adverts(heir, election)]
    steps = Recovery(election, heir.timings, time.monotonic())
    while True:
        for decision in decisions:
            done = await _carry_out(decision, link, heir, election)
            if done is not None:
                return done
        decisions = []
        step = steps.next(time.monotonic(), hosted_here=link.model.hosted_here)
        match step:
            case TryCandidate():
                decisions = await link.try_candidate(step)  # Follow: connected
                log.debug("tried %s: %s", step, decisions)
                continue
            case GiveUp():
                return False
            case TryHost():
                back = await _try_host(link, heir)
                if back is None:  # votes came while the host was tried: count them
                    decisions = _votes(heir, election)
                    continue
                if back:
                    heir.close_standby()
                    return True
                # (its unreachable: this laptop's own network may be down: never alone)
                decisions = [*link.take_decided(),
                             *election.host_lost(time.monotonic(), link.unreachable)]
                steps.host_failed(time.monotonic())
                if decisions:
                    continue
                step = steps.next(time.monotonic(), hosted_here=link.model.hosted_here)
        if isinstance(step, Pause):
            await heir.pause(step.until)
        now = time.monotonic()  # (the votes first: they came before this wake)
        decisions = [*steps.woke(now, heir.votes(now), heir.behind),
                     *_adverts(heir, election), *_answered(heir, election)]


def _adverts(heir: Heir, election: Election) -> list[Decision]:
    now = time.monotonic()
    return [d for epoch, addrs, port in heir.take_hints()
            for d in election.advert(epoch, addrs, port, now)]


def _votes(heir: Heir, election: Election) -> list[Decision]:
    now = time.monotonic()
    votes = heir.votes(now)
    if votes is None:
        return []
    return election.standby_votes(votes, now, behind=heir.behind)


def _answered(heir: Heir, election: Election) -> list[Decision]:
    """The person's yes to :class:`AskAlone`, once it came, is told to the election
    (which takes over alone only if still nobody else answered)."""
    return election.alone_agreed(time.monotonic()) if heir.answered() else []


async def _try_host(link: Link, heir: Heir) -> bool | None:
    """Try the old host once: whether it welcomed us; None when, counting votes, the
    heir's standby got its quorum meanwhile (the try is cut short: the voters wait
    for its welcome, and the host is lost to them)."""
    if not heir.standing:
        return await link.try_host()
    trying = asyncio.ensure_future(link.try_host())
    while True:
        poked = heir.next_poke()  # (a poke from now on: none is lost before it waits)
        await asyncio.wait((trying, poked), return_when=asyncio.FIRST_COMPLETED)
        poked.cancel()
        if trying.done():
            return trying.result()
        if heir.elected:
            trying.cancel()  # (a try cut short closes what it opened)
            with contextlib.suppress(asyncio.CancelledError):
                await trying
            return None


async def _carry_out(
    decision: Decision, link: Link, heir: Heir, election: Election
) -> bool | None:
    """Carry out one decision; True or False when :func:`recover` is over."""
    log.debug("election (%s): %s", election.phase.value, decision)
    match decision:
        case KeepTrying():
            if heirless(election):  # said at once: nobody but the old host can go on
                await link.tell(LinkNews.HOST_LOST_NO_HEIR())
            else:
                await link.tell(LinkNews.HOST_LOST_WAITING(seconds=round(election.order.delay)))
        case TryCandidate():
            pass  # the loop tries it: the election waits on it
        case OpenStandby():
            if link.model.board_missing:  # it would deal a fresh game for the one in progress
                log.info("not standing for the table: the board of its game is not known here")
            else:
                heir.open_standby(link.model.succession, link.model.pid,
                                  link.model.newest_state)
        case CloseStandby():
            heir.close_standby()
        case TakeOver(epoch=epoch, alone=alone):
            address = await heir.take_over(link.model.knowledge(), epoch, alone=alone)
            return address is not None and await link.join_own_table(address)
        case AskAlone(epoch=epoch):
            heir.ask(epoch)
        case Follow():
            return True  # the connection that welcomed us is the link now
        case RefuseHost():
            link.drop_link()  # the model said bye
        case GiveUp():
            return False
    return None
