"""Moves and places as whole sentences, for players who listen (the line mode).

Every pawn is named as a person would say it: "your pawn 2" (the listener's),
"pawn 2" (the mover's own, in the mover's sentence) or "Bob's pawn 2"; every square
counted one way, the steps its pawn has left to HOME ("40 from home", "3 from home,
safe"), never as a track number or a token (``R2``, ``14``, ``S3``); a move of the
card's own count does not say the count again.  A move, whether offered, played live
or read from a game record, is one :class:`Played` (its kind, card and parts) told by
:func:`move_words`.

Each message is one clause or one sentence with named fields, so that a language
orders it as it likes; no message relies on a gendered pronoun ("her pawn"): pawns
are "its" (the pawn's own zone) and people are named.  Pure: no I/O, no
prompt_toolkit, no wire parsing (:mod:`sorry_lan.tui.telling` reads the host's
messages); it does not judge a move's legality.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sorry_lan.i18n import _, ngettext, npgettext, pgettext, words
from sorry_lan.rules.board import (
    HOME,
    S1,
    START,
    TRACK_LEN,
    backward,
    forward,
    is_safety,
    parse_location,
    pawn_colour,
    safety_entry,
)
from sorry_lan.rules.moves import MoveKind
from sorry_lan.wire.records import EventKind

from .options import MoveOption, MovePart

#: How sentences end (a line the reader can pause on); Hindi ends with a danda.
SENTENCE_ENDS = (".", "!", "?", ";", "…", "।", "\u037e")


@dataclass(frozen=True)
class People:
    """Who is who, for naming pawns: the name at each colour (a colour with no name is
    called by its colour), and the listener's colour (None: a spectator)."""

    names: Mapping[int, str] = field(default_factory=dict)
    you: int | None = None

    def name(self, colour: int) -> str:
        return self.names.get(colour) or words.colour_name(colour)


@dataclass(frozen=True)
class Played:
    """One move as the sentences tell it: its kind, the card and each pawn's part
    (a Sorry!'s target is in its one part's ``bumps``, first)."""

    kind: MoveKind
    card: int
    parts: tuple[MovePart, ...]
    #: Where each bumped pawn was, as (pawn, square) pairs, where known
    was: tuple[tuple[int, int], ...] = ()

    def where_was(self, pawn: int) -> int | None:
        return next((at for p, at in self.was if p == pawn), None)


# -- pawns and places ------------------------------------------------------------------


def pawn_words(pawn: int, people: People, mover: int | None) -> str:
    """ "your pawn 2", "pawn 2" (the mover's own) or "Bob's pawn 2"."""
    colour, n = pawn_colour(pawn), (pawn & 3) + 1
    if colour == people.you:
        return pgettext("pawn", "your pawn {n}").format(n=n)
    if colour == mover:
        return pgettext("pawn", "pawn {n}").format(n=n)
    # i18n: another player's pawn; {owner} is a name: no gendered article or pronoun.
    return pgettext("pawn", "{owner}'s pawn {n}").format(owner=people.name(colour), n=n)


def to_home(colour: int, loc: int) -> int:
    """The steps a pawn of ``colour`` on ``loc`` (the track or its safety zone) still
    has to go to reach HOME: 6 from the square before its safety zone, 1 from the
    zone's last square."""
    if is_safety(loc):
        return HOME - loc
    return (safety_entry(colour) - loc) % TRACK_LEN + 1 + (HOME - S1)


def place_words(colour: int, loc: int) -> str:
    """Where a pawn of ``colour`` stands, counted one way everywhere: the squares it
    still has to go to HOME ("40 from home"; "3 from home, safe" in its safety zone), in
    a form that follows "to" or "at"."""
    if loc == START:
        return pgettext("place", "start")
    if loc == HOME:
        return pgettext("place", "home")
    n = to_home(colour, loc)
    if is_safety(loc):
        # i18n: a pawn in its safety zone, {n} squares (1 to 5) before HOME
        return npgettext("place", "{n} from home, safe", "{n} from home, safe", n).format(n=n)
    # i18n: a pawn on the track, {n} squares (6 to 64) before HOME: said after "to" or "at"
    return npgettext("place", "{n} from home", "{n} from home", n).format(n=n)


def spoken_sorry() -> str:
    """The game's name and its card as the line mode says it: in the language's own
    letters, so that a screen reader reads it in the player's voice (the board keeps
    the name as printed, :func:`~sorry_lan.i18n.words.sorry_word`)."""
    # i18n: "Sorry!" (the game, its card) in your script, as a player would say it
    return pgettext("spoken", "Sorry!")


