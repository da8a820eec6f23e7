"""A successor's table, built from what its laptop knew of the table it takes over.

:func:`build_table` makes a :class:`TakenOver` table from a
:class:`~sorry_lan.succession.knowledge.Knowledge`: the old table's config; every seat
with its pid, colour, name and token verifier, so each player reclaims its own seat
with its own token (every person away, their grace from now, until they do: a host
that handed the table over to leave it has its grace over at once, so a bot plays it; the
host's bots become this host's bots at their strengths; the successor's own player
owns the table, unless it was headless); the game at the board's position, its unseen
cards shuffled afresh from ``seed`` (``rules.midgame``), the hands (or the part of a
hand its player knew) that were revealed and match the old host's commitment kept,
the rest dealt afresh; the chat so far;
and the journal's first record (``takeover``) as :attr:`Table.history`.
:func:`resume_table` and :func:`resumed_options` host a successor's journal again
(``host --resume``): at the table's id and the epoch it hosted, from its own seat.
:func:`apply_reveal` gives a player that reconnects its hand back, when it matches
the commitment, nobody has played since the takeover and (once the first decision
is offered) the hand of the person on turn would not change.  In play for points the
table holds its first decision (offered to nobody, made by no bot, no move taken)
until the laptops that can reveal a hand have, or :data:`REVEAL_WAIT` passed; a
player on turn that comes back after that, before anyone played, holds it again
until its own reveal is in (or :data:`REVEAL_WAIT` from its return).

A successor shuffles afresh because the old pile's order was known to the old host
alone: every order of the cards nobody has seen is as likely as the one it had.

It does not elect anyone, talk to the network, write the journal file or read a
clock: the time, the seed and the reveals are given.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from sorry_lan.errors import SorryLanError
from sorry_lan.records.build import iso
from sorry_lan.rules import Card, Phase
from sorry_lan.rules.midgame import Midgame, MidgameError, rebuild, reveal_hand
from sorry_lan.succession.commitment import hand_matches
from sorry_lan.succession.knowledge import Knowledge
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.succession import TableSettings

from .journal_records import RecordWriter, takeover_record
from .limits import HostOptions
from .restore import TakeoverStart
from .table import CHAT_KEPT, NUM_COLOURS, Player, Recorder, Restored, Table, TableConfig

log = logging.getLogger(__name__)

#: How long, at most, a successor in play for points holds the first decision after
#: the takeover (not offered to a person, not made by a bot), so that the players
#: reconnecting can reveal their hands before anyone plays (seconds).
REVEAL_WAIT = 5.0

MISMATCH = "hand does not match the commitment"
TOO_LATE = "too late: the game went on since the takeover, and the hand was dealt afresh"
OFFERED = "too late: the player on turn was offered its moves, and the hand was dealt afresh"


class Unrevealed(Enum):
    """Why a hand revealed to a successor is not given back."""

    KNOWN = "known"  # this host dealt it, or knows it already
    NO_GAME = "no_game"
    TOO_LATE = "too_late"  # someone played since the takeover
    OFFERED = "offered"  # the person on turn was offered moves on cards dealt afresh
    MISMATCH = "mismatch"  # it does not match the commitment


_UNREVEALED_TEXT = {
    Unrevealed.KNOWN: "this host knows that hand: nothing to reveal",
    Unrevealed.NO_GAME: "no game is being played",
    Unrevealed.TOO_LATE: TOO_LATE,
    Unrevealed.OFFERED: OFFERED,
    Unrevealed.MISMATCH: MISMATCH,
}


@dataclass(frozen=True)
class RevealRefused:
    """A reveal not honoured: ``why``, and what the check said (``detail``)."""

    why: Unrevealed
    detail: str = ""

    @property
    def reason(self) -> ErrorReason:
        """The ``error`` reason a host answers it with (SPEC 13)."""
        return ErrorReason.BAD_VALUE if self.why is Unrevealed.MISMATCH else ErrorReason.UNEXPECTED

    @property
    def text(self) -> str:
        said = _UNREVEALED_TEXT[self.why]
        return f"{said} ({self.detail})" if self.detail else said


class TakeoverError(SorryLanError, ValueError):
    """What a laptop knew cannot make a table (``str`` says why)."""


@dataclass(frozen=True)
class Revealed:
    """A hand a player revealed to the new host, with the salt of its commitment."""

    hand: tuple[Card, ...]
    salt: bytes


@dataclass
class TakenOver(Table):
    """A table a successor took over: how many cards of each hand it knows (by
    colour; the first ones of the hand, the rest were dealt afresh), the digests the
    hands it does not know must match when revealed, and how many moves the game had
    when it was taken over (a reveal is honoured only before the next one).

    In play for points the first decision is held (:meth:`offer_held`) until every
    seat in :attr:`awaited` revealed its hand (or tried to, or left) or until
    :attr:`hold_until`: a quick player on turn cannot play before the others' hands
    are back, which a first move would make too late."""

    known: dict[int, int] = field(default_factory=dict)
    digests: dict[int, bytes] = field(default_factory=dict)
    taken_at: int = 0
    epoch: int = 1
    tid: str = ""
    #: The colours whose reveal the first decision waits for: laptops of the order
    #: (players on version 4, who hold their salt) with a committed hand dealt afresh.
    awaited: set[int] = field(default_factory=set)
    hold_until: float | None = None  # None: the decision on turn is not held
    #: The colours that may still reveal (awaited at the takeover, not tried yet).
    revealers: set[int] = field(default_factory=set)
    reveal_wait: float = REVEAL_WAIT

    def offer_held(self) -> bool:
        return self.hold_until is not None

    def release_offer(self, now: float) -> frozenset[int] | None:
        """Offer the held decision once nobody is awaited any more, or at
        :attr:`hold_until`, or when there is no first decision to hold (the game
        went on, or ended)."""
        until = self.hold_until
        if until is None:
            return None
        game = self.game
        waiting = (
            game is not None and self.phase is Phase.PLAYING
            and game.moves_played == self.taken_at
        )  # fmt: skip
        if waiting and self.awaited and now < until:
            return None
        self.hold_until = None
        self.awaited.clear()
        self.decision_since = now
        return frozenset(self.dealt_afresh)

    @property
    def dealt_afresh(self) -> set[int]:
        """The colours whose hands hold cards this host dealt (each reveal deals them
        again): all of a hand of :attr:`fresh`, the card drawn last of another."""
        hands = {} if self.game is None else self.game.hands
        return {c for c, hand in hands.items() if self.known.get(c, 0) < len(hand)}

    def next_deadline(self) -> float | None:
        times = [t for t in (super().next_deadline(), self.hold_until) if t is not None]
        return min(times, default=None)

    def disconnect(self, conn: int, now: float, quit: bool = False) -> None:
        player = self.player_of(conn)
        if quit and player is not None:  # left on purpose: it will not reveal
            self.awaited.discard(player.colour)
            self.revealers.discard(player.colour)
        super().disconnect(conn, now, quit)

    def reclaim(self, conn: int, token: bytes, now: float) -> Player:
        """Bind ``conn`` to its seat; a player on turn that comes back after the wait,
        before anyone played, and may still reveal its hand holds the decision again
        (for its reveal, or :attr:`reveal_wait` at most): offered moves first, it could
        never have its hand back (a reveal then would deal anew under the offer)."""
        player = super().reclaim(conn, token, now)
        game = self.game
        again = (
            game is not None and self.phase is Phase.PLAYING and not game.over
            and game.moves_played == self.taken_at and game.turn == player.colour
            and player.colour in self.revealers and player.colour in self.fresh
            and self.hold_until is None
        )  # fmt: skip
        if again:
            self.awaited = {player.colour}
            self.hold_until = now + self.reveal_wait
        return player

    def add_player(self, player: Player) -> None:
        """Seat ``player`` with the pid it had (new pids are given after every one)."""
        self.players[player.pid] = player
        self._next_pid = max(self._next_pid, player.pid + 1)

    def next_pid(self) -> int:
        return self._new_pid()

    @property
    def fresh(self) -> set[int]:
        """The colours whose hands were dealt afresh and may still be revealed."""
        hands = {} if self.game is None else self.game.hands
        return {c for c in hands if not self.known.get(c, 0)}


def config_of(settings: TableSettings, *, host_name: str | None = None) -> TableConfig:
    """The table's config from its ``succession.config`` (times in milliseconds on
    the wire; the seed is never sent: this host shuffles afresh)."""

    def seconds(ms: int | None) -> float | None:
        return None if ms is None else ms / 1000

    return TableConfig(
        variant=settings.variant,
        seats=settings.seats,
        auto_start=settings.auto_start,
        grace=settings.grace_ms / 1000,
        turn_timeout=seconds(settings.turn_timeout_ms),
        bot_delay=settings.bot_delay_ms / 1000,
        bot_level=settings.bot_level,
        bot_budget=seconds(settings.bot_budget_ms),
        title=settings.name,
        host_name=host_name,
        hints=settings.hints,
    )


def pin_verifier(knowledge: Knowledge) -> bytes | None:
    """The PIN key the old host derived (``wire.auth.pin_key``), which the new host
    checks challenges with (None: no PIN)."""
    return knowledge.succession.config.pin_verifier


def expected_digests(knowledge: Knowledge) -> dict[int, bytes]:
    """The last digest of each seat's hand this laptop holds, by colour."""
    commit = knowledge.commit
    if commit is None:
        return {}
    return {c: d for c, d in enumerate(commit.digests) if d is not None}


