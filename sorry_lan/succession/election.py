"""Who hosts next, as one laptop (or spectator) sees it: a state machine, sans I/O.

:class:`Election` is fed what happens to this client's link to its host and to the
connections it tries, with the clock, and answers with decisions (frozen dataclasses,
in the order they are to be carried out)::

    election = Election(order, me=pid, now=now)   # order: the host's last succession
    election.heard(now)                   # a frame from the host
    election.host_lost(now, unreachable)  # the link closed, or a reconnect failed
    election.handover(epoch, pid, now)    # the host hands the table to ``pid``
    election.failed(attempt, now, unreachable) / busy(attempt, now)
    election.older(attempt, now)          # its board is older than ours: no vote
    election.silent(attempt, now)         # it took the hello and said nothing in time
    election.welcomed(attempt, epoch, host, now)   # the answer to a TryCandidate
    election.standby_votes(votes, now, behind)  # my standby counts ``votes`` (me
                                          # included); ``behind``: it turned one away
    election.advert(epoch, addrs, port, now)       # mDNS: our table at ``epoch``
    election.alone_agreed(now)            # the person said yes to an AskAlone
    election.tick(now)                    # time passes

The rules (protocol/SPEC.md, Succession):

- the host is **lost** when the link failed and reconnecting failed, or nothing was
  heard for the takeover delay D; ``lost_at`` is when it was last heard;
- at ``lost_at + D`` the client walks the order: the first laptop that can be reached
  (itself included) is the candidate.  Another laptop is tried at its standby
  (:class:`TryCandidate`: the hello sent there is this client's vote); a candidate
  that answers busy is tried again every :data:`RETRY` seconds; one that cannot be
  reached is passed over, and when the candidate this client voted for stops
  answering the walk starts again from the top.  One that took the hello but said
  nothing in time is tried again like a busy one (its standby may hold the hello
  that completed its quorum while it starts the table) for as long as a standby
  keeps a vote (2 D), then passed over.  A laptop that keeps saying it does
  not host the table (``busy``, not standing) for D since it first said so is
  passed over too: it follows a host (or still hears ours, or cannot host); the walk
  looks for that host further on, past this laptop, passing at once each laptop
  there that does not stand either, and this laptop stands at the end of the order
  (so each such laptop holds the table up for about D, never for good).  A laptop
  that cannot host (``can_host`` False) never stands: its walk looks past it at
  once.  When the candidate is this laptop it opens its standby
  (:class:`OpenStandby`) and takes over (:class:`TakeOver`) once its standby
  counts a quorum of votes (at least one besides its own);
- **the election restriction** (Raft, Ongaro and Ousterhout 2014, 5.4.1; protocol
  version 5): a standby counts no vote from a laptop that holds a newer state than
  its own (``succession.standby``), so that the laptop that saw the most of the game
  takes over.  A laptop whose vote is turned away so (:meth:`Election.older`) passes
  that candidate over at once, as one that cannot be reached, and stands when its
  walk reaches itself; a standing laptop that turned a vote away is no longer held
  by the votes it has (they come from laptops no newer than it): like one nobody
  voted for, D after it stood it stops standing and walks the order past itself,
  where it votes for a newer laptop that stands (which counts its vote); for 2 D
  after its standby last turned a vote away its walks do not name itself;
- **the lone walk**: a laptop never takes over by itself without a majority of the
  whole electorate (Raft's rule: one laptop cut off from the others cannot tell a
  dead host from a broken link of its own, and the others may be playing on).  No
  votes is not proof that nobody can be reached either: its voters may not reach it
  (a firewall that drops incoming connections) while it reaches them.  So a
  standing laptop that no other laptop voted for, D after it stood (its voters
  would have come by then), at ``lost_at + G`` and every D after, stops standing
  (:class:`CloseStandby`: no vote of its own may count twice) and walks the order
  once more, looking past itself.  One that answers makes it a voter like any other
  (one that hosts now is followed, one that stands gets its vote); when none
  answered since the host was lost, ``lost_at + G`` has come and its own network
  works (its last connect attempt did not fail with "network is unreachable" and it
  has a usable interface), an election built with ``may_ask`` (a person at this
  laptop) says :class:`AskAlone` once, and takes over alone only after
  :meth:`Election.alone_agreed`; a bot or headless laptop never does.  Either way it
  stands again and walks again every D until a host is found or it gives up.  One
  that others voted for walks the same way (never asking) when it is short of its
  quorum 2 D after it stood, and every 2 D after: a split vote (older voters at an
  older candidate, newer ones at another) is started over, as Raft's election
  timeout does;
- a **handover** names the successor: it takes over at once, the others try it at
  once (and walk the order if it cannot be reached);
- a new host is followed (:class:`Follow`) only when it is the laptop handed over to,
  the candidate voted for, or the laptop this client's walk names (every laptop
  before it in the order could not be reached or does not stand, and this client
  is not before it unless its walk looked past itself; never a claim in this
  laptop's own name, and at an advert's address only a laptop serving on the port
  it offered), and its epoch is greater than the one known, or equal to it while
  it is not the host known at that epoch (that one was lost: a laptop that knew
  only the order before took over after it); otherwise it is refused (:class:`RefuseHost`, out of
  turn or an old epoch) and the walk goes on;
- **a vote binds its voter** (Raft's term, bounded): a hello a standing candidate
  counted or held binds this player to the next epoch for :data:`PROMISE` D from its
  answer (:meth:`Election.promised_until`): meanwhile it neither rejoins the host it
  lost (``retry.Recovery``) nor follows a host of an older epoch, but the candidate
  it voted for;
- an mDNS advert of our table at a higher epoch is tried first; one at the epoch we
  know, while the host is lost, is tried too (at each address once per D, on the port
  the host served on): the host we lost may have moved there (a new address), and it
  is followed there only when it is that host at that epoch (:class:`Follow` of the
  host we knew).

It does not open connections, count votes (``succession.standby``), read the wire or
keep time; it knows nothing of the game.  The shell keeps reconnecting to the old host
after :class:`KeepTrying` until a :class:`Follow`, :class:`TakeOver` or
:class:`GiveUp`, and closes any connection for an attempt the election no longer waits
for (answers about such an attempt return no decisions).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from sorry_lan.wire import messages as m
from sorry_lan.wire.succession import FIRST_EPOCH, Laptop

RETRY = 1.0  # seconds between tries of a busy candidate, and between walks
GIVE_UP = 600.0  # seconds after lost_at with no host found: give up (as asleep_for)
#: How many D a vote binds its voter for (Raft's term, bounded): a standby keeps it 2 D,
#: and the host it elects counts its voters present for its lease L (< D) from its start.
PROMISE = 3


def quorum(laptops: int) -> int:
    """The votes a takeover needs among ``laptops`` (the electorate): a majority."""
    return laptops // 2 + 1


@dataclass(frozen=True, slots=True)
class Order:
    """What the host's last ``succession`` says about who hosts next: the table's
    ``epoch``, the host's own seat (``host``, None when headless), the takeover delay
    ``delay`` (D) and the seat grace ``grace`` (G) in seconds, and the electorate in
    order."""

    epoch: int
    host: int | None
    delay: float
    grace: float
    laptops: tuple[Laptop, ...]

    @classmethod
    def of(cls, succession: m.Succession) -> Order:
        """The order a ``succession`` message tells (G is its config's seat grace)."""
        return cls(
            epoch=succession.epoch,
            host=succession.host,
            delay=float(succession.delay),
            grace=succession.config.grace_ms / 1000,
            laptops=succession.order,
        )

    def laptop(self, pid: int | None) -> Laptop | None:
        return next((lap for lap in self.laptops if lap.pid == pid), None)

    def pids(self) -> tuple[int, ...]:
        return tuple(lap.pid for lap in self.laptops)


# -- decisions -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KeepTrying:
    """Keep reconnecting to the host as before (the election has not decided yet)."""


@dataclass(frozen=True, slots=True)
class TryCandidate:
    """Connect to the standby at ``addrs`` (each in turn) and ``port`` and say hello
    with the seat token (a spectator: spectate); report :meth:`Election.failed`,
    :meth:`Election.busy` or :meth:`Election.welcomed` with this value.  ``pid`` is the
    laptop's, None for an address from an mDNS advert."""

    pid: int | None
    addrs: tuple[str, ...]
    port: int


@dataclass(frozen=True, slots=True)
class OpenStandby:
    """This laptop is the candidate: count votes on its standby for ``epoch``."""

    epoch: int


@dataclass(frozen=True, slots=True)
class CloseStandby:
    """Stop counting votes: this laptop does not take over (after :class:`OpenStandby`)."""


@dataclass(frozen=True, slots=True)
class TakeOver:
    """Host the table now, at ``epoch`` (``alone``: with no votes, as the person at this
    laptop agreed after :class:`AskAlone`: a game of its own, never the table's)."""

    epoch: int
    alone: bool = False


@dataclass(frozen=True, slots=True)
class AskAlone:
    """Nobody could be reached since the host was lost, for the grace G: ask the person
    at this laptop whether to play on here alone, with bots in the others' seats (the
    others may be playing on without this laptop).  Their yes is
    :meth:`Election.alone_agreed`; meanwhile, and after a no, the walk goes on.  Only
    an election built with ``may_ask`` asks (a bot or a headless laptop never)."""

    epoch: int


@dataclass(frozen=True, slots=True)
class Follow:
    """The connection that welcomed us is our host from now: ``pid`` at ``epoch`` (the
    host we lost, found again at a new address: its own seat, None when headless)."""

    pid: int | None
    epoch: int


class Claim(StrEnum):
    """Why a new host is not followed."""

    OUT_OF_TURN = "out_of_turn"  # not the laptop handed over to, voted for or next
    OLD_EPOCH = "old_epoch"  # its epoch is not greater than the one we know


CLAIM_TEXT = {
    Claim.OUT_OF_TURN: "a claim to host the table out of turn",
    Claim.OLD_EPOCH: "a claim to host the table at an old epoch",
}


@dataclass(frozen=True, slots=True)
class RefuseHost:
    """Say bye to the new host ``pid`` that claims ``epoch``, for ``reason``."""

    pid: int | None
    epoch: int
    reason: Claim

    @property
    def text(self) -> str:
        return f"{CLAIM_TEXT[self.reason]} (player {self.pid}, epoch {self.epoch})"


@dataclass(frozen=True, slots=True)
class GiveUp:
    """No host could be found in time: stop trying (the last journal may resume it)."""


Decision = (
    KeepTrying | TryCandidate | OpenStandby | CloseStandby | TakeOver | AskAlone | Follow
    | RefuseHost | GiveUp
)


class Phase(Enum):
    WATCHING = "watching"  # the host is there (or not yet missed for D)
    LOST = "lost"  # the link failed; waiting for lost_at + D
    WALKING = "walking"  # trying the laptops of the order
    STANDBY = "standby"  # this laptop is the candidate: its standby counts votes
    HOSTING = "hosting"  # this laptop took over
    GONE = "gone"  # gave up


class Election:
    """One client's part in choosing who hosts next; see the module docstring.
    ``me`` is this client's pid (None: a spectator); ``give_up`` seconds after
    ``lost_at`` it stops looking; ``may_ask``: a person is at this laptop, who may be
    asked to play on alone (:class:`AskAlone`)."""

    def __init__(
        self, order: Order, *, me: int | None, now: float, give_up: float = GIVE_UP,
        may_ask: bool = False,
    ) -> None:
        self.order = order
        self.me = me
        self.give_up = give_up
        self.may_ask = may_ask
        #: This laptop may host (a successor to start, the board of a game in progress
        #: known): else its walk never stands, it looks past itself and votes.
        self.can_host = True
        self._asked = False  # AskAlone was said since the host was lost
        self.phase = Phase.WATCHING
        self.heard_at = now
        self.lost_at = now
        self.usable = True  # the shell's word: this machine has a usable interface
        #: The port the host we follow serves on (the shell's word, None: unknown): an
        #: advert at the epoch we know is tried only there (a host whose address
        #: changed keeps its port; the host's claim replayed on another port is forged).
        self.host_port: int | None = None
        self._net_down = False  # the last connect attempt said "network is unreachable"
        self._reached = False  # some other laptop answered since the host was lost
        self._failed: set[int] = set()  # laptops that could not be reached in this walk
        self._attempt: TryCandidate | None = None  # the one connect we wait on
        self._retry: TryCandidate | None = None  # a busy candidate, to try again
        self._retry_at: float | None = None  # when to try it again (or walk again)
        self._voted: int | None = None  # the candidate that answered busy
        self._handed: int | None = None  # the laptop the host handed over to
        self._own_gone = False  # this laptop's own host no longer takes its player
        self._again: TryCandidate | None = None  # refused our seat: tried again, watching
        self._hint: TryCandidate | None = None  # an advert of our table, newer epoch
        self._hint_epoch = order.epoch
        self._hint_same = False  # the hint is our epoch's advert: the lost host moved?
        self._back: dict[tuple[tuple[str, ...], int], float] = {}  # such adverts: tried at
        self._idle: dict[int, float] = {}  # laptops not standing: since when they say so
        self._mute: dict[int, float] = {}  # laptops that took a hello, said nothing: since
        self._past_me = False  # the walk looks past this laptop (one before it follows)
        self._defer = False  # this walk passed a laptop before this one that does not stand
        self._lone = False  # the lone rule's last walk: can no other laptop be reached?
        self._chosen = False  # another laptop voted for this one (its standby counted it)
        self._behind = False  # its standby turned away a vote: that laptop saw more
        self._aside_until = float("-inf")  # since it did so: it does not stand again
        self._walked_at = float("-inf")  # when this laptop's last lone walk ended
        self._stood_at = float("inf")  # when this laptop first stood since the host was lost
        # this player's last vote: the epoch it asked for, its candidate, binding until when
        self._vote: tuple[int, int | None, float] | None = None

    # -- what we know --------------------------------------------------------------------

    @property
    def next_epoch(self) -> int:
        return self.order.epoch + 1

    @property
    def waiting_for(self) -> TryCandidate | None:
        """The connect attempt whose answer the election waits on."""
        return self._attempt

    @property
    def wake_at(self) -> float | None:
        """The next time :meth:`tick` may decide something (None: only inputs will)."""
        if self.phase in (Phase.HOSTING, Phase.GONE) or self._i_host:
            return None
        if self.phase in (Phase.WATCHING, Phase.LOST):
            return self.heard_at + self.order.delay
        times = [self.lost_at + self.give_up]
        if self._retry_at is not None and self._attempt is None:
            times.append(self._retry_at)
        if self.phase is Phase.STANDBY and self._network_works:
            times.append(self._lone_at)  # the lone rule's time
        return min(times)

    @property
    def _lone_at(self) -> float:
        """When a standing laptop walks the order again (past itself): one nobody voted
        for D after it stood or last walked (its voters would have come by then), and at
        the lone rule's time ``lost_at + G`` if it has not walked since; one others
        voted for but short of its quorum 2 D after (as long as a vote is kept: every
        voter that could come came; the others vote elsewhere, and as in Raft, a
        split vote is started over)."""
        wait = self.order.delay if self._unheld else 2 * self.order.delay
        again = max(self._stood_at, self._walked_at) + wait
        grace = self.lost_at + self.order.grace
        if not self._reached and self._walked_at < grace:
            return min(again, grace)
        return again

    @property
    def _unheld(self) -> bool:
        """A standing laptop's votes do not hold it: nobody voted for it, or it turned
        away a laptop that saw more of the game (the election restriction)."""
        return not self._chosen or self._behind

    def _alone_now(self, now: float) -> bool:
        """Whether the lone rule finds this laptop alone now (nobody answered since the
        host was lost, its own network works, and the grace is over)."""
        return (not self._reached and self._network_works
                and now >= self.lost_at + self.order.grace)

    @property
    def _i_host(self) -> bool:
        """This laptop hosts the table it follows (its own host is silent only while
        the laptop slept): no election, unless that host handed the table over (it
        stepped down for a newer epoch, or its player leaves), or no longer takes its
        player back (:meth:`host_lost`): then it walks too."""
        return (self.me is not None and self.order.host == self.me and self._handed is None
                and not self._own_gone)  # fmt: skip

    @property
    def _network_works(self) -> bool:
        return self.usable and not self._net_down

    def promised_until(self, now: float) -> float | None:
        """Until when a vote of this laptop may still make a host at a newer epoch than
        the one it follows (None: no such vote now).  Until then it neither rejoins its
        old host nor follows any host of an older epoch than that vote's (Raft: a server
        that voted in a term never follows a leader of an older one): that host would
        count it towards its quorum while the one it voted for counts it too."""
        if self._vote is None:
            return None
        epoch, _, until = self._vote
        return until if now < until and self.order.epoch < epoch else None

    def _older_than_vote(self, epoch: int, host: int | None, now: float) -> bool:
        """Whether ``host`` at ``epoch`` is older than the host a vote of ours may still
        make (:meth:`promised_until`), and not the candidate voted for (which may have
        known an older order than ours, and stood at an older epoch): never followed."""
        vote = self._vote
        if vote is None or self.promised_until(now) is None:
            return False
        return epoch < vote[0] and (vote[1] is None or host != vote[1])

    def _voted_at(self, pid: int | None, now: float) -> None:
        """A hello of this player's reached a standby that counts votes (its answer came
        at ``now``): it may count there for 2 D, and the host it elects counts this
        laptop present for its lease (L < D) from its start: binding for PROMISE D.
        ``pid``: the candidate's (None: at an advert's address)."""
        if self.me is not None:
            self._vote = (self.next_epoch, pid, now + PROMISE * self.order.delay)

    # -- inputs ----------------------------------------------------------------------------

    def update(self, order: Order) -> bool:
        """The host we follow sent its succession (a roster change, a new game, or the
        first after :class:`Follow`): it replaces the old order.  Ignored (False) while
        the host is lost, or when its epoch is older than the one known."""
        if self.phase not in (Phase.WATCHING, Phase.HOSTING) or order.epoch < self.order.epoch:
            return False
        if order.epoch > self.order.epoch:
            self._handed = self._voted = None
            self._own_gone = False
        self.order = order
        if self.phase is Phase.HOSTING and not self._i_host:
            self.phase = Phase.WATCHING
        return True

    def heard(self, now: float) -> list[Decision]:
        """A frame from the host: it is there (again)."""
        self.heard_at = now
        self._own_gone = False
        if self.phase not in (Phase.LOST, Phase.WALKING, Phase.STANDBY):
            return []
        out: list[Decision] = [CloseStandby()] if self.phase is Phase.STANDBY else []
        self._reset(Phase.WATCHING)
        return out

    def host_lost(self, now: float, unreachable: bool = False) -> list[Decision]:
        """The link to the host closed or failed, or a reconnect failed (``unreachable``:
        the failure said the network is unreachable).  This laptop's own host is
        never lost by its link (its player rejoins it, and so hears the ``handover`` of
        a step-down); but when rejoining it fails, it no longer takes connections: it
        stepped down (or ended) while its player was not connected to hear it, and
        this laptop walks the order like any other from then on."""
        self._net_down = unreachable
        if self._i_host:
            if self.phase is Phase.LOST:  # (a retry of its own host failed)
                self._own_gone = True
            else:
                self._reset(Phase.LOST)
                self.lost_at = self.heard_at
                return []
        if self.phase in (Phase.HOSTING, Phase.GONE):
            return []
        out: list[Decision] = []
        if self.phase is Phase.WATCHING:
            self._reset(Phase.LOST)
            self.lost_at = self.heard_at
            out.append(KeepTrying())
        return out + self.tick(now)

    def interfaces(self, usable: bool) -> None:
        """Whether this machine has a usable network interface (the shell looks)."""
        self.usable = usable

    def handover(self, epoch: int, pid: int, now: float) -> list[Decision]:
        """The host hands the table to ``pid`` at ``epoch`` and leaves."""
        if epoch <= self.order.epoch:
            return [RefuseHost(pid, epoch, Claim.OLD_EPOCH)]
        out: list[Decision] = [CloseStandby()] if self.phase is Phase.STANDBY else []
        if self.me is not None and pid == self.me:
            self._reset(Phase.HOSTING)
            return [*out, TakeOver(epoch)]
        self._reset(Phase.WALKING)
        self.lost_at = now
        self._handed = pid
        lap = self.order.laptop(pid)
        if lap is None:
            return out + self._walk(now)
        return [*out, self._try(TryCandidate(pid, lap.addrs, lap.port))]

    def advert(
        self, epoch: int, addrs: tuple[str, ...], port: int, now: float
    ) -> list[Decision]:
        """mDNS found our table at ``epoch``: tried first when it is newer than ours,
        or, at the epoch we know while the host is lost, when the host we lost may have
        moved there (:meth:`_host_seen`)."""
        if not addrs:
            return []
        if epoch == self.order.epoch:
            return self._host_seen(tuple(addrs), port, now)
        if epoch <= max(self.order.epoch, self._hint_epoch):
            return []
        self._hint = TryCandidate(None, addrs, port)
        self._hint_epoch = epoch
        self._hint_same = False
        return self._try_hint()

    def _host_seen(self, addrs: tuple[str, ...], port: int, now: float) -> list[Decision]:
        """Our table advertised at the epoch we know while its host is lost: the host
        we lost, perhaps at a new address (DHCP gave its laptop another), where the
        shell's reconnects to its old one never reach it.  Tried like a newer advert
        (only the host we knew at this epoch is followed there, :meth:`welcomed`), at
        each address once per D, only on the port the host served on, and never before a
        newer advert."""
        key = (addrs, port)
        lost = self.phase in (Phase.LOST, Phase.WALKING, Phase.STANDBY)
        if not lost or self._i_host or self._hint is not None or port != self.host_port:
            return []
        if self.promised_until(now) is not None:
            return []  # (the host we lost is an older epoch than our vote's)
        if now - self._back.get(key, float("-inf")) < self.order.delay:
            return []
        self._back[key] = now
        self._hint = TryCandidate(None, addrs, port)
        self._hint_same = True
        return self._try_hint()

    def _try_hint(self) -> list[Decision]:
        assert self._hint is not None
        idle = self._attempt is None and self.phase in (Phase.WALKING, Phase.STANDBY)
        if not idle:
            return []  # tried when the walk (re)starts
        self._retry_at = None
        return [self._try(self._hint)]

    def failed(
        self, attempt: TryCandidate, now: float, unreachable: bool = False
    ) -> list[Decision]:
        """``attempt`` could not connect (``unreachable``: the network is unreachable),
        or the connection failed before an answer."""
        if attempt != self._attempt:
            return []
        if attempt == self._again:  # (the try that said bad_token is over)
            self._again = None
            return [self._try(attempt)]  # the same laptop, as a spectator now
        self._attempt = None
        self._net_down = unreachable
        if attempt == self._hint:
            self._hint, self._hint_same = None, False
        elif attempt.pid is not None:
            if attempt.pid == self._voted:  # our candidate died: walk again from the top
                self._voted = None
                self._failed.clear()
            else:
                self._failed.add(attempt.pid)
        if self.phase is Phase.STANDBY:
            return []
        return self._walk(now)

    def seat_gone(self, attempt: TryCandidate) -> bool:
        """The laptop our host handed the table over to (``attempt``) knows no seat for
        this laptop's token (``bad_token``): the table gave the seat up there (its
        player stayed away past the grace once the game ended).  Whether this client
        follows the table as a spectator from now on (``me`` None: it never stands or
        votes, and a spectator is welcomed wherever the table is), so that its person
        still learns how the game ended: when the shell reports the try over
        (:meth:`failed`) the same laptop is tried again at once.  Only the laptop
        handed over to, which our own host named: another's ``bad_token`` (a standby
        that knows other seats, a claim) is a failed try as before."""
        if attempt != self._attempt or self.me is None or attempt.pid is None:
            return False
        if attempt.pid != self._handed:
            return False
        self.me = None
        self.can_host = False
        self._again = attempt
        return True

    def silent(self, attempt: TryCandidate, now: float) -> list[Decision]:
        """``attempt``'s standby took the connection and the hello but answered nothing
        in time.  A standby whose votes are enough holds the hello for the new host it
        starts (which may take a while): tried again in :data:`RETRY` seconds, like a
        busy one, until it has been silent for as long as a vote is kept (2 D); then,
        or for an advert's address, it failed."""
        if attempt != self._attempt:
            return []
        pid = attempt.pid
        if pid is None:
            return self.failed(attempt, now)
        self._voted_at(pid, now)
        if self.phase is Phase.STANDBY:
            return self.failed(attempt, now)
        if now - self._mute.setdefault(pid, now) >= 2 * self.order.delay:
            del self._mute[pid]
            return self.failed(attempt, now)
        self._attempt = None
        self._net_down = False  # (it connected)
        self._retry = attempt
        self._retry_at = now + RETRY
        return []

    def busy(self, attempt: TryCandidate, now: float, standing: bool = True) -> list[Decision]:
        """``attempt``'s standby refused busy: it is tried again in :data:`RETRY`
        seconds.  ``standing``: it counts votes; else it said it does not host the
        table (its laptop still hears a host, has not missed it yet, or cannot host).
        A laptop before this one that has not stood for D since it first said so is
        passed over (it follows a host, which the walk may reach further on, or never
        stands); one after this one at once (this one stands first)."""
        if attempt != self._attempt:
            return []
        if standing:
            self._voted_at(attempt.pid, now)
        if attempt == self._hint and self._hint_same:
            return self.failed(attempt, now)  # no host there now: the walk goes on
        self._attempt = None
        self._reached = True
        self._net_down = False
        if self.phase is Phase.STANDBY:
            return []
        pid = attempt.pid
        if pid is not None:
            self._mute.pop(pid, None)
        if pid is not None and not standing:
            since = self._idle.setdefault(pid, now)
            # (one after this laptop: this one comes first, no need to wait for it)
            if self._past_me or now - since >= self.order.delay:
                if self._voted == pid:
                    self._voted = None
                self._failed.add(pid)
                self._defer = self._defer or not self._past_me
                return self._walk(now)
        elif pid is not None:
            self._idle.pop(pid, None)
        if pid is not None:
            self._voted = pid
        self._retry = attempt
        self._retry_at = now + RETRY
        return []

    def welcomed(
        self, attempt: TryCandidate, epoch: int, host: int | None, now: float,
        *, ours: bool = True,
    ) -> list[Decision]:
        """``attempt`` was welcomed by a host whose succession says ``epoch`` and its
        own seat ``host``: follow it, or refuse it and go on.  ``ours`` False: its
        succession names another table id (a game a laptop took alone is not the
        table's): never followed."""
        if attempt != self._attempt:
            return []
        self._answered(attempt)
        bound = self._older_than_vote(epoch, host, now)
        same = epoch == self.order.epoch and host == self.order.host and not bound
        if attempt.pid is None and ours and same:
            # the host we lost, at the address its advert gave (it moved): found again
            out: list[Decision] = [CloseStandby()] if self.phase is Phase.STANDBY else []
            self._reset(Phase.WATCHING)
            self.heard_at = now
            return [*out, Follow(host, epoch)]
        newer = epoch > self.order.epoch
        # At the epoch we know, another laptop than the host we lost: a laptop that knew
        # only the order before ours took over after our host died (epoch known + 1).
        # Never at the first epoch: only the table's first host (headless or not) hosts
        # there, so a laptop claiming it is an old claim.
        rival = epoch == self.order.epoch > FIRST_EPOCH and host != self.order.host
        rival = rival and not bound
        if (newer or rival) and ours and host is not None and self._in_turn(host, attempt):
            out = [CloseStandby()] if self.phase is Phase.STANDBY else []
            self._reset(Phase.WATCHING)
            self.heard_at = now
            self._vote = None  # (kept: it follows the host its vote made, or a newer one)
            return [*out, Follow(host, epoch)]
        reason = Claim.OUT_OF_TURN if newer or rival else Claim.OLD_EPOCH
        refusal = RefuseHost(host, epoch, reason)
        if attempt.pid is not None:
            self._failed.add(attempt.pid)  # not a candidate we can follow
        if self.phase is Phase.STANDBY:
            return [refusal]
        return [refusal, *self._walk(now)]

    def _answered(self, attempt: TryCandidate) -> None:
        """The try ``attempt`` (the current one) got an answer: a laptop was reached,
        the network works, and a hint it followed is used up."""
        self._attempt = None
        self._reached = True
        self._net_down = False
        if attempt == self._hint:
            self._hint, self._hint_same = None, False

    def alone_agreed(self, now: float) -> list[Decision]:
        """The person at this laptop answered yes to :class:`AskAlone`: take over alone
        (a game of its own), unless a laptop answered meanwhile, a host was found, or
        this laptop's network no longer works (then nothing: the walk goes on)."""
        busy = self.phase not in (Phase.WALKING, Phase.STANDBY)
        if not self._asked or busy or not self._alone_now(now):
            return []
        return self._take_over(alone=True)

    def older(self, attempt: TryCandidate, now: float) -> list[Decision]:
        """``attempt``'s standby turned our vote away: its board is older than this
        laptop's (the election restriction).  That laptop is passed over at once, as
        one that cannot be reached (it is not this laptop's candidate), and the walk
        goes on: when it reaches this laptop, it stands."""
        if attempt != self._attempt:
            return []
        self._answered(attempt)
        pid = attempt.pid
        if pid is not None:
            self._mute.pop(pid, None)
            self._idle.pop(pid, None)
            if self._voted == pid:
                self._voted = None
            self._failed.add(pid)
        if self.phase is Phase.STANDBY:
            return []
        return self._walk(now)

    def standby_votes(self, votes: int, now: float, behind: bool = False) -> list[Decision]:
        """This laptop's standby counts ``votes`` now (its own included); ``behind``:
        it turned away a vote from a laptop that saw more of the game."""
        if self.phase is not Phase.STANDBY:
            return []
        if behind:  # (a laptop that saw more reached this one: it is not alone)
            self._behind = self._reached = True
            self._aside_until = now + 2 * self.order.delay
        if votes > 1:
            self._reached = self._chosen = True
        if votes >= max(2, quorum(len(self.order.laptops))):
            return self._take_over(alone=False)
        return []

    def tick(self, now: float) -> list[Decision]:
        """Time passes: what is due by ``now``."""
        if self._i_host or self.phase in (Phase.HOSTING, Phase.GONE):
            return []
        if self.phase in (Phase.WATCHING, Phase.LOST):
            if now < self.heard_at + self.order.delay:
                return []
            out: list[Decision] = [] if self.phase is Phase.LOST else [KeepTrying()]
            self._reset(Phase.WALKING)
            self.lost_at = self.heard_at
            return out + self._walk(now)
        if now >= self.lost_at + self.give_up:
            out = [CloseStandby()] if self.phase is Phase.STANDBY else []
            self._reset(Phase.GONE)
            return [*out, GiveUp()]
        if self.phase is Phase.STANDBY:
            alone = now >= self._lone_at
            if alone and self._network_works and self._attempt is None:
                return self._last_walk(now)
            return []
        if self._attempt is None and self._retry_at is not None and now >= self._retry_at:
            retry, self._retry, self._retry_at = self._retry, None, None
            if retry is not None:
                return [self._try(retry)]
            return self._walk(now)
        return []

    # -- the walk -------------------------------------------------------------------------

    def _reset(self, phase: Phase) -> None:
        self.phase = phase
        self._reached = False
        self._idle.clear()
        self._mute.clear()
        self._past_me = self._defer = False
        self._lone = self._chosen = self._behind = False
        self._aside_until = float("-inf")
        self._asked = False
        self._walked_at = float("-inf")
        self._stood_at = float("inf")
        self._failed.clear()
        self._attempt = self._retry = self._again = None
        self._retry_at = None
        if phase in (Phase.WATCHING, Phase.HOSTING):  # no host lost: its old adverts go
            self._back.clear()
            if self._hint_same:
                self._hint, self._hint_same = None, False
        if phase is not Phase.WALKING:
            self._voted = self._handed = None

    def _try(self, attempt: TryCandidate) -> TryCandidate:
        self._attempt = attempt
        return attempt

    def _walk(self, now: float) -> list[Decision]:
        """The next step of the walk: the advert first, then the first laptop of the
        order not passed over; past the end, the walk starts again in a moment.  When
        this walk passed over a laptop before this one that is alive but does not
        stand (it follows a host, still hears ours, or cannot host), it first looks
        past this laptop for a host further on (each laptop there tried once: one
        that does not stand is passed at once), and stands at the end of the order
        (one that never stands blocks nobody for longer than D)."""
        if self._hint is not None:
            if self._lone:
                self._past_me = True  # the lone rule's walk looks past this laptop
            return [self._try(self._hint)]
        self._past_me = False
        for lap in self.order.laptops:
            if lap.pid in self._failed or lap.pid == self.order.host:
                continue
            if lap.pid == self.me:
                if not self._defer and not self._lone and self._may_stand(now):
                    return self._stand(now)
                self._past_me = True
                continue
            return [self._try(TryCandidate(lap.pid, lap.addrs, lap.port))]
        if self._lone and not self._may_stand(now):  # it steps aside: it walks again
            self._lone = self._defer = False
            self._walked_at = now
            self._failed.clear()
            self._retry = None
            self._retry_at = now + RETRY
            return []
        if self._lone:  # the lone rule's walk is over: no host, nobody standing
            self._lone = self._defer = False
            self._walked_at = now
            self._failed.clear()
            self.phase = Phase.STANDBY  # never alone by itself: it stands again
            return [OpenStandby(self.next_epoch), *self._ask(now)]
        self._failed.clear()
        if self._defer and self._may_stand(now):  # no host further on: this one stands
            self._defer = False
            return self._stand(now)
        self._defer = False
        self._retry = None
        self._retry_at = now + RETRY
        return []

    def _may_stand(self, now: float) -> bool:
        """Whether this laptop's walk may name itself: it can host, and it has not
        turned away a laptop that saw more of the game in the last 2 D (as long as a
        vote is kept: meanwhile it votes, for that laptop once it stands; a newer
        laptop that died is not waited for longer)."""
        return self.can_host and now >= self._aside_until

    def _stand(self, now: float) -> list[Decision]:
        self.phase = Phase.STANDBY
        self._stood_at = min(self._stood_at, now)
        return [OpenStandby(self.next_epoch), *self.tick(now)]

    def _last_walk(self, now: float) -> list[Decision]:
        """Standing with no vote for D, or the lone rule is due: stop standing and try
        every other laptop once more (past this one); :meth:`_walk` asks the person
        (:meth:`_ask`) when none answers and the lone rule's time has come."""
        if not any(lap.pid not in (self.me, self.order.host) for lap in self.order.laptops):
            self._walked_at = now  # alone at the table: nobody to try
            return self._ask(now)
        self.phase = Phase.WALKING
        self._lone = True
        self._failed.clear()
        self._retry = None
        self._retry_at = None
        return [CloseStandby(), *self._walk(now)]

    def _ask(self, now: float) -> list[Decision]:
        """The lone rule's walk found nobody: the person at this laptop is asked, once
        since the host was lost, when the grace is over and its network works.  It
        never takes over alone by itself (a majority of the whole electorate, as in
        Raft, is the only rule that keeps one table)."""
        if not self.may_ask or self._asked or not self._alone_now(now):
            return []
        self._asked = True
        return [AskAlone(self.next_epoch)]

    def _in_turn(self, host: int, attempt: TryCandidate) -> bool:
        """Whether ``host`` (who welcomed ``attempt``) may be followed: never a claim in
        this laptop's own name (it hosts only by its own :class:`TakeOver`), and at an
        advert's address only a laptop of the order serving on the port it offered (a
        successor hosts on its standby's port: a claim from any other is forged)."""
        if self.me is not None and host == self.me:
            return False
        if attempt.pid is not None and host != attempt.pid:
            return False  # someone else answers at that laptop's standby
        if attempt.pid is None:
            lap = self.order.laptop(host)
            if lap is None or lap.port != attempt.port:
                return False
        if host in (self._handed, self._voted):
            return True
        for pid in self.order.pids():
            if pid == host:
                return True
            if pid == self.me:
                if not self._past_me:
                    return False  # this laptop comes first
            elif pid not in self._failed:
                return False
        return False

    def _take_over(self, *, alone: bool) -> list[Decision]:
        epoch = self.next_epoch
        self._reset(Phase.HOSTING)
        return [TakeOver(epoch, alone=alone)]