def card_words(card: int) -> str:
    """A card with its article: "a 7", "an 8", "a Sorry! card"."""
    if card == words.SORRY_CARD:
        return _("a {sorry} card").format(sorry=spoken_sorry())
    if card in (8, 11):
        return pgettext("card", "an {card}").format(card=card)
    return pgettext("card", "a {card}").format(card=card)


def opening(template: str, **fields: object) -> str:
    """A template as the start of a sentence, with no full stop: its own first letter a
    capital where the script has them, the fields filled in.  A template that begins
    with a field (a name) keeps it as it is; one a language begins with a word (Welsh
    "chwaraeodd {who} {card}" for "{who} played {card}") gets its capital, so that a
    head told first in a longer sentence (``{head}: {move}``) begins like one."""
    text = template.strip()
    if text and text[0] != "{":
        text = text[0].upper() + text[1:]
    return text.format(**fields) if fields else text


def sentence(template: str, **fields: object) -> str:
    """A template as a sentence: its :func:`opening`, and a full stop unless it already
    ends like a sentence."""
    text = opening(template, **fields)
    if not text:
        return text
    # i18n: how a sentence ends in your language (Hindi: the danda)
    return text if text.endswith(SENTENCE_ENDS) else text + pgettext("sentence end", ".")


# -- moves -----------------------------------------------------------------------------


def _steps(colour: int, frm: int, to: int) -> tuple[int, bool]:
    """(squares stepped, backward?) from ``frm`` to ``to``; (0, False) if no count fits."""
    if frm in (START, HOME):
        return 0, False
    for n in range(1, 13):
        if forward(colour, frm, n) == to:
            return n, False
    for n in (1, 4):
        if backward(colour, frm, n) == to:
            return n, True
    return 0, False


def _hits_listener(part: MovePart, people: People) -> bool:
    """Whether ``part`` bumps a pawn of the listener's with another colour's pawn: the
    sentence then counts only the listener's squares (where their pawn was)."""
    you = people.you
    return (you is not None and pawn_colour(part.pawn) != you
            and any(pawn_colour(b) == you for b in part.bumps))  # fmt: skip


def _base(part: MovePart, pawn: str, counted: bool) -> str:
    """A part's verb without where it ends: "your pawn 2 leaves start", "pawn 1 moves
    3", "pawn 1 moves back 4"; "" for a step of the card's own count (not said)."""
    if part.frm == START:
        return pgettext("move", "{pawn} leaves start").format(pawn=pawn)
    n, back = _steps(pawn_colour(part.pawn), part.frm, part.to)
    if back:
        return ngettext("{pawn} moves back {n}", "{pawn} moves back {n}", n).format(pawn=pawn, n=n)
    if counted:
        return ngettext("{pawn} moves {n}", "{pawn} moves {n}", n).format(pawn=pawn, n=n)
    return ""


def _landing(text: str, pawn: str, part: MovePart, hidden: bool = False,
             lands: bool = False) -> str:
    """``text`` (a verb from :func:`_base`, or a Sorry!'s or a swap's; "": the card's
    own step of ``pawn``) with where the part's pawn ends: home, where it slides to,
    or the square it reaches (from START only when it ``lands`` on a pawn: a
    Sorry!); only that it slides when the square is ``hidden`` (the line counts the
    listener's squares)."""
    colour = pawn_colour(part.pawn)
    slid = part.end not in (part.to, START)
    if hidden:
        if not text:
            text = pgettext("move", "{pawn} moves").format(pawn=pawn)
        return pgettext("move", "{move} and slides").format(move=text) if slid else text
    if part.end == HOME:
        if not text:
            return pgettext("move", "{pawn} reaches home").format(pawn=pawn)
        return pgettext("move", "{move} home").format(move=text)
    if slid:
        where = place_words(colour, part.end)
        if not text:
            return pgettext("move", "{pawn} slides to {where}").format(pawn=pawn, where=where)
        return pgettext("move", "{move} and slides to {where}").format(move=text, where=where)
    if part.frm == START and not lands:
        return text  # (onto its start exit: nothing to count)
    where = place_words(colour, part.to)
    if not text:
        return pgettext("move", "{pawn} to {where}").format(pawn=pawn, where=where)
    return pgettext("move", "{move}, to {where}").format(move=text, where=where)


def _bumped(pawn: int, by: int, played: Played, people: People, mover: int | None) -> str:
    """A pawn sent back to START by pawn ``by``: the listener's (by another colour's
    pawn) with where it was."""
    said = pawn_words(pawn, people, mover)
    at = played.where_was(pawn)
    if pawn_colour(pawn) == people.you != pawn_colour(by) and at is not None:
        return pgettext("pawn", "{pawn} at {where}").format(
            pawn=said, where=place_words(pawn_colour(pawn), at))
    return said