def build_table(
    knowledge: Knowledge,
    *,
    epoch: int,
    now: float,
    seed: int,
    reveals: Mapping[int, Revealed] | None = None,
    wall: float = 0.0,
    hold: float = REVEAL_WAIT,
    journal: RecordWriter | None = None,
) -> TakenOver:
    """The table this laptop hosts from now, at ``epoch``; see the module docstring.

    ``reveals`` are the hands revealed so far, by colour (this laptop's own is taken
    from ``knowledge``); one that does not match its commitment is dealt afresh like
    the hands nobody revealed.  ``wall`` is the time of day (Unix seconds) the
    journal's record carries; ``journal``, the successor's new journal, is given its
    first record (the takeover) at once, and the table writes to it from then on."""
    if epoch <= knowledge.epoch:
        raise TakeoverError(f"epoch {epoch} does not follow the table's {knowledge.epoch}")
    if not hmac.compare_digest(_verifier_of(knowledge, knowledge.pid), _sha(knowledge.token)):
        raise TakeoverError("this laptop's seat token is not its seat's")
    names = knowledge.names()
    owner = None if knowledge.succession.host is None else knowledge.pid
    config = config_of(knowledge.succession.config, host_name=names.get(knowledge.pid))
    table = TakenOver(config, journal, epoch=epoch, tid=knowledge.table)
    _seat(table, knowledge, names, now)
    _left(table, knowledge, now)
    table.owner = owner
    table.games_played = knowledge.games_played
    board = knowledge.board
    if board is None:
        return table
    digests = expected_digests(knowledge)
    known = _known_hands(knowledge, dict(reveals or {}), digests)
    position = Midgame(
        board.variant, board.seated, board.pawns, board.turn, board.sid, card=board.card,
        after_two=board.after_two, discarded=board.discarded, hands=known,
    )  # fmt: skip
    _seat_missing(table, board.seated, now)
    try:
        game = rebuild(position, seed)
    except MidgameError as exc:
        raise TakeoverError(f"the board cannot be played on: {exc}") from None
    if len(game.deck.pile) != board.pile and not game.over:
        log.info("the pile was %d cards, the unseen ones make %d", board.pile, len(game.deck))
    table.game = game
    table.games_played = knowledge.games_played + 1
    table.phase = Phase.FINISHED if game.over else Phase.PLAYING
    table.last_winner = game.winner
    table.played_by = {p.colour: p.name for p in table.players.values()}
    table.known = position.known()
    table.digests = {c: d for c, d in digests.items() if c in table.fresh}
    table.taken_at = game.moves_played
    table.decision_since = now
    laptops = {x.pid for x in knowledge.succession.order}
    table.awaited = {
        p.colour for p in table.players.values()
        if p.pid in laptops and p.pid != knowledge.pid and not p.bot and p.colour in table.digests
    }  # fmt: skip
    table.revealers = set(table.awaited)
    table.reveal_wait = hold
    if table.awaited and not game.over:
        table.hold_until = now + hold
    colour_of = {p.pid: p.colour for p in table.players.values()}
    table.chat = [
        (colour_of[line.pid], line.text) for line in knowledge.chat if line.pid in colour_of
    ][-CHAT_KEPT:]
    table.history = [_head(table, position, seed, knowledge, (wall, now))]
    if journal is not None:
        journal.append(table.history[0])
    return table


