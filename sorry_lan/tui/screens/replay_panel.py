"""What the replay shows of the turn it is at: the panel's lines, the log, the marks.

:func:`panel_lines` words the panel beside the board: the turn and how many there
are, who played, the card and what it does, the move and what it did (each slide,
each pawn sent back to START and from where), the points in play for points, the
result at the end (or that the game went no further), whether it plays and how fast,
the turn number being typed.  :func:`log_lines` are the turns up to here as
``sorry-lan replay`` prints them, :func:`highlights` the turn's marks on the board.
Words and plain data only: the screen (:mod:`.replay`) lays them out.
"""

from __future__ import annotations

from sorry_lan.i18n import _, ngettext, words
from sorry_lan.i18n.recordwords import move_words, slide_lines, turn_line
from sorry_lan.replay import Replay, Step, Tape
from sorry_lan.rules import Colour
from sorry_lan.rules.board import pawn_colour

from ..board import Highlights, spot
from ..replay_hints import Costs, cost_line
from ..state import COLOUR_TITLES, card_help

#: (style, text) for one line of the panel, before it is wrapped.
Line = tuple[str, str]


def player(tape: Tape, colour: int) -> str:
    """A seat as the replay names it: ``Red (Ann)``."""
    name = tape.names.get(colour, "")
    title = words.colour_name(colour)
    return f"{title} ({name})" if name else title


def _names(tape: Tape) -> dict[object, str]:
    """The players' names by the record's colour words."""
    return {Colour(c).label: player(tape, c) for c in tape.names}


def speed_words(interval: float) -> str:
    """How fast it plays: "a turn every 2 seconds", "4 turns a second"."""
    if interval > 1:
        n = round(interval)
        return ngettext("a turn every {n} second", "a turn every {n} seconds", n).format(n=n)
    n = round(1 / interval)
    return ngettext("{n} turn a second", "{n} turns a second", n).format(n=n)


def opening(tape: Tape) -> str:
    """The first line: the game begins (and who plays first), or where the board that
    saw it came in."""
    if not tape.whole:
        first = tape.steps[0].n if tape.steps else 1
        return _("the game as this board saw it, from turn {n}").format(n=first)
    if tape.first is None:
        return _("the game begins")
    return _("the game begins: {player} plays first").format(player=player(tape, tape.first))


def log_lines(rp: Replay) -> list[str]:
    """The turns up to the one shown, as ``sorry-lan replay`` prints them."""
    names = _names(rp.tape)
    return [opening(rp.tape), *(f"{s.n}. {turn_line(s.entry, names)}" for s in rp.shown())]


def highlights(step: Step | None) -> Highlights:
    """The turn shown, on the board: its pawns' squares before and after, the pawns it
    sent back to START."""
    if step is None:
        return Highlights()
    last: set[int] = set()
    for m in step.moved:
        colour = pawn_colour(m.pawn)
        last |= {spot(colour, m.frm), spot(colour, m.end)}
    return Highlights(last=frozenset(last), bumps=frozenset(step.bumps))


def _turn(step: Step, rp: Replay) -> list[Line]:
    """The turn shown: who, the card, the move and what it did."""
    tape = rp.tape
    who, card = step.who, step.card
    if step.kind not in ("move", "lost") or who is None or card is None:
        return [("", turn_line(step.entry, _names(tape)))]
    out: list[Line] = [(f"class:seat.{COLOUR_TITLES[who].lower()}", player(tape, who))]
    out.append(("", _("Card: {card}: {help}").format(card=words.card_name(card),
                                                     help=card_help(card))))  # fmt: skip
    if step.kind == "lost" or step.entry.get("kind") == "discard":
        out.append(("", turn_line(step.entry, _names(tape))))
        return out
    out.append(("", words.played_line(card, move_words(step.entry))))
    out += [("", "  " + slid) for slid in slide_lines(step.entry)]
    out += [("class:notice", "  " + words.bumped_line(p, rp.before[p])) for p in step.bumps]
    return out


def panel_lines(rp: Replay, goto: str = "", costs: Costs | None = None,
                you: int | None = None) -> list[Line]:
    """The panel beside the board (``goto``: the digits of a turn number typed);
    ``costs``: what a hint makes of the moves (a costly one is marked), ``you`` the
    viewer's colour (its moves are "yours")."""
    tape = rp.tape
    step = rp.step
    out: list[Line] = []
    if step is None:
        out += [("class:heading", _("Replay: the start")), ("", opening(tape))]
    else:
        heading = _("Replay: turn {n} of {last}").format(n=step.n, last=tape.last_n())
        out += [("class:heading", heading), *_turn(step, rp)]
        got = None if costs is None or step.kind != "move" else costs.costly(step.n)
        if got is not None and step.who is not None:
            who = None if step.who == you else player(tape, step.who)
            out.append(("class:notice", cost_line(got, who)))
    if rp.scores:
        scores = "  ".join(
            f"{words.colour_name(c)} {points}" for c, points in sorted(rp.scores.items())
        )
        out.append(("", _("Scores: {scores}").format(scores=scores)))
    if rp.at_end:
        if tape.over:
            out.append(("class:notice", words.won_line([player(tape, c) for c in tape.winners])))
        else:
            out.append(("class:notice", _("the game went no further (it was not over)")))
    out.append(("", ""))
    if rp.playing:
        out.append(("class:notice", _("playing: {speed}").format(speed=speed_words(rp.interval))))
    else:
        out.append(("class:dim", _("paused ({speed})").format(speed=speed_words(rp.interval))))
    if goto:
        out.append(("class:heading", _("go to turn: {n}").format(n=goto + "_")))
    return out