def _bumps(text: str, part: MovePart, bumps: Sequence[int], played: Played, people: People,
           mover: int | None) -> str:
    if not bumps:
        return text
    pawns = words.join_names([_bumped(b, part.pawn, played, people, mover)
                              for b in sorted(bumps)])  # fmt: skip
    return pgettext("move", "{move}, bumps {pawns}").format(move=text, pawns=pawns)


def _one_part(part: MovePart, played: Played, people: People, mover: int | None,
              again: bool = False) -> str:
    """One pawn's part of a move; ``again``: its owner was named in the part before
    (the second pawn of a split 7), so the pawn is named by its number alone."""
    pawn = pawn_words(part.pawn, people, mover)
    if again:
        pawn = pgettext("pawn", "pawn {n}").format(n=(part.pawn & 3) + 1)
    n, back = _steps(pawn_colour(part.pawn), part.frm, part.to)
    counted = len(played.parts) > 1 or back or n != played.card
    hidden = _hits_listener(part, people)
    text = _landing(_base(part, pawn, counted or hidden), pawn, part, hidden)
    return _bumps(text, part, part.bumps, played, people, mover)


def move_words(played: Played, people: People, mover: int | None) -> str:
    """What a move does, as the clauses after "Ann played a 7:" (no capital, no stop).

    Every square is counted one way, to its pawn's HOME; a line that bumps or swaps
    a pawn of the listener's (by someone else) counts only the listener's squares: it
    says where their pawn was, not where the other pawn lands."""
    parts = played.parts
    # A decline or a discard is only ever offered (played, it is told as a lost turn
    # or a discard), so it is worded to the listener.
    if played.kind == MoveKind.DECLINE or (not parts and played.card == 11):
        return pgettext("move", "you move no pawn, and your turn is lost")
    if played.kind == MoveKind.DISCARD:
        return pgettext("move", "you discard it, and no pawn moves")
    if not parts:
        return _("a move the host offers")
    if played.kind == MoveKind.SWAP and len(parts) == 2:
        return _swap_words(played, people, mover)
    if played.kind == MoveKind.SORRY and parts[0].bumps:
        a = parts[0]
        target, *more = a.bumps
        mine = pawn_colour(target) == people.you and pawn_colour(a.pawn) != people.you
        other = pawn_words(target, people, mover)
        if mine:  # (the pawn lands where the listener's was)
            other = pgettext("pawn", "{pawn} at {where}").format(
                pawn=other, where=place_words(pawn_colour(target), a.to))
        pawn = pawn_words(a.pawn, people, mover)
        text = pgettext("move", "{pawn} bumps {other}").format(pawn=pawn, other=other)
        text = _landing(text, pawn, a, mine or _hits_listener(a, people), lands=True)
        return _bumps(text, a, more, played, people, mover)
    told = [_one_part(p, played, people, mover,
                      again=i > 0 and pawn_colour(p.pawn) == pawn_colour(parts[i - 1].pawn))
            for i, p in enumerate(parts)]  # fmt: skip
    if len(told) == 2:  # a split 7: in the order the pawns move
        return pgettext("move", "{first}, then {second}").format(first=told[0], second=told[1])
    return words.join_names(told)


def _swap_words(played: Played, people: People, mover: int | None) -> str:
    """An 11's swap: where the mover's pawn lands, or, when the other pawn is the
    listener's (someone else swaps with it), where the listener's pawn goes."""
    a, b = played.parts
    pawn = pawn_words(a.pawn, people, mover)
    text = pgettext("move", "{pawn} swaps with {other}").format(
        pawn=pawn, other=pawn_words(b.pawn, people, mover))
    mine = pawn_colour(b.pawn) == people.you and pawn_colour(a.pawn) != people.you
    text = _landing(text, pawn, a, mine)
    if mine or b.end not in (b.to, START):
        where = place_words(pawn_colour(b.pawn), b.end)
        slid = b.end not in (b.to, START)
        template = (pgettext("move", "{move}, and {pawn} slides to {where}") if slid
                    else pgettext("move", "{move}, and {pawn} goes to {where}"))  # fmt: skip
        text = template.format(move=text, pawn=pawn_words(b.pawn, people, mover), where=where)
    text = _bumps(text, a, a.bumps, played, people, mover)
    return _bumps(text, b, b.bumps, played, people, mover)


def option_played(option: MoveOption, pawns: Sequence[int] = ()) -> Played:
    """An offered move (rebuilt by :func:`~sorry_lan.tui.options.option_from_compact`),
    with where the pawns it bumps stand on ``pawns`` (the board it is offered on)."""
    if not pawns:
        return Played(option.kind, option.card, option.parts)
    at, was = list(pawns), []
    for part in option.parts:  # (a split's second pawn may bump the first where it went)
        was += [(b, at[b]) for b in part.bumps]
        at[part.pawn] = part.end
    return Played(option.kind, option.card, option.parts, tuple(was))