def resume_table(
    config: TableConfig, restored: Restored, start: TakeoverStart, now: float,
    journal: Recorder | None = None,
) -> TakenOver:
    """A successor's table resumed from its own journal (``restore.replay`` and
    ``restore.taken_over`` of its records): as ``Table.restore`` makes one, but every
    seat keeps the pid the takeover record gave it (the succession order names laptops
    by pid) and the table its id and epoch.  No hand is revealed any more: the reveals
    its journal holds are in the game already."""
    base = Table.restore(config, restored, now, journal)
    table = TakenOver(base.config, journal, epoch=start.epoch, tid=start.tid)
    for player in base.players.values():
        player.pid = start.pids.get(player.colour, player.pid)
    for player in sorted(base.players.values(), key=lambda p: p.colour):
        if player.pid in table.players:  # (a journal that disagrees with itself)
            player.pid = table.next_pid()
        table.add_player(player)
        if base.owner is not None and base.players[base.owner] is player:
            table.owner = player.pid
    for name in ("game", "games_played", "phase", "last_winner", "decision_since", "chat",
                 "history", "played_by"):  # fmt: skip
        setattr(table, name, getattr(base, name))
    game = table.game
    table.known = {} if game is None else {c: len(h) for c, h in game.hands.items()}
    table.taken_at = -1 if game is None else game.moves_played
    return table


