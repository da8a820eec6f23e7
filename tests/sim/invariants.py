"""The safety and liveness of an evening, checked as it is played (issue 31).

- **(a) one table**: at most one host accepts moves for the game: once a host made a
  state after another one did, the one before never makes another (two hosts, at one
  epoch or two, committing moves in overlapping time);
- **(b) no move shown is lost**: every state a laptop was shown (its sid and board,
  as its client's published view showed them: on protocol version 5 only once
  settled) is the state of that sid in the final record (the surviving host's states, and
  before its takeover those of the host it took over from, and so on);
- **(c) no lone takeover**: a laptop takes the table over only by votes, while it
  reaches a majority of the electorate (the ``order`` of the host it lost, itself
  included: SPEC 13, 2 laptops at least); never alone (the election's ``alone`` needs
  a person's yes, and the simulated laptops are bots nobody asks);
- **(d) no fresh deal**: a successor's game is the board its laptop last saw (the
  same sid and pawns), never a new game while one is in progress;
- **(e) every game ends**: by the end of the evening (long after the last fault
  healed) the final host's game is over and every laptop still running was told its
  end, or was told it gave up; a game still paused (a resumed or cut-off host short
  of a quorum: README) only if each laptop running gave up or waits at that host,
  told why.  The final host is never a crashed one a live host carries on from.

(a) is checked at every state a host makes, and after every step its stricter form,
the lease (``lease``: two hosts open to moves at once, live, awake, not paused, with
a game in progress and a connection, whether or not a move came); (c) and (d) at
each takeover; (b) and (e) at the end of the evening.  It changes
nothing in the world.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from sorry_lan.authority.table import PAUSED_TEXT, Table
from sorry_lan.succession.knowledge import Knowledge

if TYPE_CHECKING:
    from .evening import Evening
    from .laptop import HostShell, Laptop


class Recorded(Protocol):
    """A host's part of the record: the states it made and the sid it began at."""

    @property
    def states(self) -> Mapping[int, tuple[int, ...]]: ...

    @property
    def begun(self) -> int | None: ...


def final_record(lineage: Sequence[Recorded]) -> dict[int, tuple[int, ...]]:
    """The game's final record (sid -> pawns) of a lineage, its last host first: a
    host's states count up to the sid its successor began at, not those it made on
    after (a fork: shown, they are replaced, and (b) compares them with the record).
    A state a host made and its shell never saw at rest (a lost turn, a bot's move in
    the same step) is in no host's states: it is not checked."""
    record: dict[int, tuple[int, ...]] = {}
    ceiling: int | None = None
    for host in lineage:
        for sid, pawns in host.states.items():
            if (ceiling is None or sid <= ceiling) and sid not in record:
                record[sid] = pawns
        if host.begun is not None:
            ceiling = host.begun if ceiling is None else min(ceiling, host.begun)
    return record


@dataclass(frozen=True)
class Violation:
    rule: str  # "a".."e"
    at: float
    text: str


def majority(n: int) -> int:
    return n // 2 + 1


