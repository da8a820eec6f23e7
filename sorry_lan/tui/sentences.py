"""Moves and places as whole sentences, for players who listen (the line mode).

Every pawn is named as a person would say it: "your pawn 2" (the listener's),
"pawn 2" (the mover's own, in the mover's sentence) or "Bob's pawn 2"; every square
as the pawn's owner counts it ("5 squares before its safety zone", "12 squares past
its start exit", "square 2 of its safety zone"), never as a track number or a token
(``R2``, ``14``, ``S3``).  A move, whether offered, played live or read from a game
record, is one :class:`Played` (its kind, card and parts) told by :func:`move_words`.

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

from sorry_lan.i18n import _, ngettext, pgettext, words
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
    start_exit,
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


def place_words(colour: int, loc: int) -> str:
    """Where a pawn of ``colour`` stands, counted from its own start exit or to its own
    safety zone (whichever is nearer), in a form that follows "to" or "at"."""
    if loc == START:
        return pgettext("place", "start")
    if loc == HOME:
        return pgettext("place", "home")
    if is_safety(loc):
        return pgettext("place", "square {k} of its safety zone").format(k=loc - S1 + 1)
    past = (loc - start_exit(colour)) % TRACK_LEN
    before = (safety_entry(colour) - loc) % TRACK_LEN + 1  # steps to its first safety square
    behind = (start_exit(colour) - loc) % TRACK_LEN
    if past == 0:
        return pgettext("place", "its start exit")
    if behind < min(past, before):  # moved back behind its own start exit
        return ngettext(
            "{n} square behind its start exit", "{n} squares behind its start exit", behind
        ).format(n=behind)
    if past < before:
        return ngettext(
            "{n} square past its start exit", "{n} squares past its start exit", past
        ).format(n=past)
    return ngettext(
        "{n} square before its safety zone", "{n} squares before its safety zone", before
    ).format(n=before)


def card_words(card: int) -> str:
    """A card with its article: "a 7", "an 8", "a Sorry! card"."""
    if card == words.SORRY_CARD:
        return _("a {sorry} card").format(sorry=words.sorry_word())
    if card in (8, 11):
        return pgettext("card", "an {card}").format(card=card)
    return pgettext("card", "a {card}").format(card=card)


def sentence(template: str, **fields: object) -> str:
    """A template as a sentence: its own first letter a capital where the script has
    them (a sentence that begins with a field, a name, keeps the name as it is), the
    fields filled in, and a full stop unless it already ends like a sentence."""
    text = template.strip()
    if text and text[0] != "{":
        text = text[0].upper() + text[1:]
    if fields:
        text = text.format(**fields)
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


def _one_part(part: MovePart, people: People, mover: int | None) -> str:
    colour = pawn_colour(part.pawn)
    pawn = pawn_words(part.pawn, people, mover)
    if part.frm == START:
        text = pgettext("move", "{pawn} leaves start").format(pawn=pawn)
    else:
        n, back = _steps(colour, part.frm, part.to)
        if part.to == HOME:
            text = ngettext(
                "{pawn} moves {n} and reaches home", "{pawn} moves {n} and reaches home", n
            ).format(pawn=pawn, n=n)
        elif back:
            text = ngettext(
                "{pawn} moves back {n} to {where}", "{pawn} moves back {n} to {where}", n
            ).format(pawn=pawn, n=n, where=place_words(colour, part.to))
        else:
            text = ngettext("{pawn} moves {n} to {where}", "{pawn} moves {n} to {where}", n).format(
                pawn=pawn, n=n, where=place_words(colour, part.to)
            )
    return _after(text, part, people, mover, own=True)


def _after(text: str, part: MovePart, people: People, mover: int | None, own: bool) -> str:
    """A part's words with its slide and the pawns it bumps."""
    colour = pawn_colour(part.pawn)
    if part.end != part.to and part.end != START:
        where = place_words(colour, part.end)
        if own:
            text = pgettext("move", "{move}, slides to {where}").format(move=text, where=where)
        else:
            text = pgettext("move", "{move}, and {pawn} slides to {where}").format(
                move=text, pawn=pawn_words(part.pawn, people, mover), where=where
            )
    if part.bumps:
        pawns = words.join_names([pawn_words(b, people, mover) for b in sorted(part.bumps)])
        text = pgettext("move", "{move}, and bumps {pawns} back to start").format(
            move=text, pawns=pawns
        )
    return text


def move_words(played: Played, people: People, mover: int | None) -> str:
    """What a move does, as the clauses after "Ann played a 7:" (no capital, no stop)."""
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
        a, b = parts
        text = pgettext("move", "{pawn} swaps places with {other} and is now at {where}").format(
            pawn=pawn_words(a.pawn, people, mover),
            other=pawn_words(b.pawn, people, mover),
            where=place_words(pawn_colour(a.pawn), a.to),
        )
        text = _after(text, a, people, mover, own=True)
        return _after(text, b, people, mover, own=False)
    if played.kind == MoveKind.SORRY and parts[0].bumps:
        a = parts[0]
        target, *more = a.bumps
        text = pgettext(
            "move", "{pawn} leaves start and sends {other} back to start, landing at {where}"
        ).format(
            pawn=pawn_words(a.pawn, people, mover),
            other=pawn_words(target, people, mover),
            where=place_words(pawn_colour(a.pawn), a.to),
        )
        rest = MovePart(a.pawn, a.frm, a.to, a.end, a.path, a.slide, tuple(more))
        return _after(text, rest, people, mover, own=True)
    told = [_one_part(p, people, mover) for p in parts]
    if len(told) == 2:  # a split 7: in the order the pawns move
        return pgettext("move", "{first}, then {second}").format(first=told[0], second=told[1])
    return words.join_names(told)


def option_played(option: MoveOption) -> Played:
    """An offered move (rebuilt by :func:`~sorry_lan.tui.options.option_from_compact`)."""
    return Played(option.kind, option.card, option.parts)


def events_played(events: Sequence[Sequence[int]]) -> Played | None:
    """The card played and its parts from the host's event tuples (None: no card was
    played: a lost turn or a discard)."""
    card = None
    parts: list[MovePart] = []
    current = -1  # the part the next slide or bump follows
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
    if card is None:
        return None
    return Played(_kind(card, parts), card, tuple(parts))


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


def play_counts(bumps: int, sorry: int, slides: int, turns: int) -> str:
    """A player's game in numbers: "2 bumps, 1 Sorry!, 3 slides in 20 turns" (the
    board's game-over screen and the line mode say the same)."""
    counts = ", ".join(
        (
            ngettext("{n} bump", "{n} bumps", bumps).format(n=bumps),
            ngettext("{n} {sorry}", "{n} {sorry}", sorry).format(n=sorry, sorry=words.sorry_word()),
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
