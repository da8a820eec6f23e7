"""The game so far, as a record's turns, built from what one client was shown.

A laptop that takes a table over (issue 19) carries the game's record on from the
game so far its client knew.  A host sends that record only to a connection it
welcomes mid-game; a laptop at the table from the start builds it here instead:
:class:`SoFar` takes the game's first snapshot, then every ``events`` message, and
appends, as each arrives, the turn entries the host's own record has
(``records.entries``: each ``move`` with its kind, notation and parts, each ``lost``
turn and ``reshuffle``), with the header fields a successor's ``takeover`` record
copies (``first``, ``options``, ``started``, and ``hosts`` when a host's record named
the hosts the game passed through: see ``authority.journal_records.takeover_record``).

What the events do not say is found honestly or not at all:

- a move's kind and parts (which pawn bumped whom in a split 7, a Sorry!'s target, a
  declined 11) come from the rules engine: the legal moves of the card played on the
  board the client held, the one whose result and notation are those told; when no
  move, or two with different entries, fit, the game so far is not known;
- the turns lost before the first decision (told in no ``events``) come from the
  first snapshot: who follows from the turn and the discard count, the cards from
  the discard pile (its top is the last); when their order cannot be told (two
  different cards before the last), the game so far is not known;
- ``options.first`` (a first player chosen: the table's last winner) is given by
  the caller, who saw or did not see the game before; ``started`` (the host's clock)
  is not known to a client and is left ``null``;
- table events (``seat``, ``cover``, ``back``) are not told to clients as such: a
  seat that changed hands during the game, or a decision of a person the roster
  shows away (a host's bot covers them at it) whom the host's record does not show
  covered already, may hide one, and the game so far is then not known (a person
  away who is back before their turn hides none) until the record the host sends
  after such a change (SPEC section 7: :meth:`SoFar.seed`) tells it.

A game whose beginning this client did not see, or whose board a snapshot moved
(a client that was away), has no game so far here unless the host sent its record
(:meth:`SoFar.seed`: the host's turns, then the events since).  :meth:`SoFar.record`
is None whenever anything is not known: never a record that is wrong.

It is the one history a laptop keeps of the game on its table (issue 30): the
entries go on when the record is not known, so that the replay and the figures
(``client.figures``) have the game as this client saw it: :attr:`SoFar.whole` says
whether they begin at the game's start (a client that came in late, or a snapshot
that moved the board, has them from there, numbered from 1, or past the turns lost
before the first decision it cannot order); a move the engine cannot find is written
as its events say (``client.told``); each entry has the board after it and the
figures after it.  It also keeps the board itself (:attr:`SoFar.board`) and whether
the decision on it follows a 2 (:attr:`SoFar.after_two`): the client's fold
(``client.fold``) folds each message here once.  A whole record the host sent, when this
client's own is not whole and known, takes the place of the entries (:meth:`adopt`,
once: a second copy told again changes nothing).

Pure and cheap per message (each ``events`` adds its entries; nothing is rebuilt;
lists are only appended to, so a :class:`History` taken earlier stays as it was).
It does no I/O and checks nothing the client model does not (the host is trusted);
:class:`FoldError` says a message it cannot follow at all (the model asks for a
resync).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sorry_lan.client.figures import Figures
from sorry_lan.client.told import entries_of
from sorry_lan.errors import SorryLanError
from sorry_lan.records import RecordError
from sorry_lan.records.check import check
from sorry_lan.records.entries import Entry, colour_word, move_entry
from sorry_lan.rules import Card, Colour, Move, MoveKind, generate
from sorry_lan.succession.knowledge import draws_again
from sorry_lan.wire import messages as m
from sorry_lan.wire.apply import apply_events
from sorry_lan.wire.limits import NOTATION_MAX
from sorry_lan.wire.records import EventKind, EventTuple

_PAWN_EVENTS = (EventKind.MOVE, EventKind.SLIDE, EventKind.BUMP)
_TABLE_TURNS = ("seat", "cover", "back", "chat")  # a record's turns no client is told


def _clip(text: str) -> str:
    """A notation as an ``events`` message carries it (clipped to its limit)."""
    return text if len(text) <= NOTATION_MAX else text[: NOTATION_MAX - 3] + "..."


AWAY = "a seated person was away at a decision of theirs (a bot may have covered them)"


class Unknown(SorryLanError):
    """Something the record needs cannot be known from what this client was shown."""


class FoldError(SorryLanError):
    """A message the game so far cannot follow at all (events with no board held):
    the client asks the host for the board again."""


Board = tuple[int, ...]


@dataclass(frozen=True)
class History:
    """The game so far as one moment saw it (frozen: later entries are not in it):
    its entries, the board and the figures after each, the board they start from."""

    _turns: Sequence[Entry]
    _boards: Sequence[Board | None]
    _figures: Sequence[Figures]
    count: int
    start: Board
    before: int  # turns of the game before the first entry here (not known: 0)
    whole: bool  # the entries begin at the game's beginning (or the host's record does)
    why: str | None  # why the record is not known (None: it is)
    head: Mapping[str, Any]

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self._turns[: self.count])

    @property
    def boards(self) -> tuple[Board | None, ...]:
        """The board after each entry (None: an entry of the host's record, before
        this client held the board)."""
        return tuple(self._boards[: self.count])

    @property
    def figures(self) -> Figures:
        return self._figures[self.count - 1] if self.count else Figures()

    def record(self) -> dict[str, Any] | None:
        """As :meth:`SoFar.record` was when this was taken."""
        if self.why is not None:
            return None
        return {**self.head, "turns": list(self.entries)}


NO_HISTORY = History((), (), (), 0, (), 0, False, "no game seen", {})


class SoFar:
    """The game so far one client can write down; see the module docstring."""

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        """No game: the table is in its lobby."""
        self._fresh([], whole=False)
        self._head: dict[str, Any] = {}
        self._snap: m.Snapshot | None = None
        self._shown = -1
        self._seated: tuple[int, ...] = ()
        self._pawns: tuple[int, ...] = ()
        self._after_two = False
        self._sid = -1  # the state the board is at
        self._told = -1  # the sid of the last ``events`` (a long one comes in parts)
        self._roster: dict[int, tuple[str, bool]] = {}
        self._away: set[int] = set()  # the seated persons the last roster showed away
        self._covered: set[int] = set()  # the seats the host's record shows a bot covering
        self._last_person: int | None = None  # the person who decided last
        self.why: str | None = "no game seen"  # why there is no game so far (None: there is)
        self._adopted = False  # a whole record of the host's took the entries' place

    def _fresh(self, turns: list[Entry], *, whole: bool, before: int = 0,
               boards: list[Board | None] | None = None) -> None:
        """New lists of entries (never cleared in place: a History shares them)."""
        self._turns = turns
        self._boards: list[Board | None] = boards if boards is not None else [None] * len(turns)
        self._figures: list[Figures] = []
        figures = Figures()
        for entry in turns:
            figures = figures.plus(entry)
            self._figures.append(figures)
        self.whole = whole
        self._before = before

    # -- what the client was shown -----------------------------------------------------

    def begin(self, snap: m.Snapshot, chosen: int | None, *, chosen_known: bool = True) -> None:
        """The first snapshot of a game this client saw begin.  ``chosen`` is the
        first player the table chose (its last winner, when seated), None when drawn;
        ``chosen_known`` False: the caller cannot tell (it did not see the game
        before)."""
        self._start(snap)
        self._adopted = False
        try:
            lost, first = self._lost_at_start(snap)
        except Unknown as why:  # (numbered past the turns lost, as the host numbers them)
            self._fresh([], whole=snap.discards == 0, before=snap.discards)
            self._head = {}
            self.why = str(why)
            return
        self._fresh([], whole=True)
        for entry in lost:
            self._add(entry)
        self._head = {
            "first": colour_word(first),
            "options": {"first": None if chosen is None else colour_word(chosen)},
            "started": None,  # the host's clock: not known here
        }
        self.why = None
        if not chosen_known:
            self._lose("whether the first player was chosen")
        elif chosen is not None and chosen != first:
            self._lose(f"the first player chosen, {chosen}, is not who played first")

    def seed(self, record: Mapping[str, Any]) -> None:
        """The game so far as the host sent it, up to the board this client holds:
        at the snapshot just taken (a welcome), or after the events told so far (a
        table event, which no ``events`` tells, was written: SPEC section 7).  Its
        header and turns take the entries' place (ours, known from the game's start,
        stay when the host's has fewer turns: a successor's record begun at its
        takeover), and the events from now go on them."""
        if self._snap is None:
            self._lose("the host's record came without a board")
            return
        turns = [dict(t) for t in record.get("turns") or ()]
        if self.why is None and self.whole and len(turns) < self._before + len(self._turns):
            self._head = {**self._head, **_head_of(record, ("started", "hosts"))}
            return
        self._head = _head_of(record)
        boards = self._boards_of(turns)
        if all(t.get("type") != "move" for t in turns):  # (the game's start: none moved)
            boards = [self._pawns] * len(turns)
        self._fresh(turns, whole=True, boards=boards)
        self._after_two = _after_two(turns)
        self._covered = _covered(turns)
        self._last_person = None  # (the host's turns tell who decided up to now)
        self.why = None

    def _boards_of(self, turns: Sequence[Entry]) -> list[Board | None]:
        """The board after each of ``turns`` (the host's) as far as this client held
        it: after the entry of ours it is, in order (a table event's, a seat covered
        or back, which no client is told: the board before it); the last, the board
        now; None where this client did not hold it."""
        ours = [({k: v for k, v in e.items() if k != "n"}, b)
                for e, b in zip(self._turns, self._boards, strict=True)]  # fmt: skip
        boards: list[Board | None] = []
        j, last = 0, None
        for turn in turns:
            told = {k: v for k, v in turn.items() if k != "n"}
            if j < len(ours) and ours[j][0] == told:
                last = ours[j][1]
                j += 1
            elif told.get("type") not in _TABLE_TURNS:
                last = None
            boards.append(last)
        if boards:
            boards[-1] = self._pawns
        return boards

    def adopt(self, record: Mapping[str, Any]) -> bool:
        """A whole record of the game on the board, from the host: its turns take the
        entries' place when this client's own are not whole and known, the first time
        only (a copy told again after a takeover or a handover changes nothing).
        True if they did."""
        if self._adopted or (self.why is None and self.whole) or self._snap is None:
            return False
        turns = [dict(t) for t in record.get("turns") or ()]
        if len(turns) < self._before + len(self._turns):
            return False  # (a new host's record from its takeover on: ours has more)
        self._adopted = True
        self._head = _head_of(record)
        try:  # (the boards after each turn, when the record replays: a whole one does)
            boards: list[Board | None] = list(check(record, "the host's game record").boards)
        except RecordError:  # (a new host's, rebuilt without its deck): ours where we agree
            boards = self._boards_of(turns)
        self._fresh(turns, whole=True, boards=boards)
        self.why = None
        return True

    def snapshot(self, snap: m.Snapshot) -> None:
        """A snapshot during the game (a reconnection, a resync, a new host's): the
        game so far goes on when it shows the board held, else it is not known, and
        the entries begin again from it."""
        same = (
            self._snap is not None and snap.sid == self._sid
            and tuple(snap.pawns) == self._pawns and snap.colours == self._snap.colours
        )
        self._shown = snap.sid
        if not same:
            self._start(snap)
            self._adopted = False
            self._fresh([], whole=False)
            self.why = "a snapshot moved the board"

    def lobby(self, lobby: m.Lobby) -> None:
        """A roster during the game.  A seat that changed hands may hide a ``seat``
        event; a seated person away, a ``cover`` (a host's bot begins playing for them
        at their next decision): a decision of theirs while they are shown away, or
        the last a person made when the roster first shows them away (a bot may have
        made it for them as they went, in the host's step that told the roster last:
        only bots decide in the same step after it), and the game so far is not
        known."""
        if self._snap is None:
            return
        roster = {int(p.colour): (p.name, p.bot) for p in lobby.players if p.colour is not None}
        away = {
            int(p.colour) for p in lobby.players
            if p.colour is not None and not p.bot and not p.connected and p.colour in self._seated
        }  # fmt: skip
        if self._roster and any(self._roster.get(c) != roster.get(c) for c in self._seated):
            self._lose("a seat changed hands during the game")
        elif self._last_person in away - self._away:
            self._lose(AWAY)
        self._roster, self._away = roster, away

    def events(self, msg: m.Events) -> None:
        """One ``events`` message: its entries appended (a long one's later parts go
        on the first's)."""
        evs = msg.events
        board = self._pawns
        if self._snap is None or len(board) != len(self._snap.pawns):
            raise FoldError(f"events at sid {msg.sid} with no board held")
        try:
            self._pawns = apply_events(board, evs)
        except (IndexError, TypeError) as exc:
            raise FoldError(f"the events at sid {msg.sid} do not apply: {exc!r}") from exc
        go_on = msg.sid == self._told
        self._told = self._sid = msg.sid
        had = len(self._turns)
        try:
            i = 0 if go_on else self._decision(msg, board)
            for ev in evs[i:]:
                self._after(ev)
        except Unknown as why:  # written as the events say it, from this message on
            self._lose(str(why))
            del self._turns[had:], self._boards[had:], self._figures[had:]
            colour = None if msg.colour is None else int(msg.colour)
            told = evs if not go_on else [ev for ev in evs if ev[0] != EventKind.DRAW_AGAIN]
            for entry in entries_of(told, msg.notation, None if go_on else colour):
                self._add(entry)
        for k in range(had, len(self._turns)):
            self._boards[k] = self._pawns
        self._after_two = draws_again(evs, self._after_two)

    # -- what it makes -----------------------------------------------------------------

    @property
    def known(self) -> bool:
        return self.why is None

    @property
    def board(self) -> Board:
        """The pawns as the last message left them (empty: no game)."""
        return self._pawns

    @property
    def after_two(self) -> bool:
        """The decision on the board follows a 2: the last card event told is a draw
        again (or, from the host's record, the last turn was a 2); False after a
        snapshot that moved the board, which does not say."""
        return self._after_two

    def record(self) -> dict[str, Any] | None:
        """The game so far as a record's ``first``, ``options``, ``started`` and
        ``turns`` (numbered from 1), or None when it is not known."""
        if self.why is not None:
            return None
        return {**self._head, "turns": list(self._turns)}

    def history(self) -> History:
        """The game so far as it is now, frozen (see :class:`History`)."""
        if self._snap is None:
            return NO_HISTORY
        return History(
            self._turns, self._boards, self._figures, len(self._turns),
            tuple(self._snap.pawns), self._before, self.whole, self.why, dict(self._head),
        )  # fmt: skip

    # -- inside ------------------------------------------------------------------------

    def _start(self, snap: m.Snapshot) -> None:
        self._snap = snap
        self._shown = snap.sid  # the state the last snapshot showed
        self._seated = tuple(int(c) for c in snap.colours)
        self._pawns = tuple(snap.pawns)
        self._sid = snap.sid
        self._told = -1
        self._after_two = False
        self._roster = {}
        self._away = set()
        self._covered = set()
        self._last_person = None

    def give_up(self, why: str) -> None:
        """The game so far is not known from now (``why``), until the next game; the
        entries go on (a snapshot that moves the board begins them again)."""
        self.why = why

    def _lose(self, why: str) -> None:
        if self.why is None:
            self.why = why

    def _add(self, entry: Entry) -> None:
        made = {"n": self._before + len(self._turns) + 1, **entry}
        self._turns.append(made)
        self._boards.append(self._pawns)
        before = self._figures[-1] if self._figures else Figures()
        self._figures.append(before.plus(made))

    def _lost_at_start(self, snap: m.Snapshot) -> tuple[list[Entry], int]:
        """The turns lost before the first decision, and who played first."""
        seated, lost = self._seated, snap.discards
        if snap.turn is None:
            raise Unknown("the game began over")
        first = seated[(seated.index(int(snap.turn)) - lost) % len(seated)]
        if lost == 0:
            return [], first
        if snap.top is None or snap.discarded is None:
            raise Unknown("which cards were lost before the first decision")
        before = [c for c in Card for _ in range(snap.discarded[c])]
        before.remove(snap.top)
        if len(set(before)) > 1:
            raise Unknown("the order of the cards lost before the first decision")
        cards = [*before, snap.top]
        entries: list[Entry] = []
        rules = snap.variant.rules
        at = seated.index(first)
        for card in cards:
            who = seated[at % len(seated)]
            ctx = rules.move_context(self._pawns, who)
            if card == Card.TWO or generate(self._pawns, card, ctx):
                raise Unknown(f"a {card.label} lost before the first decision")
            entries.append({"type": "lost", "who": colour_word(who), "card": card.label})
            at += 1
        return entries, first

    def _decision(self, msg: m.Events, board: tuple[int, ...]) -> int:
        """The decision that begins ``msg`` written down; the index of what follows it."""
        evs = msg.events
        if not evs or msg.colour is None:
            raise Unknown("an events message without a decision")
        head, who = evs[0], int(msg.colour)
        if who in self._away and who not in self._covered:
            self._lose(AWAY)
        if not self._roster.get(who, ("", True))[1]:
            self._last_person = who
        if head[0] == EventKind.DISCARD:
            move = Move(MoveKind.DISCARD, Card(head[2]), (), ())
            self._check_notation(move, msg.notation)
            self._add(move_entry(who, move))
            return 1
        if head[0] == EventKind.TURN_LOST:  # a declined 11
            self._add(move_entry(who, self._found(msg, board, [head], MoveKind.DECLINE)))
            return 1
        if head[0] != EventKind.PLAY:
            raise Unknown(f"an events message begins with event {head[0]}")
        end = 1
        while end < len(evs) and evs[end][0] in _PAWN_EVENTS:
            end += 1
        self._add(move_entry(who, self._found(msg, board, evs[:end], None)))
        return end

    def _found(
        self, msg: m.Events, board: tuple[int, ...], told: Sequence[EventTuple],
        kind: MoveKind | None,
    ) -> Move:
        """The one legal move on ``board`` whose card, result and notation are those
        ``told`` (``kind``: of that kind only)."""
        who, card = int(msg.colour or 0), Card(told[0][2])
        snap = self._snap
        assert snap is not None
        ctx = snap.variant.rules.move_context(board, who, self._after_two)
        after = apply_events(board, told)
        fits = [
            mv for mv in generate(board, card, ctx)
            if (kind is None or mv.kind == kind) and mv.result(board) == after
            and _clip(mv.notation()) == msg.notation
        ]  # fmt: skip
        entries = {repr(move_entry(who, mv)) for mv in fits}
        if len(entries) != 1:
            raise Unknown(f"{len(entries)} moves fit {msg.notation!r} at sid {msg.sid}")
        return fits[0]

    @staticmethod
    def _check_notation(move: Move, notation: str) -> None:
        if _clip(move.notation()) != notation:
            raise Unknown(f"{notation!r} is not {move.notation()!r}")

    def _after(self, ev: EventTuple) -> None:
        """An event after the decision: a lost turn, a draw again, a reshuffle."""
        kind = ev[0]
        if kind == EventKind.TURN_LOST:
            self._add({"type": "lost", "who": colour_word(ev[1]), "card": Card(ev[2]).label})
        elif kind == EventKind.RESHUFFLE:
            self._add({"type": "reshuffle", "cards": int(ev[1])})
        elif kind != EventKind.DRAW_AGAIN:
            raise Unknown(f"event {kind} after the decision")


def _after_two(turns: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the decision after ``turns`` follows a 2 (played, or lost)."""
    for t in reversed(turns):
        if t.get("type") == "move":
            return bool(t.get("card") == "2" and t.get("kind") != "discard")
        if t.get("type") == "lost":
            return bool(t.get("card") == "2")
    return False


def _head_of(
    record: Mapping[str, Any], keys: Sequence[str] = ("first", "options", "started", "hosts")
) -> dict[str, Any]:
    """The header fields of a host's record the game so far carries on: ``hosts`` (the
    hosts the game passed through, which a successor goes on from) only when told."""
    return {k: record.get(k) for k in keys if k != "hosts" or record.get("hosts")}


def _covered(turns: Sequence[Mapping[str, Any]]) -> set[int]:
    """The seats a bot covers after ``turns`` (a ``cover`` not followed by the person's
    ``back`` or a new ``seat``): a decision of theirs while away hides no table event."""
    covered: set[int] = set()
    words = {colour_word(c): c for c in range(len(Colour))}
    for t in turns:
        colour = words.get(str(t.get("colour")))
        if colour is None:
            continue
        if t.get("type") == "cover":
            covered.add(colour)
        elif t.get("type") in ("back", "seat"):
            covered.discard(colour)
    return covered
