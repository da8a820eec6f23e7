"""The lobby: the seats, who is ready, the chat; the host adds bots, picks the rules, starts.

:data:`TABLE` is a seated player's keys (a watcher's are in :mod:`.watch`); the
host's keys act, show in the footer and in the help only for the host.  :func:`build`
makes its container (the seats, then the chat); the seats have the focus.  Under the
seats, :func:`form_words` says how each person seated did in this machine's latest
games (``UiState.form``).
"""

from __future__ import annotations

from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import FormattedTextControl, HSplit, Window
from prompt_toolkit.layout.dimension import Dimension

from sorry_lan.i18n import _, language_name, ngettext, pgettext, words
from sorry_lan.rules.variants import VARIANTS

from .. import cells
from ..commands import Command, Controls, Help, Hint, Table, Words
from ..state import CHAT_LINES, COLOUR_TITLES, UiState
from ..swap_words import ask_note
from ..textfit import clip, pad, paragraphs, width, wrap
from .chat import ChatLine, chat_help, chat_key
from .parts import Parts, colour_title, size
from .phones import can_open, open_phones
from .shared import (
    ASK_CTRL_C,
    LANGUAGE,
    SHARED,
    ask_to_leave,
    leave_help,
    leave_key,
)

NAME_COLS = 22  # a row's name column (the name, and [bot])
# The least room the lobby keeps beside the phones' QR code: a seat's row whole (its
# number, colour, name column, flags and language), never a name cut for the code.
QR_TEXT_COLS = 62
QR_ROWS_AROUND = 7  # a screen's rows other than the seats window (bars, rule, chat)
FLAG_COLS = 16  # a row's flags column (ready, host), when a language follows
LANG_COLS = 12  # the room kept for a language's name at the end of a row


def _columns(room: int, flags: list[str], langs: bool) -> tuple[int, int]:
    """The name and flags columns' widths for every row of the table (display widths),
    so that each column starts in the same terminal column on every row: the flags
    column is as wide as the widest flags (at least :data:`FLAG_COLS`) when a language
    follows, and the name gives up room (down to 8) before the flags do."""
    widest = max((width(f) for f in flags), default=0)
    lang_cols = LANG_COLS if langs else 0
    name_cols = min(NAME_COLS, max(8, room - 2 - widest - lang_cols))
    flag_cols = max(0, min(max(FLAG_COLS, widest), room - 2 - name_cols - lang_cols))
    return name_cols, flag_cols


def hosting(st: UiState) -> bool:
    return st.is_host


def guest(st: UiState) -> bool:
    return not st.is_host


def _colour(c: Controls, key: str) -> None:
    """Sit at that colour; one another person holds, at a table that trades colours,
    is only noted (w then asks its holder)."""
    st, colour = c.state, int(key) - 1
    seat = st.seats[colour]
    if st.swaps_on and seat.name and not seat.you:
        st.swap_colour = colour
        st.notice = _("{colour} is taken: w asks to trade.").format(colour=colour_title(colour))
        return
    c.actions.choose_colour(colour)


def seated(st: UiState) -> bool:
    return st.swaps_on and not st.spectating


def asked(st: UiState) -> bool:
    """Someone asks this seat to trade colours (y, n answer)."""
    return seated(st) and any(b == st.me for _a, b in st.swaps)


def _swap(c: Controls, key: str) -> None:
    """Ask the holder of the colour last pressed to trade; again: take the ask back."""
    st = c.state
    if any(a == st.me for a, _b in st.swaps):
        st.notice = ""
        c.actions.ask_swap(None)
    elif st.swap_colour is None:
        st.notice = _("Press the number of the colour you want first, then w.")
    else:
        st.notice = ""  # (the lobby says the ask, or the colours change at once)
        c.actions.ask_swap(st.swap_colour)


def _accept(c: Controls, key: str) -> None:
    c.actions.answer_swap(True)


def _decline(c: Controls, key: str) -> None:
    c.actions.answer_swap(False)


def _ready(c: Controls, key: str) -> None:
    c.actions.ready()


def _add_bot(c: Controls, key: str) -> None:
    c.actions.add_bot()


def _remove_bot(c: Controls, key: str) -> None:
    c.actions.remove_bot()


def _cycle_bot(c: Controls, key: str) -> None:
    c.actions.cycle_bot()


