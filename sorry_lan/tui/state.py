"""What the client shows, as plain data, and the interface back to the network layer.

:class:`UiState` is everything the screens draw: which screen is up, the games found,
the lobby's seats, the game (position, card, legal moves, log, chat), the connection
status.  The network layer updates it, then calls ``app.invalidate()``.  The player's
choices go the other way through an object implementing :class:`Actions`.

Nothing here imports prompt_toolkit, and nothing here talks to the network.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from sorry_lan.i18n import N_, _, words
from sorry_lan.replay import Replay, Tape
from sorry_lan.rules.board import START, Colour
from sorry_lan.rules.variants import Variant

from .board import BoardView, Highlights
from .menu import Entry, MoveMenu, SplitFirst, entry_preview
from .options import MoveOption, highlights_for
from .replay_hints import Costs

COLOUR_TITLES = tuple(c.label.capitalize() for c in Colour)  # "Red", ...
NO_GAME_YET = N_("no game to join yet")  # the find screen's notice; gone once a game shows up
LOG_LINES = 5000  # a whole game and more; the log scrolls back through them
CHAT_LINES = 100
DIGIT_PAUSE = 1.0  # seconds within which a second digit makes a two-digit entry number


class Screen(Enum):
    FIND = "find"
    LOBBY = "lobby"
    GAME = "game"
    OVER = "over"
    REPLAY = "replay"


class Link(Enum):
    """Connection state, always shown in the top bar."""

    OFFLINE = "offline"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    LOST = "lost"


def link_text(link: Link) -> str:
    """The connection state as the top bar says it, in the player's language."""
    return {
        Link.OFFLINE: _("not connected"),
        Link.CONNECTING: _("connecting..."),
        Link.CONNECTED: _("connected"),
        Link.RECONNECTING: _("reconnecting..."),
        Link.LOST: _("host lost"),
    }[link]


class Actions(Protocol):
    """The player's requests, implemented by the network layer.

    Every method must return quickly (schedule network work on the running event
    loop); results come back by updating :class:`UiState` and invalidating the app.
    """

    def join(self, address: str, name: str, pin: str, watch: bool = False) -> None: ...
    def choose_colour(self, colour: int) -> None: ...
    def ask_swap(self, colour: int | None) -> None: ...  # ask its holder; None: take back
    def answer_swap(self, accept: bool) -> None: ...
    def ready(self) -> None: ...
    def add_bot(self) -> None: ...
    def remove_bot(self) -> None: ...
    def cycle_bot(self) -> None: ...
    def set_variant(self, variant: Variant) -> None: ...
    def start(self) -> None: ...
    def play(self, move_id: int) -> None: ...
    def chat(self, text: str) -> None: ...
    def rematch(self) -> None: ...
    def reconnect(self) -> None: ...  # after "host lost": rejoin with the same seat
    def leave(self) -> None: ...
    def hint(self) -> None: ...  # h: the chances of the moves on offer (hints tables)
    def more_time(self) -> None: ...  # +: more time for this turn, once (version 6)


@dataclass
class FoundGame:
    """One row of the find screen."""

    title: str  # e.g. "alice's game"
    address: str  # host:port, passed to Actions.join
    detail: str = ""  # e.g. "2/4 players, standard, PIN"
    joinable: bool = True
    watch: bool = False  # not joinable, but Enter watches it (full, or under way)
    mine: bool = False  # the user holds a seat there (Enter takes it back)
    why: str = ""  # why it cannot be joined, in words


@dataclass
class Seat:
    colour: int
    name: str = ""  # empty: the seat is free
    bot: bool = False
    ready: bool = False
    you: bool = False
    host: bool = False
    lang: str | None = None  # the language the player reads (its profile's code)
    program: bool = False  # a program plays it over its own connection


def _never() -> bool:
    return False


@dataclass(frozen=True)
class HandOver:
    """How the table's host hands its table to another player's laptop (protocol
    version 4): ``possible`` says whether a laptop is connected to take it now;
    ``start`` hands it over (it returns at once; the host stops serving soon after).
    ``hosting`` says whether this laptop hosts the table although its player does not
    own it (a ``join`` player whose laptop took a headless table over): then its
    player is asked as the host is."""

    possible: Callable[[], bool]
    start: Callable[[], None]
    hosting: Callable[[], bool] = _never


