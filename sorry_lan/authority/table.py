"""The game table, sans I/O: seats, tokens, the lobby, the game, bots and timers.

A :class:`Table` is the host's authority over one table.  Callers (the asyncio server,
or a test) tell it what a connection asked for, with the current time, and it answers
with the engine events that resulted or raises :class:`TableError` with the reason
the peer is told (a :class:`JoinRefused` for a seat or a spectator's place, answered
with ``refuse``; a :class:`RequestRefused` for anything else, answered with a
non-fatal ``error``) and a human sentence; a refused request changes nothing.
Timers are data: the table says when it next needs attention
(:meth:`Table.next_deadline`) and does the due work when :meth:`Table.tick` is called
(bot moves, turn timeouts, seats given up).

Connections are plain integers chosen by the caller.  Seat tokens are random bytes
given to the seat's owner once; the table keeps only their SHA-256 (as the journal
does).  The table does not encode messages, own sockets, sleep, or decide what each
seat may see of an event (``rules.view`` does that); it writes to the journal, if it
was given one, before returning from any call that changed the game.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from sorry_lan.authority.timings import GRACE
from sorry_lan.bots import (
    DEFAULT_STRENGTH,
    STRENGTHS,
    Bot,
    Position,
    UnknownBotError,
    bot_name,
    level_of,
    make_bot,
    parse_strength,
    position_of,
)
from sorry_lan.bots.base import blocks
from sorry_lan.errors import SorryLanError
from sorry_lan.rules import Event, Game, Move, Phase, Variant
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.limits import PID_MAX
from sorry_lan.wire.messages import Error
from sorry_lan.wire.vocab import RefuseReason, canonical_lang, clip_text

log = logging.getLogger(__name__)

TOKEN_BYTES = 16
NUM_COLOURS = 4


class TableError(SorryLanError):
    """A refused request; nothing changed.  ``reason`` is the code the peer is sent and
    ``text`` says why, for people.  Raised as one of the two kinds below."""

    def __init__(self, reason: RefuseReason | ErrorReason, text: str) -> None:
        super().__init__(f"{reason.value}: {text}")
        self.reason = reason
        self.text = text


class JoinRefused(TableError):
    """A seat or a place among the spectators was refused: the host answers ``refuse``
    (and the connection closes)."""

    reason: RefuseReason

    def __init__(self, reason: RefuseReason, text: str) -> None:
        super().__init__(reason, text)


class RequestRefused(TableError):
    """A request from a welcomed connection was refused: the host answers a non-fatal
    ``error`` with this reason and the connection goes on."""

    reason: ErrorReason

    def __init__(self, reason: ErrorReason, text: str) -> None:
        super().__init__(reason, text)

    def to_message(self) -> Error:
        """The ``error`` message that tells the connection (never fatal)."""
        return Error(reason=self.reason, text=clip_text(self.text), fatal=False)


def game_seed(seed: int | None, played: int) -> int | None:
    """The seed of a table's game after ``played`` others: ``seed`` itself for the
    first, then one derived from it for each rematch (None without a seed)."""
    if seed is None or played == 0:
        return seed
    digest = hashlib.sha256(b"sorry-lan rematch %d %d" % (seed, played)).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 63 bits, like a random seed


@dataclass(frozen=True)
class BotTurn:
    """One decision a bot is to make: the state it answers, the strength, and what the
    seat may know (a copy: deciding needs nothing else from the table)."""

    game: int  # which game of the table (a rematch starts again at low state ids)
    sid: int
    level: str
    budget: float | None
    position: Position
    moves: tuple[Move, ...]

    def bot(self) -> Bot:
        return make_bot(self.level, 0, budget=self.budget)

    @property
    def blocks(self) -> bool:
        """Whether this bot may take long to decide (the expert and the master search): the host
        then decides off its event loop."""
        return blocks(self.bot())

    def decide(self) -> Move:
        return self.bot().choose(self.position, self.moves)

    def fallback(self) -> BotTurn | None:
        """The same decision for the next simpler bot (master, then expert, then greedy, then
        random; another kind falls back to the default strength), None after random:
        what plays when this bot fails."""
        if self.level not in STRENGTHS:
            return replace(self, level=DEFAULT_STRENGTH)
        weaker = STRENGTHS.index(self.level) - 1
        return None if weaker < 0 else replace(self, level=STRENGTHS[weaker])

    def decide_or_fall_back(self) -> Move:
        """:meth:`decide`, or when a bot raises, the decision of the next simpler one
        (a log line says so), and the first legal move if even random fails."""
        turn: BotTurn | None = self
        while turn is not None:
            try:
                return turn.decide()
            except Exception as exc:
                turn = turn.failed(exc)
        return self.moves[0]

    def failed(self, exc: BaseException) -> BotTurn | None:
        """Note that this bot raised ``exc`` deciding; returns :meth:`fallback`."""
        simpler = self.fallback()
        log.info(  # the game goes on: news for the host's log, not a warning to players
            "the %s bot failed to decide state %d (%s: %s); %s plays instead",
            self.level, self.sid, type(exc).__name__, exc,
            "the first legal move" if simpler is None else f"a {simpler.level} bot",
        )  # fmt: skip
        return simpler


@dataclass
class Player:
    """One seat at the table (a person or a bot); ``pid`` is stable for the table's life."""

    pid: int
    name: str
    colour: int
    bot: bool = False
    level: str = DEFAULT_STRENGTH
    token_hash: str | None = None
    conn: int | None = None
    ready: bool = False
    away_since: float | None = None  # when the owner's connection was lost
    rematch: bool = False
    lang: str | None = None  # the language its profile named (shown in the roster)
    program: bool = False  # its profile says a program plays it (not a host-run bot)
    covered: bool = False  # a bot has played for this person since they went away

    @property
    def connected(self) -> bool:
        return self.bot or self.conn is not None


