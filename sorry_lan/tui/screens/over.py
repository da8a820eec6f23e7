"""The game over: the final board and log, each player's result; a rematch.

:data:`TABLE` is a seated player's keys: ask for a rematch, the log, the replay of
the game, chat, leave.
:func:`build` makes its container: the game's board and log, the result in the panel
(which has the focus).
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from sorry_lan.i18n import _, ngettext, pgettext
from sorry_lan.rules.board import HOME
from sorry_lan.rules.standings import standings

from ..commands import Command, Controls, Help, Hint, Predicate, Table, Words
from ..sentences import play_counts
from ..state import COLOUR_TITLES, Link, UiState
from ..textfit import clip, wrap
from .chat import ChatLine, chat_key
from .game import CHAT_ROWS, board_and_panel
from .log import log_keys
from .parts import Parts, size, wrap_text
from .replay import OPEN
from .shared import ASK_CTRL_C, SHARED, leave_key


def _rematch(c: Controls, key: str) -> None:
    c.actions.rematch()


def hosting(st: UiState) -> bool:
    return st.is_host


def guest(st: UiState) -> bool:
    """A player at a table someone hosts."""
    return not st.is_host and not st.auto_start


def headless(st: UiState) -> bool:
    """A player at a table nobody hosts."""
    return not st.is_host and st.auto_start


def _rematch_key(when: Predicate, what: Words) -> Command:
    hint = Hint("r", lambda: pgettext("key", "rematch"), 2)
    return Command(("r",), _rematch, when=when, hint=hint, help=Help("r", what, when=when))


TABLE = Table(
    "over",
    (
        # The rule (README, "Another game"): the host's r opens the next game's lobby
        # with the same seats; a player's r says they want one.
        _rematch_key(
            hosting,
            lambda: _("open the next game's lobby, with the same seats (s then starts it)"),
        ),
        _rematch_key(
            guest, lambda: _("say you want another game (the host opens its lobby)")
        ),
        _rematch_key(
            headless,
            lambda: _("say you want another game (it begins once every player has asked)"),
        ),
        *log_keys(
            hint=True,
            help=Help(
                "PgUp/PgDn, End",
                lambda: _("scroll the log of the game (L: all of it in the board's place)"),
            ),
        ),
        OPEN,
        chat_key(Help("t", lambda: _("chat"))),
        *SHARED,
        leave_key(help=Help("q", lambda: _("leave"))),
        ASK_CTRL_C,
    ),
    title=lambda: _("Game over"),
)


def title() -> str:
    """The screen's name in the top bar."""
    return pgettext("screen", "over")


class View:
    """The game over's container: the final board and log, the result beside them."""

    def __init__(self, parts: Parts, chat: ChatLine) -> None:
        self._parts = parts
        self._chat = chat
        self.container, self.focus = board_and_panel(
            parts, chat, self._head, self._result, describe=False
        )

    def _head_text(self) -> str:
        text = _("Game over: {result}").format(result=self._parts.state.winner)
        return wrap_text(text, self._parts.panel_width())

    def _head(self) -> StyleAndTextTuples:
        return [("class:heading", self._head_text() + "\n")]

    def _rows(self) -> int:
        """The rows the result has: the panel less its head, the rule, the chat heard
        and the chat line."""
        chat = self._chat.lines(self._parts.panel_width(), CHAT_ROWS)
        heard = sum(text.count("\n") for _style, text, *_rest in chat) + 1
        head = self._head_text().count("\n") + 1
        return size()[1] - 2 - head - 1 - heard - 1

    def _result(self) -> StyleAndTextTuples:
        """The result beside the final board: each player in their place in the
        standings (``rules.standings``), with their pawns home, points and play.

        Every player's lines show: when all of it does not fit, the keys' reminder
        goes first (the footer has the keys), then the note that play was counted
        since you joined, and only then is each player's play told in one line,
        clipped."""
        rows = self._rows()
        forms = ((True, True, True), (False, True, True), (False, False, True))
        for keys, note, whole in (*forms, (False, False, False)):
            out = self._result_lines(keys, note, whole)
            if sum(text.count("\n") for _style, text, *_rest in out) <= rows:
                break
        return out

    def _result_lines(self, keys: bool, note: bool, whole: bool) -> StyleAndTextTuples:
        st = self._parts.state
        cols = self._parts.panel_width()
        out: StyleAndTextTuples = []
        won = st.won[0] if st.won else None
        places = standings(st.variant.rules, st.position, st.seated, won)
        for colour, place in ((c, p.place) for p in places for c in p.colours):
            home = sum(1 for p in st.position[colour * 4 : colour * 4 + 4] if p == HOME)
            head = ngettext("{player}: {n} home", "{player}: {n} home", home).format(
                player=st.player_name(colour), n=home
            )
            # The place in the standings, before the player's name: "2. Blue (Ann)".
            head = _("{place}. {head}").format(place=place, head=head)
            if colour in st.scores and st.variant.rules.scores_points:
                points = st.scores[colour]
                head = ngettext("{head}, {n} point", "{head}, {n} points", points).format(
                    head=head, n=points
                )
            here = [e for e in st.roster.values() if e.colour == colour]
            if any(e.ready and not e.bot for e in here):
                head = _("{head} (wants a rematch)").format(head=head)
            elif not here:
                head = _("{head} (left)").format(head=head)
            stats = st.stats[colour]
            play = play_counts(stats["bumps"], stats["sorry"], stats["slides"], stats["turns"])
            style = f"class:seat.{COLOUR_TITLES[colour].lower()}"
            out.append((style, wrap_text(head, cols) + "\n"))
            if whole:
                play = "\n".join(wrap(play, cols, "   ", "   "))
            else:
                play = clip("   " + play, cols, self._parts.ellipsis)
            out.append(("class:dim", play + "\n"))
        if st.stats_partial and note:
            text = _("(play counted since you joined)")
            out.append(("class:dim", wrap_text(text, cols) + "\n"))
        if keys:
            reminder = _("q: leave") if st.spectating else _("r: rematch   q: leave")
            if st.link is Link.LOST:
                reminder = _("the table has closed: q leaves (r tries to rejoin)")
            out.append(("", "\n" + wrap_text(reminder, cols)))
        return out


def build(parts: Parts, chat: ChatLine) -> View:
    return View(parts, chat)
