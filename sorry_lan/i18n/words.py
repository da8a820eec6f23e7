"""The game's vocabulary in the player's language: colours, cards, squares, moves, events.

Every function here turns codes and numbers (what the host sends) into words in the
current language (:func:`sorry_lan.i18n.set_language`).  Pawn tokens stay ``R1``..``G4``
in every language (the board draws them so); track squares are numbers, the safety
zone's squares ``S1``..``S5``.  Nothing here checks a move's legality or draws anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from sorry_lan.rules.board import HOME, S1, S5, START, pawn_label
from sorry_lan.rules.variants import VARIANTS

from . import _, ngettext, pgettext

SORRY_CARD = 13
_COLOURS = ("Red", "Blue", "Yellow", "Green")


def colour_name(colour: int) -> str:
    """``Red``, ``Blue``, ``Yellow`` or ``Green`` in the current language."""
    names = (
        pgettext("colour", "Red"),
        pgettext("colour", "Blue"),
        pgettext("colour", "Yellow"),
        pgettext("colour", "Green"),
    )
    return names[colour]


def seat_label(colour: int, name: str | None) -> str:
    """A seat as the terminal reports name it: ``Red (Ann)``, or ``Red`` with no name."""
    label = colour_name(colour)
    return _("{colour} ({name})").format(colour=label, name=name) if name else label


def parse_colour(text: str) -> int:
    """A colour typed in English or the current language (any case); ValueError if none."""
    wanted = text.strip().casefold()
    for c, english in enumerate(_COLOURS):
        if wanted in (english.casefold(), colour_name(c).casefold()):
            return c
    choices = ", ".join(colour_name(c) for c in range(4))
    raise ValueError(
        _("unknown colour {text} (choose {choices})").format(
            text=repr(text.strip()), choices=choices
        )
    )


def card_name(card: int) -> str:
    """A card as players call it: its number, or the Sorry! card's name."""
    return sorry_word() if card == SORRY_CARD else str(card)


def sorry_word() -> str:
    """The game's name and its special card, as the language writes it (``Sorry!``)."""
    return _("Sorry!")


def start_word() -> str:
    """The START area's label (board and text)."""
    return _("START")


def home_word() -> str:
    """The HOME area's label (board and text)."""
    return _("HOME")


def board_label(kind: str) -> str:
    """The label of a START (``kind`` ``"start"``) or HOME box on the board, and the
    board's centre title (``"title"``): short forms a language may choose for the
    board's few cells (the boxes hold 7 to 8 cells with the pawn count)."""
    # i18n: on the board, inside a box of 9 cells with " 4" after it: at most 7 cells;
    # text that keeps the same width in every terminal (no Hindi spacing vowel signs).
    if kind == "start":
        return pgettext("board", "START")
    if kind == "home":
        # i18n: on the board, at most 7 cells (see START).
        return pgettext("board", "HOME")
    # i18n: the game's name in the middle of the board: at most 12 cells.
    return pgettext("board", "SORRY!")


def location_name(loc: int) -> str:
    """START, HOME, a safety square ``S1``..``S5`` or the track square's number."""
    if loc == START:
        return start_word()
    if loc == HOME:
        return home_word()
    if S1 <= loc <= S5:
        return _("S{n}").format(n=loc - S1 + 1)
    return str(loc)


def short_location(loc: int) -> str:
    """A location as a move list's short form writes it (``start``, ``home``, ``S2``, ``14``)."""
    if loc == START:
        return pgettext("short", "start")
    if loc == HOME:
        return pgettext("short", "home")
    return location_name(loc)


def variant_title(wire: str) -> str:
    """The name of a variant (wire value ``standard``, ``team`` or ``points``)."""
    rules = VARIANTS.get(wire)  # its title is marked for the catalogs in rules/variants.py
    return _(rules.title) if rules is not None else wire


