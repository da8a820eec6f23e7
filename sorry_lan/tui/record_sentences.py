"""A game record (protocol/RECORD.md) told as the line mode tells a game: one turn a line.

:func:`record_sentences` gives the header (who hosted, the variant, when, who
played which colour), then one line of whole sentences per turn ("12. Ann played a
7: pawn 1 moves 3 to 5 squares before its safety zone and pawn 2 moves 4 to square 1
of its safety zone."), a reshuffle told with the turn that follows it and a 2's
second draw with the 2, then the result.  Squares are told as each pawn's owner
counts them, as in :mod:`~sorry_lan.tui.sentences`; nobody is "you".

Pure: it reads a record already loaded (``sorry_lan.records`` reads and checks
files); it prints nothing.  A turn whose parts are not the format's is told from
what it names (who, the card), never with the record's notation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sorry_lan.i18n import _, ngettext, words
from sorry_lan.rules.board import Colour
from sorry_lan.rules.cards import Card

from .sentences import People, card_words, move_words, opening, record_played, sentence


def _colour(word: object) -> int | None:
    try:
        return int(Colour.parse(str(word)))
    except ValueError:
        return None


def _when(stamp: object) -> str:
    """``2026-09-21T14:13:20Z`` as ``2026-09-21 14:13 UTC`` (read aloud more easily)."""
    text = str(stamp or "")
    if len(text) >= 16 and text[10] == "T":
        return f"{text[:10]} {text[11:16]} UTC"
    return text or "-"


def record_sentences(record: Mapping[str, Any]) -> list[str]:
    """The record as lines of sentences (see the module docstring)."""
    seats = [s for s in record.get("seats") or [] if isinstance(s, dict)]
    names: dict[int, str] = {}
    for s in seats:
        c = _colour(s.get("colour"))
        if c is not None:
            names[c] = str(s.get("name"))
    people = People(names, None)
    variant = words.variant_title(str(record.get("variant")))
    table, host = record.get("table") or "-", record.get("host")
    when = {"started": _when(record.get("started")), "ended": _when(record.get("ended"))}
    if host:
        head = sentence(
            _("{host} hosted this game of {variant} at {table}, from {started} to {ended}"),
            host=host,
            variant=variant,
            table=table,
            **when,
        )
    else:
        head = sentence(
            _("A game of {variant} at {table}, from {started} to {ended}"),
            variant=variant,
            table=table,
            **when,
        )
    players = words.join_names(
        [
            _("{name} plays {colour}").format(name=names[c], colour=words.colour_name(c).lower())
            for c in sorted(names)
        ]
    )
    lines = [head + " " + sentence(_("The game begins: {players}"), players=players)]
    waiting = ""  # a reshuffle, told with the turn after it
    for turn in record.get("turns") or []:
        if not isinstance(turn, dict):
            continue
        if turn.get("type") == "reshuffle":
            waiting = sentence(words.reshuffle_line(_count(turn.get("cards"))))
            continue
        text = _turn(turn, people)
        lines.append(f"{turn.get('n')}. {waiting + ' ' if waiting else ''}{text}")
        waiting = ""
    lines += _result(record.get("result"), people, str(record.get("variant")))
    return lines


def _count(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def _turn(turn: Mapping[str, Any], people: People) -> str:
    kind = turn.get("type")
    who_colour = _colour(turn.get("who"))
    who = people.name(who_colour) if who_colour is not None else str(turn.get("who"))
    try:
        card = int(Card.parse(turn.get("card")))
    except (ValueError, TypeError):
        card = 0
    again = ""
    if card == 2 and who_colour is not None:
        again = " " + sentence(_("{who} draws again."), who=who)
    if kind == "move":
        if turn.get("kind") == "discard":
            return sentence(_("{who} discarded {card}"), who=who, card=card_words(card))
        if turn.get("kind") == "decline":
            return sentence(
                _("{who} drew {card} and made no move, so the turn is over"),
                who=who,
                card=card_words(card),
            )
        try:
            what = move_words(record_played(turn, card), people, who_colour)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            what = _("a move this program cannot word")
        head = opening(_("{who} played {card}"), who=who, card=card_words(card))
        return sentence(_("{head}: {move}"), head=head, move=what) + again
    if kind == "lost":
        text = _("{who} drew {card} and has no move, so the turn is lost")
        return sentence(text, who=who, card=card_words(card)) + again
    if kind == "seat":
        colour = _colour(turn.get("colour"))
        hue = words.colour_name(colour).lower() if colour is not None else "-"
        if turn.get("player") == "bot":
            owner = people.name(colour) if colour is not None else hue
            return sentence(_("A bot takes the seat of {name} ({colour})"), name=owner, colour=hue)
        return sentence(_("{name} takes the seat at {colour}"), name=turn.get("name"), colour=hue)
    if kind == "cover":  # RECORD.md version 2: a bot plays for a person who is away
        colour = _colour(turn.get("colour"))
        away = people.name(colour) if colour is not None else "-"
        strength = words.strength_word(str(turn.get("strength") or ""))
        return sentence(_("A bot ({strength}) plays for {name}, who is away"),
                        strength=strength, name=away)
    if kind == "back":
        colour = _colour(turn.get("colour"))
        name = turn.get("name") or (people.name(colour) if colour is not None else "-")
        return sentence(_("{name} is back and plays again"), name=name)
    if kind == "chat":
        colour = _colour(turn.get("colour"))
        speaker = people.name(colour) if colour is not None else _("The host")
        return sentence(_("{who} says: {text}"), who=speaker, text=turn.get("text"))
    return sentence(_("{who}: an entry this program does not know"), who=who)


def _result(outcome: object, people: People, variant: str) -> list[str]:
    if not isinstance(outcome, dict):
        playing = words.join_names([people.name(c) for c in sorted(people.names)])
        return [sentence(_("The record ends while {names} are still playing"), names=playing)]
    winners = [c for c in (_colour(w) for w in outcome.get("winners") or []) if c is not None]
    names = [people.name(c) for c in winners]
    lines = [
        ngettext(
            "The game is over: {names} won.", "The game is over: {names} won.", len(names)
        ).format(names=words.join_names(names))
    ]
    points = outcome.get("points")
    if variant == "points" and isinstance(points, dict):
        lines.append(_points(points, people))
    return lines


def _points(points: Mapping[object, object], people: People) -> str:
    each: Sequence[str] = [
        ngettext("{name} has {n} point", "{name} has {n} points", n).format(
            name=people.name(c), n=n
        )
        for c, n in ((_colour(k), v) for k, v in points.items())
        if c is not None and isinstance(n, int)
    ]
    return sentence(_("Points: {scores}"), scores=words.join_names(each))
