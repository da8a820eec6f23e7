"""What the line mode says: each event from the host as one line of whole sentences.

:class:`Teller` follows one client's events in order (the lobby, the game's start,
each turn, the offer, chat, link news, game over and each player's figures, the
board's, once the whole game's are known) and keeps what it needs to word
them: who sits at which colour, the listener's colour, the moves on offer; the board
and the game's figures it reads from the client model's table view as of each event
(``ClientModel.view_at``): it keeps no board of its own.  :meth:`Teller.tell`
returns the lines for one event; :meth:`Teller.board`, :meth:`Teller.table` and
:meth:`Teller.offer` answer the ``board``, ``table`` and ``moves`` commands,
:func:`~.line_help.help_lines` the ``help`` command.  Every line names a person (a player or
"you") and ends like a sentence; no line shows a pawn token, a track number or an
arrow.

Pure: it reads the events and the :class:`~sorry_lan.client.model.ClientModel`'s
identity (pid, spectating) and views, prints nothing, sends nothing and touches no terminal
(:mod:`sorry_lan.tui.lines` is the I/O loop).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import assert_never

from sorry_lan.client.figures import Figures
from sorry_lan.client.model import (
    ClientEvent,
    ClientModel,
    Connection,
    GameRecord,
    ReplayMismatch,
    TableNews,
    TableNewsKind,
)
from sorry_lan.client.view import NO_VIEW, TableView
from sorry_lan.handbook import Handbook
from sorry_lan.i18n import _, language_name, ngettext, pgettext, words
from sorry_lan.i18n.coded import error_text, say
from sorry_lan.rules.board import (
    HOME,
    START,
    pawn_colour,
)
from sorry_lan.rules.moves import MoveKind
from sorry_lan.rules.variants import Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.records import EventKind, PlayerInfo

from .board_rows import pawn_row
from .line_help import hints_on_words, number_prompt
from .menu import percent
from .news import at_opening, roster_of, shown_name, table_news_template
from .options import BadMove, MoveOption, option_from_compact
from .result_sentences import figures_lines, points_lines, standings_lines
from .sentences import (
    SENTENCE_ENDS,
    People,
    card_words,
    events_played,
    move_words,
    opening,
    option_played,
    sentence,
    spoken_sorry,
)
from .state import RosterEntry
from .swap_words import swap_news
from .time_words import more_time_news

_KINDS = {int(k) for k in MoveKind}


#: Seconds left to choose when the listener is warned (offers with more time only).
WARN_AT = 10

#: How many moves an offer says at once, at most; ``more`` says the next ones.
MOVES_SAID = 3

#: Characters an offer says at once, at most, head and prompt included (under 20 s at
#: 180 words a minute): a move past them waits for ``more`` (the first is always said).
OFFER_CHARS = 270


def card_said(card: int) -> str:
    """A card of a hand as the line mode says it: its number, or Sorry! in the
    player's letters."""
    return spoken_sorry() if card == words.SORRY_CARD else str(card)


def your_hand(hand: Sequence[int]) -> str:
    """The listener's turn with a hand of cards, one sentence ("It is your turn: your
    hand is 1, 3 and Sorry!": a hand that ends in Sorry! ends the sentence with it)."""
    cards = words.join_names([card_said(c) for c in sorted(hand)])
    text = _("It is your turn: your hand is {cards}.").format(cards=cards)
    at = text.rfind(cards) + len(cards)
    rest = text[at:]
    if cards.endswith(SENTENCE_ENDS) and rest[:1] in SENTENCE_ENDS and not rest[1:].strip():
        return text[:at] + rest[1:]
    return text


def telling_order(offered: list[MoveOption]) -> list[MoveOption]:
    """The moves in the order a listener needs them: those that reach HOME, then those
    that bump, then those that leave START, then the rest, each group by pawn (the
    host's order otherwise kept)."""

    def rank(option: MoveOption) -> tuple[int, int]:
        parts = option.parts
        pawn = parts[0].pawn if parts else 99
        if any(p.end == HOME for p in parts):
            return 0, pawn
        if option.bumps:
            return 1, pawn
        if any(p.frm == START for p in parts):
            return 2, pawn
        return 3, pawn

    return sorted(offered, key=rank)


#: How many of the last turns ``repeat`` says again.
RECENT_TURNS = 8

#: Characters of sentences a second that the fastest listener hears (a screen reader
#: at some 500 words a minute in English; 180 words a minute is about 18).
FASTEST_HEARD_CHARS_PER_SECOND = 50.0