def _next_variant(c: Controls, key: str) -> None:
    st = c.state
    options = st.variants or (st.variant,)
    i = options.index(st.variant) if st.variant in options else -1
    c.actions.set_variant(options[(i + 1) % len(options)])


def not_ready(st: UiState) -> list[str]:
    """The names of the people seated, the host aside, who have not said they are ready."""
    return [seat.name for seat in st.seats
            if seat.name and not (seat.bot or seat.program or seat.ready or seat.you)]


def _start(c: Controls, key: str) -> None:
    """Start; with people not ready, first say who, and start on a second s (asking
    again if who is not ready changed in between)."""
    st = c.state
    waiting = tuple(not_ready(st))
    if waiting and st.start_asked != waiting:
        st.start_asked = waiting
        st.notice = _("Not ready yet: {names}. Press s again to start anyway.").format(
            names=words.join_names([cells.steady_form(n) for n in waiting]))
        return
    st.start_asked = None
    c.actions.start()


def _change_the_rules() -> str:
    titles = ", ".join(words.variant_title(name) for name in VARIANTS)
    return _("change the rules: {variants}").format(variants=titles)


def _host_help(keys: str, what: Words) -> Help:
    """A host's key: listed after the others, and only for the host."""
    return Help(keys, what, when=hosting, late=True)


TABLE = Table(
    "lobby",
    (
        Command(
            tuple("1234"),
            _colour,
            hint=Hint("1-4", lambda: pgettext("key", "colour"), 2),
            help=Help("1-4", lambda: _("sit at that colour")),
        ),
        Command(
            ("y",),
            _accept,
            when=asked,
            hint=Hint("y/n", lambda: pgettext("key", "trade?"), 1),
            help=Help("y / n", lambda: _("accept or decline the ask to trade colours"),
                      when=asked),
        ),
        Command(("n",), _decline, when=asked),
        Command(
            ("w",),
            _swap,
            when=seated,
            hint=Hint("w", lambda: pgettext("key", "trade"), 5),
            help=Help("w", lambda: _("ask who sits at the colour you pressed to trade colours "
                                     "with you (again: take the ask back)"), when=seated),
        ),
        Command(
            ("space",),
            _ready,
            hint=Hint("space", lambda: pgettext("key", "ready"), 2),
            help=Help("space", lambda: _("say you are ready (or not)")),
        ),
        Command(
            ("a",),
            _add_bot,
            when=hosting,
            hint=Hint("a/x/l", lambda: pgettext("key", "bot"), 6),
            help=_host_help("a / x", lambda: _("add a bot / remove one")),
        ),
        Command(("x",), _remove_bot, when=hosting),
        Command(
            ("l",),
            _cycle_bot,
            when=hosting,
            help=_host_help("l", lambda: _("the newest bot's strength (each press: the next one)")),
        ),
        Command(
            ("v",),
            _next_variant,
            when=hosting,
            hint=Hint("v", lambda: pgettext("key", "variant"), 6),
            help=_host_help("v", _change_the_rules),
        ),
        Command(
            ("s",),
            _start,
            when=hosting,
            hint=Hint("s", lambda: pgettext("key", "start"), 2),
            help=_host_help(
                "s",
                lambda: _(
                    "start the game (free seats are left empty; team play fills them with bots)"
                ),
            ),
        ),
        Command(
            ("p",),
            open_phones,
            when=can_open,
            hint=Hint("p", lambda: pgettext("key", "phones"), 4),
            help=Help("p", lambda: _("the phones' QR code, large enough to scan (any key "
                                     "closes it)")),
        ),
        chat_key(chat_help(), hint_when=guest),  # the host's bar has no room for it
        LANGUAGE,
        *SHARED,
        Command(
            ("q",), ask_to_leave, when=hosting, hint=Hint("q", lambda: pgettext("key", "quit"), 1)
        ),
        leave_key(help=leave_help(), when=guest),
        ASK_CTRL_C,
    ),
    title=lambda: _("Lobby"),
)


def title() -> str:
    """The screen's name in the top bar."""
    return pgettext("screen", "lobby")