class Monitor:
    """Watches one evening; :attr:`violations` is what it found."""

    def __init__(self, ev: Evening) -> None:
        self.ev = ev
        self.violations: list[Violation] = []
        self._last: HostShell | None = None  # the host that made the latest state
        self._superseded: set[int] = set()  # hosts (by id) another host made states after
        self._told: set[tuple[str, str, str]] = set()  # (rule, host, host): said once

    def _bad(self, rule: str, text: str) -> None:
        now = self.ev.world.now
        self.violations.append(Violation(rule, round(now, 3), text))
        self.ev.world.note("VIOLATION", rule, text)

    # -- as it happens --------------------------------------------------------------------

    def _once(self, rule: str, one: HostShell, other: HostShell, text: str) -> None:
        key = (rule, one.label, other.label)
        if key not in self._told:
            self._told.add(key)
            self._bad(rule, text)

    def step(self) -> None:
        """After every step: at most one host accepts moves now (live, awake, not
        paused, a game in progress, a connection open to take a move on)."""
        hosts = self.ev.hosts
        if len(hosts) < 2:
            return  # (the first host alone: nothing to compare it with)
        open_ = [h for h in hosts if not (h.rogue or h.dead or h.stopped) and self._accepts(h)]
        if len(open_) > 1:
            a, b = sorted(open_, key=lambda h: h.label)[:2]
            self._once("lease", a, b, f"{a.label} and {b.label} both accept moves at once")

    @staticmethod
    def _accepts(host: HostShell) -> bool:
        game = host.table.game
        return (
            host.live and not host.rogue and not host.lap.asleep and game is not None
            and not game.over and not host.core.paused
            and any(c.server_open and c.client_open for c in host.conns.values())
        )  # fmt: skip

    def state_made(self, host: HostShell, sid: int) -> None:
        """``host`` made state ``sid`` (a move, a bot's, a deal)."""
        if not host.ready or host.rogue:
            return  # (a rogue's own moves are its own: what it shows anyone is (b)'s)
        last = self._last
        if last is host:
            return
        if id(host) in self._superseded:
            assert last is not None
            self._once("a", host, last, f"{host.label} accepted a move (sid {sid}) after "
                                        f"{last.label} did: two hosts played the game")
        if last is not None:
            self._superseded.add(id(last))
        self._last = host

    def takeover(self, lap: Laptop, knowledge: Knowledge, table: Table, epoch: int,
                 alone: bool) -> None:  # fmt: skip
        succession = knowledge.succession
        members = {x.pid for x in succession.order}
        reach = 0
        for other in self.ev.laptops:
            if other.model.pid in members and other.alive and not other.asleep and (
                    other is lap or self.ev.net.reachable(lap, other)):  # fmt: skip
                reach += 1
        if alone or reach < max(2, majority(len(members))):
            self._bad("c", f"{lap.name} took the table at epoch {epoch} "
                           f"{'alone' if alone else 'by votes'} reaching {reach} of "
                           f"an electorate of {len(members)}")
        board = knowledge.board
        game = table.game
        if board is not None and not board.over:
            if game is None or tuple(game.pawns) != board.pawns or game.state_id != board.sid:
                self._bad("d", f"{lap.name}'s new table at epoch {epoch} is not the board "
                               f"it saw (sid {board.sid})")
        elif board is None:
            playing = [h for h in self.ev.hosts if not h.rogue and h.table.game is not None
                       and not h.table.game.over]
            if playing:
                self._bad("d", f"{lap.name} took over at epoch {epoch} knowing no board "
                               f"while {playing[0].label} plays a game: a fresh deal")

    # -- at the end ------------------------------------------------------------------------

    def final_host(self) -> HostShell | None:
        """The host whose game is the evening's: the newest that finished it, else the
        one that made the latest state, or, if that one died or stopped, the newest
        live host that descends from it (its laptop resumed it, or a laptop took it
        over), never a crashed host a live one carries on from."""
        honest = [h for h in self.ev.hosts if not h.rogue and h.table.game is not None]
        over = [h for h in honest if h.table.game is not None and h.table.game.over]
        if over:
            return max(over, key=lambda h: (h.epoch, h.started))
        last = self._last
        if last is not None and not last.rogue:
            heirs = [h for h in honest if h.live and last in self._lineage(h)[1:]]
            return max(heirs, key=lambda h: (h.epoch, h.started), default=last)
        return max(honest, key=lambda h: (h.epoch, h.started), default=None)

    @staticmethod
    def _lineage(host: HostShell | None) -> list[HostShell]:
        """``host``, its parent, and so on (the host each one began from)."""
        lineage: list[HostShell] = []
        while host is not None and host not in lineage:
            lineage.append(host)
            host = host.parent
        return lineage

    @staticmethod
    def told_paused(lap: Laptop, host: HostShell) -> bool:
        """``lap`` is at ``host``'s table, which is paused, and was told so (the
        host's "waiting for the other players" chat): README, a resumed or cut-off
        game waits, its players told why."""
        conn = lap.conn
        return (
            host.live and host.core.paused and conn is not None
            and conn.server_open and conn.client_open and conn in host.conns.values()
            and PAUSED_TEXT in lap.model.chat_heard
        )  # fmt: skip

    def finish(self) -> None:
        final = self.final_host()
        if final is None:
            self._bad("e", "no game was ever dealt")
            return
        lineage = self._lineage(final)
        record = final_record(lineage)
        top = max(record, default=-1)
        for lap in self.ev.laptops:
            for sid, pawns in lap.shown:
                truth = record.get(sid)
                if truth is None and sid > top:
                    self._bad("b", f"{lap.name} was shown state {sid}, past the end of "
                                   f"the final record ({final.label}, sid {top})")
                    break
                if truth is not None and truth != pawns:
                    self._bad("b", f"{lap.name} was shown a state {sid} the final record "
                                   f"({final.label}) replaced")
                    break
        game = final.table.game
        assert game is not None
        running = [lap for lap in self.ev.laptops if lap.alive]
        if not game.over:
            # a game that never ends is kept only as the table's promise allows: a
            # laptop gave up and was told so, or waits at the paused table and was
            # told why; any other laptop running would have come back by itself
            if not all(lap.gave_up or self.told_paused(lap, final) for lap in running):
                why = "paused" if final.core.paused else "not over"
                self._bad("e", f"the game at {final.label} is {why} at the end of the "
                               "evening, and not every laptop was told why")
            return
        for lap in running:
            if lap.model.over is None and not lap.gave_up:
                self._bad("e", f"{lap.name} never learned the end of the game "
                               f"({final.label} finished it)")
