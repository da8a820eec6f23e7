"""The votes a laptop's standby counts before it hosts: sans I/O, fed by the shell.

A laptop listens on its standby port (the one it offered the host) from the start.
When the election chooses this laptop (``OpenStandby``) the net layer makes a
:class:`Standby`, decodes each greeting that arrives there and asks it what to answer,
with the clock::

    standby = Standby(me=pid, laptops=order_pids, seats={pid: verifier}, delay=D,
                      seen=(epoch, sid))  # this laptop's newest state (None: no board)
    answer = standby.hello(token, versions, now, seen)  # or standby.spectate(now)
    standby.votes(now)                    # votes counted now, this laptop's included
    standby.behind                        # it refused a voter that saw more of the game
    standby.alone()                       # took over alone (its person agreed)

or, as ``net.standby.Votes`` asks, ``standby.greeted(greeting, now)`` (the refusal to
send) and ``standby.elected(now)``.

The answers: :class:`Wait` (``refuse`` reason ``busy``: try again in a second), with
``counted`` when the hello was a vote; :class:`TurnAway` (``refuse`` with another
reason); :class:`Host` (this laptop hosts now: hand the hello to the new host, which
welcomes it).  A hello is a vote when its token's sha256 is the seat verifier of a
laptop of the electorate other than this one and it offers protocol version 4; a
vote is kept for twice the takeover delay.  Raft's election restriction (Ongaro and
Ousterhout 2014, 5.4.1; SPEC 13, election step 3): a vote whose ``seen`` (protocol
version 5: the voter's newest state, ``(epoch, sid)``) is newer than this laptop's
own is not counted but turned away (``full``, :data:`BOARD_OLDER`), and
:attr:`Standby.behind` says so from then on; one with no ``seen`` (a version-4
voter, or no board) is counted as before.  The standby is ready to host once its
votes (its own included) reach the quorum and at least one other laptop voted, or
it took over alone (its person agreed); from then on every greeting is answered
:class:`Host`.

It says nothing while no election is under way (the listener answers then), does not
decide when to count or to take over (``succession.election``), check PINs, negotiate
versions or decode frames: the host session and the new host do that.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sorry_lan.codes import RefuseReason
from sorry_lan.succession.election import quorum
from sorry_lan.wire import messages as m
from sorry_lan.wire.standby import BOARD_OLDER

VOTE_VERSION = 4  # the protocol version that has succession: a vote offers it

#: What a greeting is told by a standby that has its votes (the voter retries and is
#: welcomed by the new host once it serves).
MOVING = "the table is moving to this laptop; try again in a moment"


@dataclass(frozen=True, slots=True)
class Wait:
    """Answer ``refuse`` reason ``busy`` with ``text``; ``counted``: the hello is a vote."""

    text: str
    counted: bool = False

    @property
    def reason(self) -> RefuseReason:
        return RefuseReason.BUSY


@dataclass(frozen=True, slots=True)
class TurnAway:
    """Answer ``refuse`` with ``reason`` and ``text``: trying again will not help.
    ``older``: a vote turned away because the voter saw more of the game (the
    election hears of it: :attr:`Standby.behind`)."""

    reason: RefuseReason
    text: str
    older: bool = False


@dataclass(frozen=True, slots=True)
class Host:
    """This laptop hosts now: pass the greeting to the new host."""


Answer = Wait | TurnAway | Host


def verifier(token: bytes) -> bytes:
    """A seat token's verifier, as the host's ``succession`` lists it."""
    return hashlib.sha256(token).digest()


class Standby:
    """The votes one laptop counts; see the module docstring.  ``me``: this laptop's
    pid; ``laptops``: the electorate (the order's pids, ``me`` among them); ``seats``:
    every seat's token verifier by pid (None for a bot's); ``delay``: D in seconds;
    ``seen``: this laptop's newest state, ``(epoch, sid)`` (None: it holds no board)."""

    def __init__(
        self,
        *,
        me: int,
        laptops: Sequence[int],
        seats: Mapping[int, bytes | None],
        delay: float,
        seen: tuple[int, int] | None = None,
    ) -> None:
        if me not in laptops:
            raise ValueError(f"player {me} is not a laptop of the electorate")
        self.me = me
        self.laptops = tuple(laptops)
        self.keep_for = 2 * delay
        self._seat_of = {v: pid for pid, v in seats.items() if v is not None}
        self.seen = seen
        #: A vote was turned away: its laptop saw more of the game than this one.
        self.behind = False
        self._votes: dict[int, float] = {}  # pid -> when its vote came
        self._ready = False

    @property
    def needed(self) -> int:
        """The votes (this laptop's included) that make it host."""
        return max(2, quorum(len(self.laptops)))

    @property
    def ready(self) -> bool:
        """The quorum was reached (or it took over alone): this laptop hosts."""
        return self._ready

    def alone(self) -> None:
        """The election took over alone (its person agreed): host without votes."""
        self._ready = True

    @classmethod
    def of(
        cls, succession: m.Succession, me: int, seen: tuple[int, int] | None = None
    ) -> Standby:
        """The standby of laptop ``me`` for the table a ``succession`` message tells,
        holding ``seen`` (its newest state)."""
        return cls(
            me=me,
            laptops=tuple(lap.pid for lap in succession.order),
            seats={seat.pid: seat.verifier for seat in succession.seats},
            delay=float(succession.delay),
            seen=seen,
        )

    def newer(self, seen: tuple[int, int] | None) -> bool:
        """Whether a voter's ``seen`` is newer than this laptop's own: compared as
        ``(epoch, sid)`` pairs, as Raft compares (last term, last index); none is
        older than any."""
        if seen is None:
            return False
        return self.seen is None or tuple(seen) > tuple(self.seen)

    def votes(self, now: float) -> int:
        """The votes counted at ``now``, this laptop's own included."""
        for pid, at in list(self._votes.items()):
            if now - at >= self.keep_for:
                del self._votes[pid]
        return 1 + len(self._votes)

    def _waiting(self, now: float, counted: bool = False) -> Wait:
        return Wait(f"waiting for the table: {self.votes(now)} of {self.needed}", counted)

    def hello(
        self, token: bytes | None, versions: Sequence[int], now: float,
        seen: tuple[int, int] | None = None,
    ) -> Answer:
        """What to answer a ``hello`` with ``token`` offering protocol ``versions``
        and, a version-5 voter's, ``seen`` (its newest state)."""
        if self._ready:
            return Host()
        if token is None:
            return self._waiting(now)  # a new player: welcome once the table is hosted
        pid = self._seat_of.get(verifier(token))
        if pid is None:
            return TurnAway(RefuseReason.BAD_TOKEN, "no seat of this table has that token")
        if pid == self.me or pid not in self.laptops or VOTE_VERSION not in versions:
            return self._waiting(now)  # a seat, but not a vote: it follows the table
        if self.newer(seen):  # (Raft 5.4.1: the winner must hold every settled state)
            self._votes.pop(pid, None)
            self.behind = True
            return TurnAway(RefuseReason.FULL, BOARD_OLDER, older=True)
        self._votes[pid] = now
        if self.votes(now) >= self.needed:
            self._ready = True
            return Host()
        return self._waiting(now, counted=True)

    def spectate(self, now: float) -> Answer:
        """What to answer a ``spectate`` (a spectator following the table, or an old
        host's probe): never a vote."""
        if self._ready:
            return Host()
        return self._waiting(now)

    # -- as net.standby.Votes asks --------------------------------------------------------

    def greeted(self, greeting: m.Hello | m.Spectate, now: float) -> tuple[RefuseReason, str]:
        """The ``refuse`` to answer ``greeting`` with (the listener refuses them all;
        once :meth:`elected`, a wait: the new host welcomes the retry)."""
        if isinstance(greeting, m.Hello):
            answer = self.hello(greeting.token, greeting.versions, now, greeting.seen)
        else:
            answer = self.spectate(now)
        if isinstance(answer, Host):
            return RefuseReason.BUSY, MOVING
        return answer.reason, answer.text

    def elected(self, now: float) -> bool:
        """Whether this laptop hosts now (its votes are enough, or it is alone)."""
        return self._ready