def form_words(st: UiState) -> str:
    """What this machine's games say of the people seated: "Ann has won 3 of the last
    5 games; Bob 1 of the last 2" (bots are not counted; "" if none has played)."""
    said = []
    for seat in st.seats:
        name = st.names.get(seat.colour, "")
        got = st.form.get(name.casefold()) if name and not seat.bot else None
        if got is None:
            continue
        won, played = got
        text = ngettext(
            "{name} has won {won} of the last {n} game",
            "{name} has won {won} of the last {n} games",
            played,
        ).format(name=cells.steady_form(name), won=won, n=played)
        said.append(text)
    return "; ".join(said)


class View:
    """The lobby's container: the seats (with the focus), a rule, the chat."""

    def __init__(self, parts: Parts, chat: ChatLine) -> None:
        self._parts = parts
        self._chat = chat
        self._chat_end = 0
        seats = FormattedTextControl(parts.plain(self._seats_fragments), focusable=True)
        self.focus = Window(seats, height=lambda: Dimension(min=max(6, len(self._qr()))))
        heard = FormattedTextControl(
            parts.plain(self._chat_fragments),
            get_cursor_position=lambda: Point(0, self._chat_end),
        )
        self.container = HSplit([self.focus, parts.rule(), Window(heard), chat.box])

    def _seats_fragments(self) -> StyleAndTextTuples:
        st = self._parts.state
        qr = self._qr()
        cols = size()[0] - (width(qr[0]) + 1 if qr else 0)
        out = self._lobby_fragments(st, cols)
        return beside(out, qr, cols) if qr else out

    def _qr(self) -> tuple[str, ...]:
        """The phones' QR code when there is room for it beside the lobby (not drawn
        in ASCII, nor on a screen too narrow or too short to show it whole)."""
        st = self._parts.state
        qr = st.lobby_qr
        if not qr or self._parts.ascii or st.spectating:
            return ()
        cols, rows = size()
        if cols - width(qr[0]) - 1 < QR_TEXT_COLS or rows < len(qr) + QR_ROWS_AROUND:
            return ()
        return qr

    def _lobby_fragments(self, st: UiState, cols: int) -> StyleAndTextTuples:
        """The heading, the seats and the notes in ``cols`` columns."""
        taken = sum(1 for seat in st.seats if seat.name)
        heading = ngettext(
            "Lobby · {variant} · {taken} of {total} seat taken",
            "Lobby · {variant} · {taken} of {total} seats taken",
            st.seat_limit,
        ).format(variant=words.variant_title(st.variant), taken=taken, total=st.seat_limit)
        if st.watchers:
            watching = ngettext("{n} watching", "{n} watching", st.watchers)
            heading += " · " + watching.format(n=st.watchers)
        out: StyleAndTextTuples = [("class:heading", clip(" " + heading, cols) + "\n")]
        team = st.variant.rules.partners
        free_shown = 0
        colour_cols = max(7, *(width(colour_title(c)) + 1 for c in range(4)))
        rows: list[tuple[str, str, str, str, str | None]] = []
        for seat in st.seats:
            title = colour_title(seat.colour)
            if not seat.name:
                if taken + free_shown >= st.seat_limit:
                    continue  # a table of 2 or 3 seats shows no fourth
                free_shown += 1
                who, flags = pgettext("seat", "(free)"), ""
            else:
                # The name is the player's own words: steady (see .cells), so the
                # columns after it stay in place in every terminal.
                who = cells.steady_form(seat.name)
                if seat.bot or seat.program:
                    who += " " + pgettext("seat", "[bot]")
                ready = seat.ready or seat.bot
                flags = pgettext("seat", "ready") if ready else pgettext("seat", "not ready")
                if seat.host:
                    flags = _("{flags}, host").format(flags=flags)
            if team:
                partner = _("partner {colour}").format(colour=colour_title((seat.colour + 2) % 4))
                flags = (
                    _("{flags}, {partner}").format(flags=flags, partner=partner)
                    if flags
                    else partner
                )
            mark = ">" if seat.you else " "
            colour_style = f"class:seat.{COLOUR_TITLES[seat.colour].lower()}"
            head = f" {mark}{seat.colour + 1} " + pad(title, colour_cols)
            rows.append((colour_style, head, who, flags, seat.lang))
        room = cols - max((width(head) for _s, head, *_rest in rows), default=0)
        columns = _columns(room, [flags for *_rest, flags, _lang in rows],
                           any(lang for *_rest, lang in rows))  # fmt: skip
        for colour_style, head, who, flags, lang in rows:
            out.append((colour_style, head))
            out.append(("", self._seat_row(room, columns, who, flags, lang) + "\n"))
        notes: list[str] = []
        if st.variant.rules.fills_with_bots and taken < 4:
            free = 4 - taken
            notes.append(
                ngettext(
                    "Team play needs four players: {n} free seat is played by a bot.",
                    "Team play needs four players: {n} free seats are played by bots.",
                    free,
                ).format(n=free)
            )
        asking = ask_note(st.swaps, st.roster, st.me) if seated(st) else ""
        if asking:
            notes.append(asking)
        form = form_words(st)
        if form:
            notes.append(form)
        if st.hints_on:
            notes.append(_("Hints are on at this table: on your turn, h shows each move's "
                           "chance to win."))
        if st.is_host and not st.spectating and taken > 1:
            waiting = not_ready(st)
            notes.append(
                _("Everyone seated is ready: s starts the game.") if not waiting else
                _("Not ready yet: {names}.").format(
                    names=words.join_names([cells.steady_form(n) for n in waiting]))
            )
        if st.is_host and not st.spectating:  # the footer may be short of room for these
            notes.append(
                _("a: add a bot   x: remove one   l: its strength   v: variant   s: start")
            )
        if st.spectating:
            notes.append(_("you are watching (no seat): the game shows when it starts"))
        elif st.lobby_info:
            notes += paragraphs(st.lobby_info)
        elif st.is_host:
            pass  # its keys are above
        elif st.auto_start:
            notes.append(
                ngettext(
                    "the game starts by itself when its {n} seat is taken "
                    "(space: say you're ready)",
                    "the game starts by itself when all {n} seats are taken "
                    "(space: say you're ready)",
                    st.seat_limit,
                ).format(n=st.seat_limit)
            )
        else:
            notes.append(_("waiting for the host to start the game (space: say you're ready)"))
        text = "\n".join(line for note in notes for line in wrap(note, cols))
        out.append(("class:dim", "\n" + text))
        return out

    def _seat_row(
        self, room: int, columns: tuple[int, int], who: str, flags: str, lang: str | None
    ) -> str:
        """A lobby row after its head (mark, number, colour), in ``room`` columns: the
        name, the flags and the player's language by its own name, in the table's
        ``columns`` (see :func:`_columns`).  The name sits in the middle of the row in
        steady form; the language, whose name may be unsteady (हिन्दी), ends the row and
        is clipped to what is left even if the terminal counts the rest wider."""
        name_cols, flag_cols = columns
        row = " " + cells.steady_field(who, name_cols) + " "
        if not lang:
            return row + clip(flags, max(0, room - width(row)), self._parts.ellipsis)
        row += pad(flags, min(flag_cols, max(0, room - width(row))), self._parts.ellipsis) + " "
        return row + cells.tail_field(language_name(lang), max(0, room - width(row)))

    def _chat_fragments(self) -> StyleAndTextTuples:
        """All the chat (the window scrolls to its last line)."""
        frags = self._chat.lines(size()[0], CHAT_LINES)
        self._chat_end = sum(frag[1].count("\n") for frag in frags)
        return frags


def beside(out: StyleAndTextTuples, qr: tuple[str, ...], cols: int) -> StyleAndTextTuples:
    """``out`` (lines of at most ``cols`` columns) with ``qr``'s lines after them,
    in the ``qr`` style, from the first line (empty lines added under ``out``)."""
    lines: list[StyleAndTextTuples] = [[]]
    for style, text, *rest in out:
        for i, part in enumerate(text.split("\n")):
            if i:
                lines.append([])
            if part:
                lines[-1].append((style, part, *rest))  # type: ignore[arg-type]
    while len(lines) < len(qr):
        lines.append([])
    drawn: StyleAndTextTuples = []
    for i, line in enumerate(lines):
        if i:
            drawn.append(("", "\n"))
        drawn.extend(line)
        if i < len(qr):
            used = sum(width(text) for _style, text, *_rest in line)
            drawn.append(("", " " * max(1, cols - used + 1)))
            drawn.append(("class:qr", qr[i]))
    return drawn


def build(parts: Parts, chat: ChatLine) -> View:
    return View(parts, chat)