def resumed_options(options: HostOptions, start: TakeoverStart) -> HostOptions:
    """The options a successor's journal is resumed with (``start``, its takeover):
    ``options`` at the table's id and the epoch this laptop hosted, from the seat its
    laptop hosted from, so that the table's laptops follow it back as they follow
    their host of that epoch; a resumed game (``HostOptions.resumed``) waits for
    them.  It does not say whether the journal may be resumed (``net.saved``)."""
    seat = options.seat if start.seat is None else start.seat
    return replace(options, table_id=start.tid, epoch=start.epoch, seat=seat, resumed=True)


def apply_reveal(
    table: Table, colour: int, hand: Sequence[Card], salt: bytes, digest: bytes | None = None
) -> RevealRefused | None:
    """``colour``'s player revealed ``hand`` and ``salt``: None when the seat holds that
    hand again (journalled), else why not (the seat keeps the hand dealt it afresh).
    ``digest`` is the commitment to check against (None: the one the table kept)."""
    if not isinstance(table, TakenOver) or colour not in table.fresh:
        return RevealRefused(Unrevealed.KNOWN)
    table.awaited.discard(colour)  # it answered: the first decision waits no more for it
    table.revealers.discard(colour)  # (and it is not held for again)
    game = table.game
    if game is None or table.phase is not Phase.PLAYING:
        return RevealRefused(Unrevealed.NO_GAME)
    if game.moves_played != table.taken_at:
        return RevealRefused(Unrevealed.TOO_LATE)
    if not table.offer_held() and _offered_afresh(table, game.turn):
        return RevealRefused(Unrevealed.OFFERED)
    want = table.digests.get(colour) if digest is None else digest
    if not hand_matches(want, salt, hand):
        return RevealRefused(Unrevealed.MISMATCH)
    try:
        cards = tuple(Card(c) for c in hand)
        reveal_hand(game, colour, cards, table.known)
    except (MidgameError, ValueError) as exc:
        return RevealRefused(Unrevealed.MISMATCH, str(exc))
    table.known[colour] = len(cards)
    if isinstance(table.journal, RecordWriter):
        table.journal.reveal(colour, cards)
    table.revision += 1
    return None


# -- the parts --------------------------------------------------------------------------


def _offered_afresh(table: TakenOver, turn: int) -> bool:
    """The person on turn, connected, was offered moves on a hand holding cards this
    host dealt: a reveal now would deal those anew under the moves offered."""
    player = table.by_colour(turn)
    return (turn in table.dealt_afresh and player is not None and not player.bot
            and player.conn is not None)  # fmt: skip


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _verifier_of(knowledge: Knowledge, pid: int) -> bytes:
    for seat in knowledge.succession.seats:
        if seat.pid == pid and seat.verifier is not None:
            return seat.verifier
    return b""