@dataclass
class TableConfig:
    """How the table behaves; the times are in seconds."""

    variant: Variant = Variant.STANDARD
    seats: int = 4  # how many seats may be taken (and, with auto_start, when to start)
    auto_start: bool = False  # start as soon as ``seats`` seats are taken
    grace: float = GRACE  # how long a dropped player's turn waits before a bot plays it
    turn_timeout: float | None = None  # a bot moves for a player slower than this
    bot_delay: float = 0.0  # a bot's thinking time
    bot_level: str = DEFAULT_STRENGTH  # the strength of bots added without one
    bot_budget: float | None = None  # the expert's seconds per decision (None: its default)
    seed: int | None = None  # the first game's seed; rematch seeds derive from it (else random)
    title: str | None = None  # the table's name (journalled, for listings)
    host_name: str | None = None  # who hosts it (journalled: whose game it is to resume)
    max_spectators: int = 32  # watchers have their own cap: they never crowd out players
    hints: bool = False  # players may ask for hints (``host --hints``; the lobby says so)


CHAT_KEPT = 100  # chat lines of a game told again to whoever comes back
PAUSED_TEXT = "the table is paused: waiting for the other players"
HELD_TEXT = "no move yet: waiting for the other players' hands"


@dataclass
class Table:
    config: TableConfig
    journal: Recorder | None = None
    players: dict[int, Player] = field(default_factory=dict)  # by pid
    spectators: set[int] = field(default_factory=set)
    owner: int | None = None  # the host's own player's pid
    phase: Phase = Phase.LOBBY
    game: Game | None = None
    games_played: int = 0
    #: The current (or last) game's players by colour, as it began: its result names
    #: them even after one left the table.
    played_by: dict[int, str] = field(default_factory=dict)
    last_winner: int | None = None
    revision: int = 0  # bumped on every roster change (the server re-sends the lobby)
    decision_since: float = 0.0  # when the current decision was offered
    # What was said during the current game, (colour, text), the last CHAT_KEPT lines:
    # told again to whoever comes (back) to the table.
    chat: list[tuple[int, str]] = field(default_factory=list)
    # What was said in the lobby, (pid, text), the last CHAT_KEPT lines: told again to
    # whoever comes (back) to it.  Not journalled: a game's chat starts with the game.
    lobby_chat: list[tuple[int, str]] = field(default_factory=list)
    # The asks to trade colours waiting for an answer, asker's pid -> asked pid
    # (``authority.swaps``): only in the lobby.
    swaps: dict[int, int] = field(default_factory=dict)
    # The state id whose decision got more time (``authority.more_time``): its turn
    # timer runs twice the table's turn timeout.  Not journalled.
    extended: int | None = None
    # A table resumed from its journal: the records of the game it was rebuilt from
    # (the host core's game log, and so the game's record, starts from them).
    history: list[dict[str, Any]] = field(default_factory=list)
    # Since when the game waits: the host is cut off from most of the table's laptops
    # (``authority/fencing.py``); no move is played and no turn clock runs meanwhile.
    paused_at: float | None = None
    # The table's id and its host's epoch (the host core's options): with the game's
    # number, what names a game on every laptop (its record's ``tid`` and ``hosts``).
    tid: str = ""
    epoch: int = 1
    _next_pid: int = 0
    _seed_source: Callable[[], int] = field(default=lambda: secrets.randbits(63))

    # -- queries -----------------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self.config.variant

    def player_of(self, conn: int) -> Player | None:
        for p in self.players.values():
            if p.conn == conn:
                return p
        return None

    def by_colour(self, colour: int) -> Player | None:
        for p in self.players.values():
            if p.colour == colour:
                return p
        return None

    def free_colours(self) -> list[int]:
        taken = {p.colour for p in self.players.values()}
        return [c for c in range(NUM_COLOURS) if c not in taken]

    def legal_for(self, player: Player) -> list[Move]:
        """The moves ``player`` may choose now (empty unless it is their decision)."""
        game = self.game
        if (self.phase is not Phase.PLAYING or game is None or game.turn != player.colour
                or self.offer_held()):  # fmt: skip
            return []
        return game.legal_moves()

    def offer_held(self) -> bool:
        """Whether the decision on turn is held back: not offered to its player, no bot
        makes it, no move is taken (a successor waits for the players' hands:
        ``authority.takeover``)."""
        return False

    def release_offer(self, now: float) -> frozenset[int] | None:
        """If a decision held back may be offered from ``now``, offer it (its clock
        starts) and say whose hands changed while it was held, by colour (their players
        are to be told their hands again); None: nothing was released."""
        return None

    def start_problem(self) -> str | None:
        """Why the table cannot start now, or None when it can."""
        if self.phase is not Phase.LOBBY:
            return "the game has already started"
        return self.variant.rules.start_problem(len(self.players), len(self.free_colours()))

    # -- joining and leaving ----------------------------------------------------------

    def _touch(self) -> None:
        self.revision += 1

    touch = _touch  # (the lobby's other rules: ``authority.swaps``)

    def drop_swaps(self, pid: int) -> None:
        """Forget the ask to trade colours that player ``pid`` takes part in."""
        for asker, asked in list(self.swaps.items()):
            if pid in (asker, asked):
                del self.swaps[asker]

    def join(self, conn: int | None, name: str) -> tuple[Player, bytes]:
        """Seat a new person; returns the player and their secret token.

        ``conn`` None seats someone who will connect later with the token (the host's
        own player)."""
        if self.phase is not Phase.LOBBY:
            raise JoinRefused(RefuseReason.STARTED, "the game has started and has no free seat")
        if any(p.name.casefold() == name.casefold() for p in self.players.values()):
            raise JoinRefused(RefuseReason.NAME_TAKEN, f"the name {name!r} is taken at this table")
        free = self.free_colours()
        if len(self.players) >= self.config.seats or not free:
            raise JoinRefused(RefuseReason.FULL, "every seat at this table is taken")
        token = secrets.token_bytes(TOKEN_BYTES)
        player = Player(self._new_pid(), name, free[0], token_hash=token_hash(token), conn=conn)
        self.players[player.pid] = player
        self._touch()
        return player, token

    def player_by_token(self, token: bytes) -> Player | None:
        digest = token_hash(token)
        for p in self.players.values():
            if p.token_hash is not None and hmac.compare_digest(p.token_hash, digest):
                return p
        return None

    def reclaim(self, conn: int, token: bytes, now: float) -> Player:
        """Bind ``conn`` to the seat whose token this is (any earlier connection loses it)."""
        player = self.player_by_token(token)
        if player is None:
            raise JoinRefused(RefuseReason.BAD_TOKEN, "that seat token is not valid at this table")
        player.conn = conn
        player.away_since = None
        if player.covered:  # the seat a bot played is the person's again
            player.covered = False
            if self.journal is not None and self.phase is Phase.PLAYING:
                self.journal.back(player.colour, player.name)
        self._touch()
        return player

    def spectate(self, conn: int) -> None:
        if len(self.spectators) >= self.config.max_spectators:
            raise JoinRefused(
                RefuseReason.NO_SPECTATORS, "this table has no room for more spectators"
            )
        self.spectators.add(conn)
        self._touch()

    def disconnect(self, conn: int, now: float, quit: bool = False) -> None:
        """A connection is gone: in the lobby and after a game a seat is freed after the
        grace period (at once if the player said bye: they left); in a game the seat
        waits for its owner."""
        self.spectators.discard(conn)
        player = self.player_of(conn)
        if player is None:
            return
        player.conn = None
        self.drop_swaps(player.pid)
        if quit and self.phase is not Phase.PLAYING:
            self._free(player)
            self._settle_rematch()
        else:
            player.away_since = now
        self._touch()

    def _free(self, player: Player) -> None:
        """Give ``player``'s seat up (they left, or stayed away past the grace)."""
        del self.players[player.pid]
        self.drop_swaps(player.pid)
        if self.owner == player.pid:
            self.owner = None

    def _new_pid(self) -> int:
        """The next pid no seat holds, going round after the wire's largest (PID_MAX), so
        a long lobby's comings and goings never run out of them."""
        pid = self._next_pid
        while pid in self.players:
            pid = (pid + 1) % (PID_MAX + 1)
        self._next_pid = (pid + 1) % (PID_MAX + 1)
        return pid

    # -- the lobby ------------------------------------------------------------------

    def lobby_player(self, conn: int) -> Player:
        """The player on ``conn``, refused unless it is seated and the table in its lobby."""
        player = self.player_of(conn)
        if player is None:
            raise RequestRefused(ErrorReason.FORBIDDEN, "spectators cannot do that")
        if self.phase is not Phase.LOBBY:
            raise RequestRefused(ErrorReason.UNEXPECTED, "only in the lobby")
        return player

    def _owner_only(self, conn: int | None) -> None:
        if conn is None:
            return  # the host application itself
        player = self.player_of(conn)
        if player is None or player.pid != self.owner:
            raise RequestRefused(ErrorReason.FORBIDDEN, "only the host can do that")
        if self.phase is not Phase.LOBBY:
            raise RequestRefused(ErrorReason.UNEXPECTED, "only in the lobby")

    def choose_colour(self, conn: int, colour: int) -> None:
        player = self.lobby_player(conn)
        if player.colour == colour:
            return
        if colour not in self.free_colours():
            raise RequestRefused(ErrorReason.COLOUR_TAKEN, "that colour is taken")
        player.colour = colour
        self.drop_swaps(player.pid)
        self._touch()

    def set_profile(self, conn: int, lang: str | None, program: bool) -> None:
        """What a seated player told of itself (its ``profile``), for the roster; in any
        phase.  A connection without a seat changes nothing (the session lets only
        players send it)."""
        player = self.player_of(conn)
        lang = None if lang is None else canonical_lang(lang)  # SPEC section 3: case is noise
        if player is None or (player.lang, player.program) == (lang, program):
            return
        player.lang, player.program = lang, program
        self._touch()

    def set_ready(self, conn: int, ready: bool) -> None:
        """Ready (or not) to start.  Outside the lobby it changes nothing: it may have
        crossed the start of the game (SPEC section 5)."""
        player = self.player_of(conn)
        if player is None:
            raise RequestRefused(ErrorReason.FORBIDDEN, "spectators cannot do that")
        if self.phase is not Phase.LOBBY:
            return
        player.ready = ready
        self._touch()

    def add_bot(self, conn: int | None, colour: int | None = None, level: str | None = None
                ) -> Player:
        """Seat a bot of strength ``level`` (None or empty: the table's ``bot_level``)."""
        self._owner_only(conn)
        try:
            level = parse_strength(level or self.config.bot_level)
        except UnknownBotError as exc:
            raise RequestRefused(ErrorReason.BAD_VALUE, str(exc)) from None
        free = self.free_colours()
        if len(self.players) >= NUM_COLOURS or not free:
            # colour_taken (not the fatal bad_value): whichever colour was asked for is held
            raise RequestRefused(ErrorReason.COLOUR_TAKEN, "every seat is taken")
        if colour is None:
            colour = free[0]
        elif colour not in free:
            raise RequestRefused(ErrorReason.COLOUR_TAKEN, "that colour is taken")
        names = {p.name for p in self.players.values()}
        n = 1
        while any(name.endswith(f"bot {n}") for name in names):
            n += 1
        # The name shows the strength in every lobby and on every board.
        bot = Player(self._new_pid(), bot_name(level, n), colour, bot=True, level=level,
                     ready=True)
        self.players[bot.pid] = bot
        self._touch()
        return bot

    def remove_bot(self, conn: int | None, pid: int) -> None:
        self._owner_only(conn)
        player = self.players.get(pid)
        if player is None or not player.bot:
            raise RequestRefused(ErrorReason.BAD_VALUE, "no such bot")
        del self.players[pid]
        self._touch()

    def set_variant(self, conn: int | None, variant: Variant) -> None:
        self._owner_only(conn)
        self.config.variant = variant
        self._touch()

    def can_auto_start(self) -> bool:
        return (
            self.config.auto_start
            and self.phase is Phase.LOBBY
            and len(self.players) >= self.config.seats
            and self.start_problem() is None
        )

    def say(self, conn: int, text: str) -> Player:
        """A seated player says ``text``; during a game the line is journalled and kept
        (the last :data:`CHAT_KEPT`), in the lobby kept apart.  Returns the speaker."""
        player = self.player_of(conn)
        if player is None:  # the session lets only seated players chat
            raise RequestRefused(ErrorReason.FORBIDDEN, "spectators cannot chat")
        if self.game is not None and self.phase is not Phase.LOBBY:
            if self.journal is not None:
                self.journal.chat(player.colour, text)  # a resumed game keeps its chat
            self.chat.append((player.colour, text))
            del self.chat[:-CHAT_KEPT]
        elif self.phase is Phase.LOBBY:
            self.lobby_chat.append((player.pid, text))
            del self.lobby_chat[:-CHAT_KEPT]
        return player

    def start(self, conn: int | None, now: float) -> list[Event]:
        """Start the game (bots fill a team table); the owner asks, or the host itself."""
        self._owner_only(conn)
        problem = self.start_problem()
        if problem is not None:
            raise RequestRefused(ErrorReason.NOT_READY, problem)
        if self.variant.rules.fills_with_bots:
            while self.free_colours():
                self.add_bot(None)
        return self._new_game(now)

    def _new_game(self, now: float) -> list[Event]:
        seed = game_seed(self.config.seed, self.games_played)
        if seed is None:
            seed = self._seed_source()
        seated = sorted(p.colour for p in self.players.values())
        first = self.last_winner if self.last_winner in seated else None
        # State ids grow for the table's life: a new game numbers on from the last.
        first_sid = 0 if self.game is None else self.game.state_id
        game = Game(self.variant, seated, seed=seed, first=first, first_sid=first_sid)
        self.played_by = {p.colour: p.name for p in self.players.values()}
        if self.journal is not None:
            self.journal.game(
                game,
                {p.colour: p.name for p in self.players.values()},
                [p.colour for p in self.players.values() if p.bot],
                {p.colour: p.token_hash for p in self.players.values() if p.token_hash},
                owner=None if self.owner not in self.players else self.players[self.owner].colour,
                first_arg=first,
                table=self.config.title,
                host=self.config.host_name,
                levels={p.colour: p.level for p in self.players.values() if p.bot},
                tid=self.tid or None,
                epoch=self.epoch,
            )
        events = game.start()
        self.game = game
        self.chat = []  # each game's chat is its own (as its journal's is)
        self.lobby_chat = []
        self.swaps.clear()
        self.phase = Phase.PLAYING
        self.games_played += 1
        for p in self.players.values():
            p.rematch = False
            p.covered = False  # each game journals its own covers
        self.decision_since = now
        self._touch()
        return events

    def ask_rematch(self, conn: int, now: float) -> None:
        """A seated player asks for another game (the roster shows it).  The owner's ask
        opens the next game's lobby with the same seats; at a headless table it opens
        once every person seated asked (see :meth:`_settle_rematch`)."""
        player = self.player_of(conn)
        if player is None:
            raise RequestRefused(ErrorReason.FORBIDDEN, "spectators cannot ask for a rematch")
        if self.phase is not Phase.FINISHED:
            raise RequestRefused(ErrorReason.UNEXPECTED, "the game is not over")
        player.rematch = True
        self._touch()
        if player.pid == self.owner:
            self._open_lobby()
        else:
            self._settle_rematch()

    def _settle_rematch(self) -> None:
        """A headless table after a game: open the next game's lobby once every person
        still seated asked for it (someone away holds it up until they come back or
        their seat is freed).  Nobody is pulled into a game they did not ask for."""
        if self.phase is not Phase.FINISHED or self.owner is not None:
            return
        people = [p for p in self.players.values() if not p.bot]
        if people and all(p.rematch for p in people):
            self._open_lobby()

    def _open_lobby(self) -> None:
        """Back to the lobby after a game, with the same seats: whoever asked for a
        rematch (and every bot) is ready; anyone may change colour, get ready or leave,
        a free seat may be taken, and the owner starts the game (a headless table
        starts by itself once its seats are taken)."""
        self.phase = Phase.LOBBY
        self.chat = []  # the last game's chat stays with that game
        self.lobby_chat = []
        for p in self.players.values():
            p.ready = p.bot or p.rematch
            p.rematch = False
        self._touch()

    # -- the game -----------------------------------------------------------------------

    def on_turn(self, conn: int, doing: str) -> tuple[Player, Game]:
        """The seated player on ``conn`` and the game, when the decision now is that
        player's (a game under way, not paused, its offer not held back); otherwise
        :class:`RequestRefused` says why ``doing`` (a verb: "move") cannot be done."""
        player = self.player_of(conn)
        if player is None:
            raise RequestRefused(ErrorReason.FORBIDDEN, f"only a seated player can {doing}")
        game = self.game
        if self.phase is not Phase.PLAYING or game is None:
            raise RequestRefused(ErrorReason.UNEXPECTED, "no game is being played")
        if self.paused_at is not None:
            raise RequestRefused(ErrorReason.UNEXPECTED, PAUSED_TEXT)
        if self.offer_held():
            raise RequestRefused(ErrorReason.UNEXPECTED, HELD_TEXT)
        if game.turn != player.colour:
            raise RequestRefused(ErrorReason.NOT_YOUR_TURN, "it is not your turn")
        return player, game

    def play(self, conn: int, sid: int, move_id: int, now: float) -> list[Event]:
        """Play legal move ``move_id`` of state ``sid`` for the seat bound to ``conn``."""
        _player, game = self.on_turn(conn, "move")
        if sid != game.state_id:
            raise RequestRefused(
                ErrorReason.STALE, f"move for state {sid}; the game is at {game.state_id}"
            )
        moves = game.legal_moves()
        if not 0 <= move_id < len(moves):
            raise RequestRefused(ErrorReason.ILLEGAL, f"there is no legal move {move_id}")
        return self._apply(moves[move_id], now)

    def _apply(self, move: Move, now: float) -> list[Event]:
        game = self.game
        assert game is not None
        sid = game.state_id
        events = game.play(move)
        if self.journal is not None:
            self.journal.move(sid, move.compact(), ended=game.over)
        self.decision_since = now
        if game.over:
            self.phase = Phase.FINISHED
            self.last_winner = game.winner
            for p in self.players.values():  # a seat given up counts its grace from now
                if p.away_since is not None:
                    p.away_since = now
            self._touch()
        return events

    def _bot_due(self, now: float) -> float | None:
        """When a bot should move for the player to move (None: wait for a person)."""
        game = self.game
        if (self.phase is not Phase.PLAYING or game is None or self.paused_at is not None
                or self.offer_held()):  # fmt: skip
            return None
        player = self.by_colour(game.turn)
        if player is None:
            return self.decision_since
        start = self.decision_since + self.config.bot_delay
        if player.bot:
            return start
        due: float | None = None
        if player.away_since is not None:
            due = max(start, player.away_since + self.config.grace)
        timeout = self.turn_deadline()
        if timeout is not None:
            due = timeout if due is None else min(due, timeout)
        return due

    def turn_deadline(self) -> float | None:
        """When the turn timer of the decision on turn runs out (None: no timer), more
        time given counted in; whether a game is on is the caller's to know."""
        limit = self.config.turn_timeout
        if limit is None:
            return None
        more = self.game is not None and self.extended == self.game.state_id
        return self.decision_since + limit * (2 if more else 1)

    def _seat_expiry(self) -> float | None:
        """When a seat given up in the lobby or after a game is next freed (during a
        game a seat waits for its owner)."""
        if self.phase is Phase.PLAYING:
            return None
        times = [
            p.away_since + self.config.grace
            for p in self.players.values()
            if p.away_since is not None and not p.bot
        ]
        return min(times, default=None)

    def next_deadline(self) -> float | None:
        """The time :meth:`tick` next has work to do, or None."""
        times = [t for t in (self._bot_due(0.0), self._seat_expiry()) if t is not None]
        return min(times, default=None)

    def tick(
        self, now: float, on_move: Callable[[Move, list[Event]], None] | None = None,
        bots: bool = True,
    ) -> list[tuple[Move | None, list[Event]]]:
        """Do what is due: lobby seats given up and (unless ``bots`` is false: then the
        caller runs :meth:`bot_turn` itself) bot moves, each with its events.

        ``on_move`` is called after each bot move, before the next one is chosen, so
        that each can be told while the game is still at that move's state."""
        out: list[tuple[Move | None, list[Event]]] = []
        expiry = self._seat_expiry()
        if expiry is not None and expiry <= now:
            for p in list(self.players.values()):
                if p.away_since is not None and p.away_since + self.config.grace <= now:
                    self._free(p)
            self._settle_rematch()
            self._touch()
        while bots:
            turn = self.bot_turn(now)
            if turn is None:
                break
            move = turn.decide_or_fall_back()
            self._note_cover(turn)
            events = self._apply(move, now)
            out.append((move, events))
            if on_move is not None:
                on_move(move, events)
        return out

    def bot_turn(self, now: float) -> BotTurn | None:
        """The decision a bot is due to make now (for a bot's seat, or a person who is
        away or too slow), or None.  :meth:`BotTurn.decide` may run on another thread:
        it reads only its own copies; :meth:`play_bot` then plays its answer."""
        due = self._bot_due(now)
        if due is None or due > now:
            return None
        game = self.game
        assert game is not None
        player = self.by_colour(game.turn)
        level = player.level if player is not None and player.bot else self.config.bot_level
        return BotTurn(self.games_played, game.state_id, level, self.config.bot_budget,
                       position_of(game), tuple(game.legal_moves()))

    def play_bot(self, turn: BotTurn, move: Move, now: float) -> list[Event] | None:
        """Play ``move``, decided for ``turn``, if that decision is still the one due
        (None when the game moved on meanwhile, e.g. the player came back and moved)."""
        current = self.bot_turn(now)
        if current is None or (current.game, current.sid) != (turn.game, turn.sid):
            return None
        if self.game is None or move not in self.game.legal_moves():
            return None
        self._note_cover(turn)
        return self._apply(move, now)

    def _note_cover(self, turn: BotTurn) -> None:
        """A bot is about to move for the seat on turn: if its person is away and no
        bot has covered them since they went, journal that one now does."""
        game = self.game
        player = None if game is None else self.by_colour(game.turn)
        if player is None or player.bot or player.away_since is None or player.covered:
            return
        player.covered = True
        if self.journal is not None:
            self.journal.cover(player.colour, turn.level)

    def bot_move(self) -> Move:
        """The move a bot would play for the player to move now."""
        game = self.game
        assert game is not None
        player = self.by_colour(game.turn)
        level = player.level if player is not None and player.bot else self.config.bot_level
        return BotTurn(self.games_played, game.state_id, level, self.config.bot_budget,
                       position_of(game), tuple(game.legal_moves())).decide_or_fall_back()

    def pause(self, now: float) -> None:
        """The game waits from ``now`` (the host is cut off): no move, no turn clock."""
        if self.paused_at is None:
            self.paused_at = now

    def resume(self, now: float) -> None:
        """The game goes on at ``now``: the time it waited counts against nobody (the
        turn clock, and an away player's grace, go on from where they stood)."""
        since = self.paused_at
        if since is None:
            return
        self.paused_at = None
        self.decision_since = now - max(0.0, since - self.decision_since)
        if self.phase is Phase.PLAYING:
            for p in self.players.values():
                if p.away_since is not None:
                    p.away_since = now - max(0.0, since - p.away_since)

    def new_token(self, pid: int) -> bytes:
        """Give seat ``pid`` a fresh token (the old one stops working); journalled."""
        player = self.players[pid]
        token = secrets.token_bytes(TOKEN_BYTES)
        player.token_hash = token_hash(token)
        if self.journal is not None and self.phase is not Phase.LOBBY:
            self.journal.seat(player.colour, player.name, player.token_hash)
        return token

    # -- resume -------------------------------------------------------------------------

    @classmethod
    def restore(
        cls, config: TableConfig, restored: Restored, now: float, journal: Recorder | None
    ) -> Table:
        """A table holding a game rebuilt from its journal; every person is away (their
        grace period starts now) until they come back with their token."""
        game = restored.game
        config.variant = game.variant
        table = cls(config, journal)
        for colour in game.seated:
            pid = table._new_pid()
            bot = colour in restored.bots
            name = restored.names.get(colour, f"player {pid + 1}")
            table.players[pid] = Player(
                pid,
                name,
                colour,
                bot=bot,
                level=restored.levels.get(colour) or level_of(name) or config.bot_level,
                token_hash=None if bot else restored.tokens.get(colour),
                away_since=None if bot else now,
                ready=True,
            )
            if colour == restored.owner:
                table.owner = pid
        table.played_by = {p.colour: p.name for p in table.players.values()}
        table.game = game
        table.games_played = restored.games
        table.phase = Phase.FINISHED if game.over else Phase.PLAYING
        table.last_winner = game.winner
        table.decision_since = now
        table.chat = restored.chat[-CHAT_KEPT:]
        table.history = list(restored.history)
        return table