def join_names(names: Sequence[str]) -> str:
    """Names listed in a sentence: ``A``, ``A and B``, ``A, B and C``."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def strength_word(level: str) -> str:
    """A bot's strength (``random``, ``greedy``, ``expert``, ``master``) in the current language."""
    words = {
        "random": pgettext("strength", "random"),
        "greedy": pgettext("strength", "greedy"),
        "expert": pgettext("strength", "expert"),
        "master": pgettext("strength", "master"),
    }
    return words.get(level, level)


def bot_title(level: str, number: int) -> str:
    """The name the table gave a bot (its strength and number: ``greedy bot 2``) in the
    current language: a label, worded for each player (a name a person chose is not)."""
    return _("{strength} bot {n}").format(strength=strength_word(level), n=number)


def join_clauses(clauses: Sequence[str]) -> str:
    """Clauses of one sentence, each whole, joined as the language joins them (English
    ``A; B``, Greek ``A· B``: a Greek ``;`` is a question mark; Thai a space)."""
    return pgettext("clauses", "; ").join(clauses)


def pawns_word(pawns: Sequence[int]) -> str:
    """Pawn tokens separated by spaces (``B1 Y2``)."""
    return " ".join(pawn_label(p) for p in pawns)


# -- one pawn's move -----------------------------------------------------------------


def step_words(
    pawn: int, frm: int, to: int, steps: int, back: bool, end: int, bumps: Sequence[int]
) -> str:
    """One pawn's displacement, e.g. ``R1 forward 2: 4 to 6, slides to 9, bumps B1``."""
    who = pawn_label(pawn)
    if frm == START:
        text = _("{pawn} out of {start} onto {to}").format(
            pawn=who, start=start_word(), to=location_name(to)
        )
    elif back:
        text = ngettext(
            "{pawn} back {n}: {frm} to {to}",
            "{pawn} back {n}: {frm} to {to}",
            steps,
        ).format(pawn=who, n=steps, frm=location_name(frm), to=location_name(to))
    else:
        text = ngettext(
            "{pawn} forward {n}: {frm} to {to}",
            "{pawn} forward {n}: {frm} to {to}",
            steps,
        ).format(pawn=who, n=steps, frm=location_name(frm), to=location_name(to))
    if end != to:
        text = _("{move}, slides to {end}").format(move=text, end=location_name(end))
    if bumps:
        text = _("{move}, bumps {pawns}").format(move=text, pawns=pawns_word(bumps))
    return text


def comma_slides_words(move: str, end: int) -> str:
    """A move's words with where its pawn slides to (``…, slides to 19``)."""
    return _("{move}, slides to {end}").format(move=move, end=location_name(end))


def comma_bumps_words(move: str, bumps: Sequence[int]) -> str:
    """A move's words with the pawns it sends back (``…, bumps B1``)."""
    return _("{move}, bumps {pawns}").format(move=move, pawns=pawns_word(bumps))


def pawn_slides_words(move: str, pawn: int, end: int) -> str:
    """A swap's words with one of its pawns sliding (``…, R1 slides to 19``)."""
    return _("{move}, {pawn} slides to {end}").format(
        move=move, pawn=pawn_label(pawn), end=location_name(end)
    )


def split_words(first: str, then: str) -> str:
    """A split 7 from its two parts' words."""
    return _("split the 7: first {first}; then {then}").format(first=first, then=then)


def swap_words(a: int, on_a: int, b: int, on_b: int) -> str:
    """An 11 swapping pawn ``a`` (on square ``on_a``) with ``b`` (on ``on_b``)."""
    return _("swap {a} on {on_a} with {b} on {on_b}").format(
        a=pawn_label(a), on_a=on_a, b=pawn_label(b), on_b=on_b
    )


def slides_words(move: str, pawn: int, end: int) -> str:
    """A move's words with one pawn's slide added."""
    return _("{move}; {pawn} slides to {end}").format(
        move=move, pawn=pawn_label(pawn), end=location_name(end)
    )


def also_bumps_words(move: str, bumps: Sequence[int]) -> str:
    """A move's words with the pawns it sends back to START added."""
    return _("{move}; bumps {pawns}").format(move=move, pawns=pawns_word(bumps))