def _seat(table: TakenOver, knowledge: Knowledge, names: dict[int, str], now: float) -> None:
    """Every seat of ``succession.seats``, by its pid: a player away until it comes back
    with its token, a bot at its strength."""
    roster = {p.pid: p for p in knowledge.lobby.players}
    free = [c for c in range(NUM_COLOURS) if all(s.colour != c for s in knowledge.succession.seats)]
    for seat in knowledge.succession.seats:
        info = roster.get(seat.pid)
        colour = int(seat.colour) if seat.colour is not None else free.pop(0)
        bot = seat.bot
        table.add_player(Player(
            seat.pid,
            names.get(seat.pid, f"player {seat.pid + 1}"),
            colour,
            bot=bot,
            level=seat.level or table.config.bot_level,
            token_hash=None if seat.verifier is None else seat.verifier.hex(),
            away_since=None if bot else now,
            ready=bot or (info is not None and info.ready),
            lang=None if info is None else info.lang,
            program=info is not None and info.program,
        ))  # fmt: skip


def _left(table: TakenOver, knowledge: Knowledge, now: float) -> None:
    """The host that handed the table over left on purpose: its seat is kept for its
    player, but its grace is over at once, so a bot plays it until they come back."""
    player = None if knowledge.left is None else table.players.get(knowledge.left)
    if player is not None and not player.bot and player.pid != knowledge.pid:
        player.away_since = now - table.config.grace


def _seat_missing(table: TakenOver, seated: tuple[int, ...], now: float) -> None:
    """A colour in the game with no seat this laptop knew of: a bot plays it."""
    taken = {p.colour for p in table.players.values()}
    for colour in seated:
        if colour not in taken:
            pid = table.next_pid()
            table.add_player(Player(pid, f"bot {pid + 1}", colour, bot=True,
                                    level=table.config.bot_level, ready=True))  # fmt: skip


def _known_hands(
    knowledge: Knowledge, reveals: dict[int, Revealed], digests: dict[int, bytes]
) -> dict[int, tuple[Card, ...]]:
    """The hands this host may keep: revealed (its own included) and matching the last
    commitment it holds; the others are dealt afresh."""
    board = knowledge.board
    if board is None or not board.variant.rules.deals_hands:
        return {}
    mine = knowledge.colour
    if mine is not None and knowledge.hand is not None and knowledge.salt is not None:
        reveals.setdefault(mine, Revealed(knowledge.hand, knowledge.salt))
    known = {}
    for colour, shown in reveals.items():
        if colour in board.seated and hand_matches(digests.get(colour), shown.salt, shown.hand):
            known[colour] = tuple(shown.hand)
        else:
            log.info("colour %d's hand does not match its commitment: dealt afresh", colour)
    return known


def _head(
    table: TakenOver, position: Midgame, seed: int, knowledge: Knowledge,
    clocks: tuple[float, float],
) -> dict[str, object]:
    """The successor's journal's first record (``clocks``: the time of day, and the
    monotonic clock's now)."""
    wall = int(clocks[0])
    players = table.players.values()
    owner = None if table.owner is None else table.players[table.owner].colour
    return takeover_record(
        position, seed, tid=knowledge.table, from_epoch=knowledge.epoch, epoch=table.epoch,
        names={p.colour: p.name for p in players}, bots=[p.colour for p in players if p.bot],
        tokens={p.colour: p.token_hash for p in players if p.token_hash},
        pids={p.colour: p.pid for p in players}, t=wall, owner=owner,
        levels={p.colour: p.level for p in players if p.bot}, games=table.games_played,
        table=table.config.title, host=table.config.host_name, so_far=_so_far(knowledge, *clocks),
        seat=knowledge.pid, port=_standby_port(knowledge),
    )  # fmt: skip


def _standby_port(knowledge: Knowledge) -> int | None:
    """The port this laptop offered to host on, as the order it took over from names
    it (a successor hosts on its standby's port); None: not in that order."""
    mine = next((lap for lap in knowledge.succession.order if lap.pid == knowledge.pid), None)
    return None if mine is None else mine.port


def _so_far(knowledge: Knowledge, wall: float, now: float) -> dict[str, Any] | None:
    """The game's record so far this laptop knew, with the hosts it passed through
    (a record the host sent names them; a laptop there from the start knows the
    host it takes over from) and its start (a record the host sent has it; a laptop
    that saw the game begin dates it by its own clock)."""
    if knowledge.so_far is None:
        return None
    so_far = dict(knowledge.so_far)
    if so_far.get("started") is None and knowledge.began is not None and wall:
        so_far["started"] = iso(wall - max(0.0, now - knowledge.began))
    if not so_far.get("hosts"):
        host = knowledge.succession.host
        name = None if host is None else knowledge.names().get(host)
        so_far["hosts"] = [{"epoch": knowledge.epoch, "host": name}]
    return so_far