def events_played(events: Sequence[Sequence[int]]) -> Played | None:
    """The card played and its parts from the host's event tuples (None: no card was
    played: a lost turn or a discard)."""
    card = None
    parts: list[MovePart] = []
    current = -1  # the part the next slide or bump follows
    was: list[tuple[int, int]] = []  # where each bumped pawn was
    for ev in events:
        kind = ev[0]
        if kind == EventKind.PLAY:
            card = int(ev[2])
        elif kind == EventKind.MOVE and card is not None:
            parts.append(MovePart(int(ev[1]), int(ev[2]), int(ev[3]), int(ev[3]), (), (), ()))
            current = len(parts) - 1
        elif kind == EventKind.SLIDE:
            for i, p in enumerate(parts):
                if p.pawn == ev[1]:
                    parts[i] = _with(p, end=int(ev[3]))
                    current = i
        elif kind == EventKind.BUMP and current >= 0:
            p = parts[current]
            parts[current] = _with(p, bumps=(*p.bumps, int(ev[1])))
            was.append((int(ev[1]), int(ev[2])))
    if card is None:
        return None
    return Played(_kind(card, parts), card, tuple(parts), tuple(was))


def _with(p: MovePart, end: int | None = None, bumps: tuple[int, ...] | None = None) -> MovePart:
    return MovePart(
        p.pawn,
        p.frm,
        p.to,
        p.end if end is None else end,
        p.path,
        p.slide,
        p.bumps if bumps is None else bumps,
    )


def _kind(card: int, parts: Sequence[MovePart]) -> MoveKind:
    if card == words.SORRY_CARD and len(parts) == 1 and parts[0].frm == START and parts[0].bumps:
        return MoveKind.SORRY
    if len(parts) == 2:
        a, b = parts
        if card == 11 and a.frm == b.to and b.frm == a.to:
            return MoveKind.SWAP
        return MoveKind.SPLIT
    return MoveKind.SIMPLE


# -- a game's figures ------------------------------------------------------------------


def play_counts(bumps: int, sorry: int, slides: int, turns: int, *, sorry_name: str = "") -> str:
    """A player's game in numbers: "2 bumps, 1 Sorry!, 3 slides in 20 turns" (the
    board's game-over screen and the line mode say the same, the line mode with
    ``sorry_name``, the card's name in the player's letters)."""
    counts = ", ".join(
        (
            ngettext("{n} bump", "{n} bumps", bumps).format(n=bumps),
            ngettext("{n} {sorry}", "{n} {sorry}", sorry).format(
                n=sorry, sorry=sorry_name or words.sorry_word()),
            ngettext("{n} slide", "{n} slides", slides).format(n=slides),
        )
    )
    return ngettext("{counts} in {n} turn", "{counts} in {n} turns", turns).format(
        counts=counts, n=turns
    )


# -- a game record's moves -------------------------------------------------------------

_RECORD_KINDS = {
    "simple": MoveKind.SIMPLE,
    "split": MoveKind.SPLIT,
    "swap": MoveKind.SWAP,
    "sorry": MoveKind.SORRY,
    "decline": MoveKind.DECLINE,
    "discard": MoveKind.DISCARD,
}
_LETTERS = "RBYG"


def record_pawn(label: object) -> int:
    """A record's pawn (``"R1"``..``"G4"``) as a pawn id; ValueError if it is none."""
    text = str(label)
    if len(text) != 2 or text[0] not in _LETTERS or text[1] not in "1234":
        raise ValueError(f"no pawn {text!r}")
    return _LETTERS.index(text[0]) * 4 + int(text[1]) - 1


def record_played(turn: Mapping[str, Any], card: int) -> Played:
    """A record's ``move`` entry (protocol/RECORD.md) as a :class:`Played`; ValueError,
    KeyError or TypeError when its parts are not the format's."""
    kind = _RECORD_KINDS[str(turn.get("kind"))]
    parts = [
        MovePart(
            record_pawn(p["pawn"]),
            parse_location(p["from"]),
            parse_location(p["to"]),
            parse_location(p["end"]),
            (),
            (),
            tuple(record_pawn(b) for b in p["bumps"]),
        )
        for p in turn.get("parts") or []
    ]
    if kind == MoveKind.SORRY and len(parts) == 2:  # its second part is the pawn sent back
        a, target = parts
        parts = [_with(a, bumps=(target.pawn, *a.bumps))]
    return Played(kind, card, tuple(parts))