# -- what the table keeps of seats and games (its journal writes and reads the same) ------


def token_hash(token: bytes) -> str:
    """The hex SHA-256 of a seat token: what the table and its journal keep instead."""
    return hashlib.sha256(token).hexdigest()


class Recorder(Protocol):
    """Where a table writes what it must not forget (the host's journal file)."""

    def game(
        self,
        game: Game,
        names: Mapping[int, str],
        bots: Sequence[int],
        tokens: Mapping[int, str],
        owner: int | None = None,
        first_arg: int | None = None,
        table: str | None = None,
        host: str | None = None,
        levels: Mapping[int, str] | None = None,
        tid: str | None = None,
        epoch: int | None = None,
    ) -> None: ...

    def move(self, state_id: int, compact: Sequence[int], ended: bool = False) -> None: ...

    def seat(self, colour: int, name: str, token: str | None) -> None: ...

    def cover(self, colour: int, level: str) -> None: ...

    def back(self, colour: int, name: str) -> None: ...

    def chat(self, colour: int, text: str) -> None: ...


@dataclass
class Restored:
    """A game rebuilt from a journal, with who sat where."""

    game: Game
    names: dict[int, str]
    bots: set[int]
    tokens: dict[int, str]  # colour -> token hash
    owner: int | None = None  # the colour of the host's own player
    moves: int = 0
    games: int = 0  # how many games the journal holds (rematches included)
    history: list[dict[str, Any]] = field(default_factory=list)  # the game's records
    levels: dict[int, str] = field(default_factory=dict)  # colour -> a bot's strength
    table: str | None = None  # the table's name, if recorded
    host: str | None = None  # who hosted it, if recorded
    started: float | None = None  # when the game started (Unix seconds), if recorded
    chat: list[tuple[int, str]] = field(default_factory=list)  # (colour, text), in order
    ended: bool = False  # an end mark follows the game's last record