@dataclass(frozen=True)
class PlayAlone:
    """How the person at a host cut off from most of the table's laptops plays on
    alone (issue 31): ``possible`` says whether its game is paused so; ``start``
    plays on (a game of its own from then on), False when there is nothing to choose."""

    possible: Callable[[], bool]
    start: Callable[[], bool]


@dataclass(frozen=True)
class AloneAsk:
    """A question about playing on alone, up on the board: ``answer`` takes the
    person's yes or no; ``cut_off``: the host's (its game paused), else a ``join``
    laptop's that nobody answers."""

    answer: Callable[[bool], None]
    cut_off: bool = False


@dataclass(frozen=True)
class RosterEntry:
    """One player as the last roster named them (for saying what changed)."""

    name: str
    colour: int | None
    bot: bool
    connected: bool
    ready: bool = False  # after a game: wants a rematch


@dataclass
class UiState:
    """Everything the screens show.  Mutated by the network layer and by key handlers."""

    screen: Screen = Screen.FIND
    link: Link = Link.OFFLINE
    link_hint: str = ""  # what the player can do about the connection
    hosted_by: str = ""  # who hosts the table now, once it moved to another laptop
    # In play for points the table just moved: its new host offers no move until the
    # players' hands are back (until the next move, or offer, is told)
    hands_awaited: bool = False
    notice: str = ""  # a one-line message (errors from the host, "not your turn", ...)
    # The people not ready the host's s last named: a second s starts, unless who is
    # not ready changed meanwhile (then it names them again)
    start_asked: tuple[str, ...] | None = None

    # find
    found: list[FoundGame] = field(default_factory=list)
    found_selected: int = 0
    searching: bool = True
    default_name: str = ""
    find_message: str = ""  # shown in place of the list (nothing found, no discovery)
    error: str = ""  # why the last join failed, shown on the find screen
    watch_offer: str = ""  # an address refused as full or started: Enter now watches it
    joining: bool = False  # a join is under way
    focus_field: str = ""  # "pin" or "name": the field the last refusal asks to change

    # lobby
    seats: list[Seat] = field(default_factory=lambda: [Seat(c) for c in range(4)])
    is_host: bool = False
    seat_limit: int = 4  # how many seats the table has (2..4)
    variant: Variant = Variant.STANDARD
    variants: tuple[Variant, ...] = tuple(Variant)
    game_title: str = ""
    lobby_info: str = ""  # e.g. how others can join this table
    lobby_qr: tuple[str, ...] = ()  # the phones' page's QR code, drawn beside the lobby
    phones_url: str | None = None  # the phones' page's address (the larger code's, ``p``)
    phones_visible: bool = False  # the phones' code shown large, in the lobby's place
    spectating: bool = False  # watching without a seat: no colour, ready, moves or rematch
    watchers: int = 0  # spectators at the table
    auto_start: bool = False  # no one hosts: the table starts when its seats are taken
    roster: dict[int, RosterEntry] = field(default_factory=dict)  # by pid, as last told
    # this machine's games: per person (casefolded name), won of their latest played
    form: dict[str, tuple[int, int]] = field(default_factory=dict)
    title_is_address: bool = False  # the title is the address joined; the lobby names it
    hints_on: bool = False  # the table allows hints (``host --hints``; its lobby says so)
    # trading colours (protocol version 6): whether the host hears asks, the asks
    # waiting as (asker's pid, asked pid), this seat's pid, and the colour held by
    # someone else last pressed (w asks its holder)
    swaps_on: bool = False
    swaps: tuple[tuple[int, int], ...] = ()
    me: int | None = None
    swap_colour: int | None = None

    # game
    you: int | None = None  # your colour; None for a spectator
    position: tuple[int, ...] = (START,) * 16
    seated: tuple[int, ...] = (0, 1, 2, 3)
    names: dict[int, str] = field(default_factory=dict)
    turn: int | None = None
    card: int | None = None  # the card being played, 1..13
    hand: tuple[int, ...] = ()  # play for points: your hand
    moves: list[MoveOption] = field(default_factory=list)  # every move offered, as offered
    # h: each offered move's chance to win (by option id), from this seat's view; the
    # menu then lists the moves best first
    hints: dict[int, float] = field(default_factory=dict)
    hinting: bool = False  # the hints are being worked out
    menu: MoveMenu = field(default_factory=lambda: MoveMenu(()))  # the moves as listed
    split: SplitFirst | None = None  # a split 7's first part chosen: its completions listed
    split_return: int = 0  # the top-level selection to go back to
    selected: int = 0  # index into entries()
    digits: str = ""  # the digits typed so far to pick an entry (12: entry 12)
    digits_at: float = 0.0  # when the last one was typed
    last_move: MoveOption | None = None
    scores: dict[int, int] = field(default_factory=dict)
    deadline: float | None = None  # time.monotonic() when the turn timer runs out
    # time.monotonic() when another laptop takes over from a host that stopped
    # answering (``quiet_heir`` False: when this laptop starts reconnecting); None: it answers
    quiet_until: float | None = None
    quiet_heir: bool = True
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    log_scroll: int = 0  # log lines scrolled back from the newest (PgUp/PgDn)
    log_view: bool = False  # the log takes the board's place (L toggles)
    chat: deque[str] = field(default_factory=lambda: deque(maxlen=CHAT_LINES))

    # what happened since your last move (the turn summary), and the bell
    since_last: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)  # since_last, shown on your turn
    sent_move: bool = False  # you chose this turn's move (else a bot moved for you)
    bell: bool = True  # ring when your turn comes (b toggles)
    bell_due: bool = False  # the app rings on its next redraw

    # game over
    winner: str = ""
    won: tuple[int, ...] = ()  # the winning colours (none: the game ended unwon)
    stats: dict[int, Counter[str]] = field(
        default_factory=lambda: {c: Counter() for c in range(4)}
    )  # per colour: turns, bumps, sorry, slides
    stats_partial: bool = False  # joined a game under way: the stats miss its start
    events_seen: int = 0  # events messages of this game logged by this process

    # replay: a game shown again (``replay_back``: the screen q goes back to; None:
    # the replay is all this board shows, and q quits)
    replay: Replay | None = None
    replay_back: Screen | None = None
    replay_goto: str = ""  # the digits of a turn number typed so far
    replay_costs: Costs | None = None  # what a hint makes of the replay's moves
    # The game just finished as a tape to replay (None, or it gives None: this board
    # cannot replay it); it may raise a RecordError, which the screen words.
    game_tape: Callable[[], Tape | None] | None = None

    # overlays
    help_visible: bool = False
    help_scroll: int = 0  # first help line shown (a short terminal scrolls the help)
    confirm_quit: bool = False
    # the host's way to hand its table over when it leaves (None: it cannot)
    hand_over: HandOver | None = None
    handed_over: bool = False  # the host left handing its table over
    # a host cut off: its person's way to play on alone (None: not a host with a person)
    play_alone: PlayAlone | None = None
    alone_ask: AloneAsk | None = None  # the question about playing on alone, while up
    left_lost: bool | None = None  # the player left while the host was lost (None: not left)
    chat_open: bool = False
    # the rules view (? then r): the whole rules of the variant, in the screen's place
    rules_visible: bool = False
    rules_scroll: int = 0  # first line shown
    rules_page: int = 20  # lines a page scrolls (set each time the view is drawn)

    # the language key: what words again, in the new language, the text kept above
    relabel: list[Callable[[], None]] = field(default_factory=list)

    # -- helpers used by the screens and the network layer --------------------------

    def board_view(self) -> BoardView:
        bottom = self.you if self.you is not None else 0
        return BoardView(self.position, frozenset(self.seated), bottom)

    def entries(self) -> tuple[Entry, ...]:
        """What the move list shows: the top level, or one first part's completions."""
        return self.split.completions if self.split is not None else self.menu.top

    def selected_entry(self) -> Entry | None:
        entries = self.entries()
        if not entries:
            return None
        return entries[max(0, min(self.selected, len(entries) - 1))]

    def selected_move(self) -> MoveOption | None:
        """The move Enter plays; None when nothing, or a split's first part, is highlighted."""
        entry = self.selected_entry()
        return entry if isinstance(entry, MoveOption) else None

    def highlights(self) -> Highlights:
        return highlights_for(entry_preview(self.selected_entry()), self.last_move)

    def select(self, index: int) -> bool:
        """Select entry ``index`` (0-based) of the list shown; False when there is none."""
        if 0 <= index < len(self.entries()):
            self.selected = index
            return True
        return False

    def type_digit(self, digit: str, now: float) -> bool:
        """Pick an entry by its number: a digit typed within :data:`DIGIT_PAUSE` of the
        last one extends the number (1 then 2: entry 12) when such an entry exists;
        else it starts a new number (0 alone: 10).  False when there is no such entry."""
        if self.digits and now - self.digits_at < DIGIT_PAUSE:
            longer = self.digits + digit
            if self.select(int(longer) - 1):
                self.digits, self.digits_at = longer, now
                return True
        self.digits, self.digits_at = digit, now
        return self.select(9 if digit == "0" else int(digit) - 1)

    def move_selection(self, delta: int) -> None:
        entries = self.entries()
        if entries:
            self.selected = (self.selected + delta) % len(entries)

    def open_split(self) -> bool:
        """List the completions of the highlighted first part; False if none is highlighted."""
        entry = self.selected_entry()
        if not isinstance(entry, SplitFirst):
            return False
        self.split_return = self.selected
        self.split = entry
        self.selected = 0
        return True

    def close_split(self) -> bool:
        """Back to the top level, the first part highlighted; False if already there."""
        if self.split is None:
            return False
        self.split = None
        self.selected = self.split_return
        return True

    def set_moves(self, moves: list[MoveOption]) -> None:
        """New legal moves (an empty list: not your turn); the top level, selection at 0.

        With a hand (play for points, :attr:`hand` set first) entries name their card."""
        self.moves = list(moves)
        self.hints = {}
        self.hinting = False
        self.menu = MoveMenu(self.moves, tagged=bool(self.hand))
        self.split = None
        self.split_return = 0
        self.selected = 0

    def show_hints(self, chances: dict[int, float]) -> None:
        """The hints for the moves on offer: the list again, best first, the best
        highlighted (from the top level)."""
        self.hints = dict(chances)
        self.hinting = False
        self.menu = MoveMenu(self.moves, tagged=bool(self.hand), chances=self.hints)
        self.split = None
        self.split_return = 0
        self.selected = 0

    def add_log(self, line: str) -> None:
        self.log.append(line)

    def add_chat(self, who: str, text: str) -> None:
        self.chat.append(f"{who}: {text}")

    def seconds_left(self, now: float | None = None) -> int | None:
        if self.deadline is None:
            return None
        left = self.deadline - (time.monotonic() if now is None else now)
        return max(0, int(left + 0.999))

    def quiet_left(self, now: float | None = None) -> int | None:
        """Seconds until another laptop takes over from a quiet host (None: it answers)."""
        if self.quiet_until is None or self.link is not Link.CONNECTED:
            return None
        left = self.quiet_until - (time.monotonic() if now is None else now)
        return max(0, int(left + 0.999))

    def player_name(self, colour: int) -> str:
        name = self.names.get(colour, "")
        title = words.colour_name(colour)
        return f"{title} ({name})" if name else title

    def your_turn(self) -> bool:
        return self.you is not None and self.turn == self.you and bool(self.moves)

    def thinking(self) -> int | None:
        """The colour of the bot the table is waiting for (it is deciding its move), or
        None: the lobby says which seats are bots, the turn whose it is."""
        colour = self.turn
        if colour is None or colour == self.you or self.moves or self.screen is not Screen.GAME:
            return None
        return colour if self.seats[colour].bot else None


def card_help(card: int) -> str:
    return words.card_help(card)