class Teller:
    """One listener's view of the table, worded; see the module docstring."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, typed: bool = True) -> None:
        self._clock = clock
        # (the listener types its commands; a phone's page taps buttons, so its lines
        # say no command to type)
        self.typed = typed
        self.view: TableView = NO_VIEW  # the table as of the last event told
        self.roster: dict[int, RosterEntry] = {}
        self.lobby: m.Lobby | None = None
        self.swap_answered: int | None = None  # whose ask to trade colours we answered
        self.names: dict[int, str] = {}
        self.you: int | None = None
        self.pid: int | None = None
        self.spectating = False
        self.seated: tuple[int, ...] = ()
        self.variant = Variant.STANDARD
        self.turn: int | None = None
        self.card: int | None = None
        self.hand: tuple[int, ...] = ()
        self.timeout: int | None = None
        self.offered: list[MoveOption] = []
        self.answered = False  # the listener chose a move on offer
        self.recent: deque[str] = deque(maxlen=RECENT_TURNS)  # the last turns said
        # A bot played the listener's last offer (its time ran out); the offer after it
        # was said at ``offer_said_at``, its move lines ending ``offer_ends`` characters in
        self.ran_out = False
        self.offer_after_run_out = False
        self.offer_said_at = 0.0
        self.offer_ends: tuple[int, ...] = ()
        self.said_moves = 0  # how many moves of the offer were said (``more`` says more)
        self.said_apart: set[int] = set()  # moves past those said by ``pawn N`` (from 1)
        self.warned = False  # the listener was told its time runs out
        self.time_ends: float | None = None  # the offer's end, on the clock, once extended
        self.scores: tuple[int, ...] = ()
        self.over: m.GameOver | None = None
        self.figures_told: Figures | None = None  # the figures told at the game's end
        # The game ended with a count begun late (not at its start) and the host's whole
        # record, which gives the whole game's, is on its way: the figures wait for it
        self.figures_owed = False
        self.waiting_on: int | None = None  # a bot's colour whose move has not come yet
        # In play for points the table just moved: the new host offers no move until
        # the players' hands are back (until a move, or an offer, is told)
        self.hands_awaited = False

    @property
    def position(self) -> tuple[int, ...]:
        """The board as of the last event told (the model's view: not kept here)."""
        return self.view.pawns

    @property
    def figures(self) -> Figures:
        """The game's figures as of the last event told (the model's history's)."""
        return self.view.figures

    # -- who is who ------------------------------------------------------------------

    @property
    def people(self) -> People:
        return People(self.names, self.you)

    def _name(self, colour: int) -> str:
        return self.people.name(colour)

    def _me(self) -> str:
        """The listener's own name (for lines addressed to them)."""
        if self.pid is not None and self.lobby is not None:
            for p in self.lobby.players:
                if p.pid == self.pid:
                    return p.name
        return self._name(self.you) if self.you is not None else _("you")

    def _away(self, colour: int) -> str | None:
        for entry in self.roster.values():
            if entry.colour == colour and not entry.bot and not entry.connected:
                return entry.name
        return None

    def _is_bot(self, colour: int) -> bool:
        return colour != self.you and any(
            e.bot and e.colour == colour for e in self.roster.values())

    def waits(self) -> bool:
        """Whether a move the table waits for is owed a word if it is slow to come (a
        bot's, or the listener's own first offer at a new host in play for points)."""
        return self.waiting_on is not None or self._hands_owed()

    def _hands_owed(self) -> bool:
        return self.hands_awaited and self.you is not None and self.turn == self.you

    def thinking(self) -> str | None:
        """Once per turn, while a bot's move (or, at a new host in play for points, the
        listener's own offer) is slow to come (the caller times it): who or what the
        table is waiting for."""
        if self._hands_owed() and not self.offered:
            self.hands_awaited = False
            return sentence(_("Your turn: waiting for the other players' hands"))
        colour, self.waiting_on = self.waiting_on, None
        if colour is None or self.over is not None:
            return None
        return sentence(_("{player} is thinking"), player=self._name(colour))

    # -- events ----------------------------------------------------------------------

    def tell(self, client: ClientModel, ev: ClientEvent) -> list[str]:
        """The lines for one event (the listener's state is updated first)."""
        self.pid = client.pid
        self.spectating = client.spectate
        self.swap_answered = client.swap_answered
        shown = self.view
        if not isinstance(ev, Connection):  # (the shell's news: the table as it was)
            self.view = client.view_at(ev)
        match ev:
            case m.Lobby():
                return self._lobby(ev)
            case m.Snapshot():
                return self._snapshot(ev, resumed=bool(shown.pawns) and self.over is None)
            case m.Turn():
                self.turn = int(ev.colour)
                self.card = None if ev.card is None else int(ev.card)
                if ev.hand is not None:
                    self.hand = tuple(int(c) for c in ev.hand)
                self.offered = []
                self.waiting_on = self.turn if self._is_bot(self.turn) else None
                return []  # the listener's offer, or the mover's play, says it
            case m.LegalMoves():
                self.hands_awaited = False
                self.offered = telling_order([self._option(o.move, o.id) for o in ev.moves])
                self.said_moves = 0
                self.said_apart = set()
                self.answered = self.warned = False
                self.timeout = ev.timeout
                self.time_ends = None
                lines = self.offer()
                self.offer_after_run_out, self.ran_out = self.ran_out, False
                self.offer_said_at = self._clock()
                ends = [sum(len(line) + 1 for line in lines[: i + 1]) for i in range(len(lines))]
                self.offer_ends = tuple(ends[1 : 1 + self.said_moves])  # (each move's line)
                return lines
            case m.MoreTime():
                return self._more_time(ev)
            case m.Events():
                self.waiting_on = None
                self.hands_awaited = False
                lines = self._events(ev)
                if ev.colour is not None and ev.colour == self.you:
                    self.offered = []  # the offer is answered (by us, or a bot in our time)
                return lines
            case m.GameOver():
                session = client.session
                records = session is not None and session.speaks(m.RecordPart.TYPE)
                return self._over(ev, records)
            case m.Rematch():
                return self._rematch()
            case m.Chat():  # the chat so far comes before the lobby the model already has
                return [self._chat(ev, self.lobby or client.lobby)]
            case m.Error():
                why = error_text(ev.reason.value, ev.text)
                return [sentence(_("The host refused your request: {why}"), why=why)]
            case Connection():
                return [sentence(_("Your connection: {news}"), news=say(ev.news))]
            case ReplayMismatch():
                return []  # a resync was asked: its snapshot follows
            case GameRecord():  # (the client process files it: ``sorry-lan games`` lists it)
                return self._recounted(ev)
            case TableNews():
                if ev.kind is TableNewsKind.HOST_CHANGED:
                    snap = client.snapshot
                    self.hands_awaited = (snap is not None and self.over is None
                                          and snap.variant.rules.deals_hands)  # fmt: skip
                template, name = table_news_template(ev)  # (a name keeps its case)
                return [sentence(template, name=name)]
            case _:
                assert_never(ev)

    def _rematch(self) -> list[str]:
        """The next game's lobby is open (with the same seats): who opened it, and for
        the host, how to begin it.  Nothing of the last game is kept."""
        self.offered, self.over, self.turn = [], None, None
        self.figures_told, self.figures_owed = None, False
        lobby = self.lobby
        host = None if lobby is None else lobby.host
        if host is None:
            text = _(
                "{name}, everyone asked for another game: its lobby is open, with the same seats."
            )
        elif host == self.pid:
            text = _(
                "{name}, you opened the next game's lobby, with the same seats; type "
                "{start} to begin it."
            )
        else:
            opener = next((p.name for p in lobby.players if p.pid == host), None) if lobby else None
            return [
                sentence(
                    _("{host} opened the next game's lobby, with the same seats"),
                    host=opener or _("The host"),
                )
            ]
        return [text.format(name=self._me(), start="start")]

    def _option(self, compact: Sequence[int], id: int) -> MoveOption:
        try:
            return option_from_compact(self.position, compact, id)
        except BadMove:  # told as the host offers it, without its parts
            values = tuple(int(v) for v in compact)
            kind = MoveKind(values[0]) if values and values[0] in _KINDS else MoveKind.SIMPLE
            card = values[1] if len(values) > 1 else 0
            return MoveOption(id, kind, card, values, "", "", ())

    def played(self) -> None:
        """The listener chose one of the moves on offer."""
        self.answered = True

    def _more_time(self, ev: m.MoreTime) -> list[str]:
        """A seat got more time: said to everyone; the listener's own offer now ends
        ``ev.left`` seconds from now, and its warning is armed again."""
        colour = int(ev.colour)
        mine = colour == self.you
        offer = self.view.offer
        if mine and self.offered and offer is not None and offer.sid == ev.sid:
            self.time_ends = self._clock() + ev.left
            self.warned = False
        return [more_time_news(None if mine else self._name(colour), ev.more)]

    def warning_in(self) -> float | None:
        """Seconds until the listener is to be warned that its time runs out (None: no
        warning to come: no offer with a time, answered, or warned already)."""
        if self.timeout is None or not self.offered or self.answered or self.warned:
            return None
        if self.time_ends is not None:
            return max(0.0, self.time_ends - WARN_AT - self._clock())
        if self.timeout <= WARN_AT:
            return None
        return max(0.0, self.offer_said_at + self.timeout - WARN_AT - self._clock())

    def warning(self) -> str | None:
        """The warning, once, when it is due: ``WARN_AT`` seconds are left to choose."""
        due = self.warning_in()
        if due is None or due > 0:
            return None
        self.warned = True
        return ngettext("{name}, {n} second left to choose.",
                        "{name}, {n} seconds left to choose.", WARN_AT).format(
            name=self._me(), n=WARN_AT)

    def unheard(self, number: int) -> bool:
        """Whether move ``number`` of the offer on the table can not have been heard yet:
        the offer came just after a bot played the listener's last turn, and its lines up
        to that move are still being said even at the fastest listening pace.  A number
        then was typed for the turn that ran out, and is not played on this one.  (A
        listener who answered the last offer, or a script, is never held up.)"""
        if not self.offer_after_run_out or not 1 <= number <= len(self.offer_ends):
            return False
        said_for = self._clock() - self.offer_said_at
        return said_for < self.offer_ends[number - 1] / FASTEST_HEARD_CHARS_PER_SECOND

    # -- the table -------------------------------------------------------------------

    def _lobby(self, lobby: m.Lobby) -> list[str]:
        first = self.lobby is None
        before = None if self.lobby is None else self.lobby.swaps
        old, new = self.roster, roster_of(lobby)
        variant_changed = self.lobby is not None and self.lobby.variant != lobby.variant
        self.lobby, self.roster = lobby, new
        self.names = {int(p.colour): shown_name(p) for p in lobby.players if p.colour is not None}
        if self.pid is not None and not self.spectating:
            mine = new.get(self.pid)
            if mine is not None and mine.colour is not None and self.over is None:
                self.you = mine.colour
        if first:
            return self.table()
        lines = roster_lines(old, new, self.pid, self.over is not None, self.typed)
        swaps = swap_news(before or (), old, lobby.swaps or (), new, self.pid, self.swap_answered)
        if any(b == self.pid for _a, b in lobby.swaps or ()) and not any(
                b == self.pid for _a, b in before or ()):  # fmt: skip
            swaps.append(_("Type accept or decline."))
        lines += swaps
        if variant_changed:
            lines.append(
                sentence(
                    _("{name}, the table now plays {variant}"),
                    name=self._me(),
                    variant=words.variant_title(lobby.variant.value),
                )
            )
        return lines

    def table(self) -> list[str]:
        """Who sits where at the table, and the game it plays (the ``table`` command)."""
        lobby = self.lobby
        if lobby is None:
            return [_("{name}, nothing is known of the table yet.").format(name=self._me())]
        seats = [self._seat(p, lobby) for p in lobby.players]
        lines = [
            sentence(
                _("The table plays {variant} for up to {seats} players: {players}"),
                variant=words.variant_title(lobby.variant.value),
                seats=lobby.seats,
                players=words.join_names(seats) or pgettext("table", "nobody yet"),
            )
        ]
        if lobby.spectators:
            lines.append(
                ngettext(
                    "{n} person is watching, {name}.",
                    "{n} people are watching, {name}.",
                    lobby.spectators,
                ).format(n=lobby.spectators, name=self._me())
            )
        if lobby.hints:
            lines.append(hints_on_words())
        return lines

    def hint_lines(self, chances: Mapping[int, float]) -> list[str]:
        """The hints for the offer (``hint``): each move's chance to win, best first,
        numbered as the offer numbers them."""
        numbered = [(i, o) for i, o in enumerate(self.offered, 1) if o.id in chances]
        numbered.sort(key=lambda item: -chances[item[1].id])
        lines = [sentence(_("{name}, the hints for your moves, best first"), name=self._me())]
        for i, option in numbered:
            move = move_words(option_played(option, self.position), self.people, self.you)
            lines.append(sentence(_("Move {i}: {chance} to win: {move}"), i=i,
                                  chance=percent(chances[option.id]), move=move))
        return lines

    def _seat(self, p: PlayerInfo, lobby: m.Lobby) -> str:
        notes = [
            pgettext("seat", "no colour yet")
            if p.colour is None
            else words.colour_name(int(p.colour)).lower()
        ]
        if p.pid == self.pid:
            notes.append(pgettext("seat", "you"))
        if lobby.host is not None and p.pid == lobby.host:
            notes.append(pgettext("seat", "the host"))
        if p.bot or p.program:
            notes.append(_("bot"))
        if p.lang:
            notes.append(language_name(p.lang))
        if not p.connected:
            notes.append(_("away"))
        return _("{name} ({notes})").format(name=shown_name(p), notes=", ".join(notes))

    # -- the game --------------------------------------------------------------------

    def _snapshot(self, snap: m.Snapshot, resumed: bool) -> list[str]:
        self.you = None if snap.you is None else int(snap.you)
        self.seated = tuple(int(c) for c in snap.colours)
        self.variant = snap.variant
        self.turn = None if snap.turn is None else int(snap.turn)
        self.card = None if snap.card is None else int(snap.card)
        self.hand = tuple(int(c) for c in snap.hand) if snap.hand else ()
        self.scores = tuple(snap.scores or ())
        self.offered, self.over = [], None
        players = words.join_names(
            [
                _("{name} plays {colour}").format(
                    name=self._name(c), colour=words.colour_name(c).lower()
                )
                for c in self.seated
            ]
        )
        fresh = at_opening(snap)
        if self.spectating:
            text = _("You are watching, and the game begins: {players}")
            if not fresh:
                text = _("You are watching a game under way: {players}")
        else:
            text = (
                _("The game begins: {players}")
                if fresh
                else _("You are back at the game in progress: {players}")
            )
        lines = [sentence(text, players=players)]
        lost = self._lost_at_opening(snap) if fresh else None
        if lost is not None:
            lines.append(lost)
        teams = self._teams()
        if teams:
            lines.append(teams)
        if not fresh or resumed:
            lines += self.board()
        return lines

    def _lost_at_opening(self, snap: m.Snapshot) -> str | None:
        """The turns lost before the first move (told in no events): who lost them,
        from the turn and the discard count, and the cards, from the discard pile (None:
        none lost, or a pile that says otherwise: a 1 or a 2 always leaves START)."""
        seated, lost = self.seated, snap.discards
        counts = snap.discarded or ()
        if not lost or snap.turn is None or int(snap.turn) not in seated:
            return None
        if any(counts[c] for c in (1, 2) if c < len(counts)):
            return None
        at = seated.index(int(snap.turn or 0)) - lost
        losers: dict[int, int] = {}
        for k in range(lost):
            colour = seated[(at + k) % len(seated)]
            losers[colour] = losers.get(colour, 0) + 1
        players = words.join_names([
            self._name(c) if n == 1 else ngettext("{name} ({n} turn)", "{name} ({n} turns)",
                                                  n).format(name=self._name(c), n=n)
            for c, n in losers.items()])  # fmt: skip
        cards = words.join_names([card_words(c) for c, k in enumerate(counts) for _n in range(k)])
        if not cards:
            return sentence(ngettext(
                "{n} turn was lost before the first move: {players} had no move",
                "{n} turns were lost before the first move: {players} had no move", lost),
                n=lost, players=players)  # fmt: skip
        return sentence(ngettext(
            "{n} turn was lost before the first move: {players} had no move, with {cards}",
            "{n} turns were lost before the first move: {players} had no move, with {cards}",
            lost), n=lost, players=players, cards=cards)  # fmt: skip

    def _teams(self) -> str:
        """Who plays with whom, when the variant pairs partners ("" if it does not)."""
        sides = []
        for c in self.seated:
            side = tuple(s for s in self.variant.rules.side(c) if s in self.seated)
            if len(side) > 1 and side not in sides and tuple(reversed(side)) not in sides:
                sides.append(side)
        if len(sides) != 2:
            return ""
        first, second = (words.join_names([self._name(c) for c in s]) for s in sides)
        return sentence(_("{first} play together, against {second}"), first=first, second=second)

    def offer(self) -> list[str]:
        """The listener's turn: the card (or the hand) and how many moves, then the
        first :data:`MOVES_SAID` moves numbered (the ``moves`` command repeats it).
        What the card allows is in ``board``; the rest of the moves on ``more``."""
        if not self.offered:
            if self.turn is not None and self.turn == self.you and self.over is None:
                return [
                    _("{name}, it is your turn; the moves are on their way.").format(
                        name=self._me()
                    )
                ]
            return [_("{name}, nothing is on offer: it is not your turn.").format(name=self._me())]
        name, n = self._me(), len(self.offered)
        if self.hand:  # (each move says its card; board says the hand)
            head = sentence(ngettext("{name}, your turn: {n} move", "{name}, your turn: {n} moves",
                                     n), name=name, n=n)  # fmt: skip
        elif self.card is not None:
            head = sentence(ngettext("{name}, your turn: {card}, {n} move",
                                     "{name}, your turn: {card}, {n} moves", n),
                            name=name, card=card_words(self.card), n=n)  # fmt: skip
        else:
            head = sentence(_("{name}, your turn"), name=name)
        if self.timeout is not None:
            head += " " + ngettext(
                "You have {n} second to choose.", "You have {n} seconds to choose.", self.timeout
            ).format(n=self.timeout)
        return [head, *self._moves_from(0, len(head))]

    def more(self) -> list[str]:
        """The ``more`` command: the next moves on offer not said yet."""
        if not self.offered:
            return self.offer()
        if self.said_moves >= len(self.offered):
            return [_("{name}, that was every move on offer.").format(name=self._me())]
        return self._moves_from(self.said_moves)

    def pawn_moves(self, n: int) -> list[str]:
        """The ``pawn N`` command: every move on offer that moves the listener's pawn
        ``n`` (1 to 4), each with its number in the offer, said or not yet."""
        if not self.offered:
            return self.offer()
        if not 1 <= n <= 4:
            return [_("{name}, your pawns are 1 to 4.").format(name=self._me())]
        numbered = [
            (i, option)
            for i, option in enumerate(self.offered, 1)
            if any(pawn_colour(p.pawn) == self.you and (p.pawn & 3) + 1 == n
                   for p in option.parts)
        ]  # fmt: skip
        if not numbered:
            return [_("{name}, no move on offer moves your pawn {n}.").format(name=self._me(), n=n)]
        lines = [self._move_line(i, option) for i, option in numbered]
        self.said_apart.update(i for i, _option in numbered if i > self.said_moves)
        unsaid = len(self.offered) - self.said_moves - len(self.said_apart)
        lines.append(number_prompt(more=unsaid > 0))
        return lines

    def _move_line(self, i: int, option: MoveOption) -> str:
        """Move ``i`` of the offer, as a sentence."""
        move = move_words(option_played(option, self.position), self.people, self.you)
        if self.hand:
            return sentence(
                _("Move {i}, with {card}: {move}"), i=i, card=card_said(option.card), move=move
            )
        return sentence(_("Move {i}: {move}"), i=i, move=move)

    def _moves_from(self, first: int, said: int = 0) -> list[str]:
        """The lines of the moves from the ``first`` (from 0), numbered, as many as fit
        :data:`MOVES_SAID` and :data:`OFFER_CHARS` after ``said`` characters, then what
        to type (and that ``more`` says the rest)."""
        lines: list[str] = []
        room = OFFER_CHARS - said - len(number_prompt(more=True))
        for i, option in enumerate(self.offered[first : first + MOVES_SAID], first + 1):
            text = self._move_line(i, option)
            room -= len(text) + 1
            if lines and room < 0:
                break
            lines.append(text)
        self.said_moves = max(self.said_moves, first + len(lines))
        lines.append(number_prompt(more=len(self.offered) > first + len(lines)))
        return lines

    def option_at(self, number: int) -> MoveOption | None:
        """The move said as ``number`` (from 1), if it was said."""
        said = number <= self.said_moves or number in self.said_apart
        if 1 <= number <= len(self.offered) and said:
            return self.offered[number - 1]
        return None

    def _events(self, ev: m.Events) -> list[str]:
        """One line a turn: the card played, or a lost turn or a discard (the turns
        that pass by themselves after it come in the same message), each with its
        second draw after a 2 and a reshuffle that follows it."""
        mover = None if ev.colour is None else int(ev.colour)
        lines: list[list[str]] = []
        waiting: list[str] = []  # a reshuffle before any turn: told with the next
        played = events_played(ev.events)
        if played is not None and mover is not None:
            card = card_words(played.card)
            what = move_words(played, self.people, mover)
            away = self._away(mover)
            if mover == self.you and self.offered and not self.answered:
                self.ran_out = True
                head = opening(_("Your time ran out, so a bot played {card} for you"), card=card)
            elif mover == self.you:
                head = opening(_("You played {card}"), card=card)
            elif away is not None:
                head = opening(_("A bot played {card} for {name}, who is away"), card=card,
                               name=away)
            else:
                head = opening(_("{who} played {card}"), who=self._name(mover), card=card)
            lines.append([sentence(_("{head}: {move}"), head=head, move=what)])
        for item in ev.events:
            kind = item[0]
            if kind in (EventKind.TURN_LOST, EventKind.DISCARD):
                lines.append([*waiting, self._turn_event(kind, int(item[1]), item)])
                waiting = []
            elif kind == EventKind.DRAW_AGAIN:
                said = self._turn_event(kind, int(item[1]), item)
                (lines[-1] if lines else waiting).append(said)
            elif kind == EventKind.RESHUFFLE:
                said = sentence(words.reshuffle_line(int(item[1])))
                (lines[-1] if lines else waiting).append(said)
        if waiting:
            lines.append(waiting)
        told = [" ".join(line) for line in lines]
        self.recent.extend(told)
        return told

    def repeat(self) -> list[str]:
        """The ``repeat`` command: the last turns said again, oldest first."""
        if not self.recent:
            return [_("{name}, no turn has been played yet.").format(name=self._me())]
        return list(self.recent)

    def rules(self, book: Handbook, part: str) -> list[str]:
        """The ``rules`` command: the parts of the rules of this table's game, numbered
        (``part`` empty), or the paragraphs of part number ``part``."""
        variant = self.lobby.variant if self.lobby is not None else self.variant
        parts = [(book.title, book.intro), *(
            (sec.title, sec.paragraphs) for sec in book.sections_for(variant.value))]
        if not part.strip():
            titles = "; ".join(f"{n}: {title}" for n, (title, _p) in enumerate(parts, 1))
            return [
                ngettext("The rules have {n} part: {titles}.",
                         "The rules have {n} parts: {titles}.", len(parts)).format(
                    n=len(parts), titles=titles),
                _("Type rules and a number to hear that part."),
            ]
        chosen = part.strip()
        if not chosen.isdigit() or not 1 <= int(chosen) <= len(parts):
            raise ValueError(
                ngettext("the rules have {n} part: type rules and its number",
                         "the rules have {n} parts: type rules and a number from 1 to {n}",
                         len(parts)).format(n=len(parts)))
        title, paragraphs = parts[int(chosen) - 1]
        return [sentence(title), *(p.text for p in paragraphs)]

    def _turn_event(self, kind: int, colour: int, item: Sequence[int]) -> str:
        you = colour == self.you
        if kind == EventKind.DRAW_AGAIN:
            if you:
                return sentence(_("You draw again."))
            return sentence(_("{who} draws again."), who=self._name(colour))
        card = card_words(int(item[2]))
        if kind == EventKind.DISCARD:
            text = _("You discarded {card}") if you else _("{who} discarded {card}")
        elif item[2] == 11:
            text = (
                _("You drew {card} and made no move, so your turn is over")
                if you
                else _("{who} drew {card} and made no move, so the turn is over")
            )
        else:
            text = (
                _("You drew {card} and have no move, so your turn is lost")
                if you
                else _("{who} drew {card} and has no move, so the turn is lost")
            )
        return sentence(text, who=self._name(colour), card=card)

    def _over(self, over: m.GameOver, records: bool) -> list[str]:
        """The result; the figures too, unless the count began late and the host's
        whole record (``records``: the host sends one) will give the whole game's."""
        self.over = over
        self.offered = []
        self.turn = None
        if over.scores is not None:
            self.scores = tuple(over.scores)
        self.figures_owed = records and not self.view.history.whole
        if self.figures_owed:
            return self.result(figures=False)
        self.figures_told = self.figures
        return self.result()

    def result(self, figures: bool = True) -> list[str]:
        """Who won, the points if the game counts them, each player's figures (unless
        not ``figures``), and what comes next."""
        over = self.over
        if over is None:
            return []
        winners = [int(c) for c in over.winners]
        names = [self._name(c) for c in winners]
        if names:
            text = ngettext(
                "The game is over: {names} won.", "The game is over: {names} won.", len(names)
            ).format(names=words.join_names(names))
        else:
            text = _("The host ended the game, {name}, before anyone won.").format(
                name=self._me()
            )
        if self.you is not None and self.you in winners:
            text += " " + _("Well played, {name}!").format(name=self._me())
        lines = [text, *standings_lines(self.variant, self.position, self.seated, winners,
                                        self.scores, self._name),
                 *(self._figures() if figures else ())]
        if not self.spectating and self.typed:
            lines.append(
                _("{name}, type rematch to play again, or quit to leave.").format(name=self._me())
            )
        return lines

    def _figures(self) -> list[str]:
        """Each player's figures, from the view as of the last event told."""
        return figures_lines(self.figures, self.seated, self.view.history.whole, self._name)

    def _recounted(self, got: GameRecord) -> list[str]:
        """After the game's end, the host's whole record: the figures owed, or said
        again when the record changed them (this client's count began late)."""
        if self.over is None or not got.whole:
            return []
        if not self.figures_owed and self.figures == self.figures_told:
            return []
        self.figures_owed, self.figures_told = False, self.figures
        return self._figures()

    def _chat(self, chat: m.Chat, lobby: m.Lobby | None) -> str:
        who = _("The host")
        if chat.pid is not None:
            who = _("player {pid}").format(pid=chat.pid)
            for p in lobby.players if lobby is not None else ():
                if p.pid == chat.pid:
                    who = shown_name(p)
        return sentence(_("{who} says: {text}"), who=who, text=chat.text.strip())

    # -- where everyone is -----------------------------------------------------------

    def board(self) -> list[str]:
        """Where every pawn is, each colour one sentence, then whose turn it is."""
        if not self.position or not self.seated:
            return self.table()
        lines = [pawn_row(self.position, c, self.you, self._name) for c in self.seated]
        if self.over is not None:
            return lines + self.result()
        lines += points_lines(self.variant, self.seated, self.scores, self._name)
        if self.turn is not None:
            card = None if self.card is None else card_words(self.card)
            allows = "" if self.card is None else words.card_help(self.card)
            if self.turn == self.you and self.hand:
                lines.append(your_hand(self.hand))
                return lines
            if self.turn == self.you and card and allows:
                # i18n: {allows} says what the card lets a player do ("move 11, or swap
                # with an opponent")
                text = _("It is your turn, with {card} ({allows}).")
            elif self.turn == self.you:
                text = _("It is your turn, with {card}.") if card else _("It is your turn.")
            else:
                text = _("It is {name}'s turn, with {card}.") if card else _("It is {name}'s turn.")
            lines.append(text.format(name=self._name(self.turn), card=card, allows=allows))
        return lines


def roster_lines(
    old: dict[int, RosterEntry], new: dict[int, RosterEntry], you: int | None, over: bool,
    typed: bool = True,
) -> list[str]:
    """What changed at the table from ``old`` to ``new``, one sentence each (``you``: the
    listener's pid; ``over``: after a game, when ``ready`` means "wants a rematch";
    ``typed``: the listener types its commands, and is told which)."""
    lines: list[str] = []

    def who(entry: RosterEntry, joined: bool = False) -> str:
        notes = [] if entry.colour is None else [words.colour_name(entry.colour).lower()]
        if joined and entry.bot:
            notes.append(_("bot"))
        return (
            _("{name} ({notes})").format(name=entry.name, notes=", ".join(notes))
            if (notes)
            else entry.name
        )

    for pid, now in new.items():
        before = old.get(pid)
        if pid == you:
            if before is not None and now.colour != before.colour and now.colour is not None:
                lines.append(
                    sentence(
                        _("You now play {colour}"), colour=words.colour_name(now.colour).lower()
                    )
                )
            continue
        if before is None:
            lines.append(sentence(_("{player} joined"), player=who(now, joined=True)))
            continue
        if now.bot and not before.bot:
            lines.append(sentence(_("a bot now plays for {player}"), player=who(now)))
        elif before.connected and not now.connected:
            lines.append(
                sentence(_("{player} lost the connection; the seat is held"), player=who(now))
            )
        elif now.connected and not before.connected:
            lines.append(sentence(_("{player} is back"), player=who(now)))
        if over and now.ready and not before.ready and not now.bot:
            if typed:
                asks = _("{player} asks for a rematch; type rematch to play again too.")
                lines.append(asks.format(player=who(now)))
            else:
                lines.append(sentence(_("{player} asks for a rematch"), player=who(now)))
        if now.colour != before.colour and now.colour is not None:
            lines.append(
                sentence(
                    _("{name} now plays {colour}"),
                    name=now.name,
                    colour=words.colour_name(now.colour).lower(),
                )
            )
    for pid, before in old.items():
        if pid not in new and pid != you:
            lines.append(sentence(_("{player} left the table"), player=who(before)))
    return lines