def sorry_words(pawn: int, target: int, square: int, end: int) -> str:
    """A Sorry! card: ``pawn`` leaves START for ``target``'s square, ``target`` goes home."""
    text = _("{sorry} {pawn} from {start} onto {square}, {target} back to {start}").format(
        sorry=sorry_word(),
        pawn=pawn_label(pawn),
        start=start_word(),
        square=square,
        target=pawn_label(target),
    )
    if end != square:
        text = _("{move}, slides to {end}").format(move=text, end=location_name(end))
    return text


def decline_words() -> str:
    """Declining the 11 (long form)."""
    return _("decline the 11: no move, the turn is lost")


def decline_short() -> str:
    """Declining the 11 (as a move list shows it)."""
    return _("decline the 11")


def discard_words(card: int) -> str:
    """Discarding a card without a move (long form, play for points)."""
    return _("discard the {card} and draw a new card").format(card=card_name(card))


def discard_short(card: int) -> str:
    """Discarding a card (as a move list shows it)."""
    return _("discard {card}").format(card=card_name(card))


def play_card_words(card: int, move: str) -> str:
    """A move from a hand: which card it plays, then the move's words."""
    return _("play the {card}: {move}").format(card=card_name(card), move=move)


# -- what happened -------------------------------------------------------------------


def discarded_line(who: str, card: int) -> str:
    return _("{who}: discarded {card}").format(who=who, card=card_name(card))


def turn_lost_line(who: str, card: int) -> str:
    return _("{who}: {card}, no move: turn lost").format(who=who, card=card_name(card))


def draws_again_line(who: str) -> str:
    return _("{who} draws again").format(who=who)


def you_draw_again_line() -> str:
    return _("You draw again")


def reshuffle_line(pile: int) -> str:
    return ngettext(
        "the discards are shuffled into a new pile of {n} card",
        "the discards are shuffled into a new pile of {n} cards",
        pile,
    ).format(n=pile)


def bumped_line(pawn: int, frm: int) -> str:
    return _("{pawn} sent back to {start} from {frm}").format(
        pawn=pawn_label(pawn), start=start_word(), frm=location_name(frm)
    )


def drew_line(who: str, card: int) -> str:
    return _("{who} drew {card}").format(who=who, card=card_name(card))


def you_drew_line(card: int) -> str:
    return _("You drew {card}").format(card=card_name(card))


def played_line(card: int, moves: str) -> str:
    """A played card and its pawns' moves in short form (``7: R1 4->6, R2 9->14``)."""
    return _("{card}: {moves}").format(card=card_name(card), moves=moves)


def you_word() -> str:
    """How the log names the player who reads it."""
    return _("You")


def to_play_line(who: str) -> str:
    return _("{who} to play").format(who=who)


def winners_line(names: Sequence[str]) -> str:
    """Who won: one name or several (a team); none: the host ended the game first
    (SPEC: an ``over`` with no winners is an abandoned game)."""
    if not names:
        return _("the host ended the game; nobody won")
    return ngettext("{names} wins", "{names} win", len(names)).format(names=join_names(names))


def won_line(names: Sequence[str]) -> str:
    """Past tense: who won the game that just ended."""
    return ngettext("{names} won", "{names} won", len(names)).format(names=join_names(names))


def card_help(card: int) -> str:
    """What a card lets a player do, in one short line (empty for no such card)."""
    start = start_word()
    texts = {
        1: _("leave {start}, or move 1").format(start=start),
        2: _("leave {start}, or move 2; then draw again").format(start=start),
        3: _("move 3"),
        4: _("move back 4"),
        5: _("move 5"),
        7: _("move 7, or split it between two pawns"),
        8: _("move 8"),
        10: _("move 10, or back 1"),
        11: _("move 11, or swap with an opponent"),
        12: _("move 12"),
        13: _("from {start} onto an opponent, who goes back to {start}").format(start=start),
    }
    return texts.get(card, "")
