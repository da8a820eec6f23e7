"""A game record's turns in the player's language: the text form and the replay panel.

A record (``protocol/RECORD.md``) spells colours, cards, pawns and squares its own
way; :func:`record_lines` is the text form (``sorry-lan replay --text``, ``games
--export --format text``): a header, each turn on its line, the result;
:func:`turn_line` words one turn entry as it prints it (who,
the card, the move from its parts: START, HOME, slides and bumps in words, pawns and
squares as the board shows them; the rules notation only where the parts cannot be
worded), :func:`move_words` the move alone and :func:`slide_lines` its slides, one
line a pawn.  Entries come as a record holds them and may be anything a file held:
what cannot be read is shown as it is.  Nothing here checks a record against the
rules (``records.check`` does) or reads a file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sorry_lan.rules import Card, Colour, parse_location, parse_pawn, pawn_label

from . import _, pgettext
from .words import (
    card_name,
    colour_name,
    comma_bumps_words,
    comma_slides_words,
    decline_short,
    discarded_line,
    join_names,
    location_name,
    pawn_slides_words,
    played_line,
    reshuffle_line,
    short_location,
    turn_lost_line,
    variant_title,
    won_line,
)

Entry = Mapping[str, Any]


def colour_word(word: object) -> str:
    """A record's colour (``"red"``) in words; the word itself if it is none."""
    try:
        return colour_name(Colour.parse(str(word)))
    except ValueError:
        return str(word)


def card_word(word: object) -> str:
    """A record's card (``"7"``, ``"sorry"``) as players call it."""
    try:
        return card_name(Card.parse(word))
    except ValueError:
        return str(word)


def record_lines(record: Mapping[str, Any]) -> list[str]:
    """The record for people: a header, each turn on its line, the result.  A record
    that was loaded but not checked is shown as far as its fields allow."""
    seats = [s for s in record.get("seats") or [] if isinstance(s, dict)]
    names = {s.get("colour"): str(s.get("name")) for s in seats}
    players = [
        (
            _("{name} ({colour}, bot)") if s.get("player") == "bot" else _("{name} ({colour})")
        ).format(name=s.get("name"), colour=colour_word(s.get("colour")))
        for s in seats
    ]
    lines = [
        _("{table}: {variant}, seed {seed}").format(
            table=record.get("table") or "-",
            variant=variant_title(str(record.get("variant"))),
            seed=record.get("seed"),
        ),
        join_names(players),
        _("started {started}, ended {ended}").format(
            started=record.get("started") or "-", ended=record.get("ended") or "-"
        ),
    ]
    for turn in record.get("turns") or []:
        if isinstance(turn, dict):
            lines.append(f"{turn.get('n')}. {turn_line(turn, names)}")
    outcome = record.get("result")
    if isinstance(outcome, dict):
        winners = [names.get(c, colour_word(c)) for c in outcome.get("winners") or []]
        lines.append(won_line(winners))
        points = outcome.get("points") or {}
        if record.get("variant") == "points" and isinstance(points, dict):
            scores = ", ".join(f"{names.get(c, colour_word(c))} {n}" for c, n in points.items())
            lines.append(_("points: {scores}").format(scores=scores))
    else:
        lines.append(pgettext("saved game", "unfinished"))
    return lines


def turn_line(turn: Entry, names: Mapping[object, str]) -> str:
    """One turn entry in a line (``names``: the players' names by record colour)."""
    kind = turn.get("type")
    who = names.get(turn.get("who"), colour_word(turn.get("who")))
    if kind == "move":
        card = Card.parse(turn.get("card")) if turn.get("card") else Card.ONE
        if turn.get("kind") == "discard":
            return discarded_line(who, card)
        return _("{who}: {move}").format(who=who, move=played_line(card, move_words(turn)))
    if kind == "lost":
        return turn_lost_line(who, Card.parse(turn.get("card")))
    if kind == "reshuffle":
        return reshuffle_line(int(turn.get("cards") or 0))
    if kind == "seat":
        colour = colour_word(turn.get("colour"))
        if turn.get("player") == "bot":
            return _("{colour}: a bot takes the seat").format(colour=colour)
        return _("{colour}: {name} takes the seat").format(colour=colour, name=turn.get("name"))
    if kind == "cover":
        return _("{colour}: a bot ({strength}) plays for the player who is away").format(
            colour=colour_word(turn.get("colour")), strength=turn.get("strength")
        )
    if kind == "back":
        return _("{colour}: {name} is back in the seat").format(
            colour=colour_word(turn.get("colour")), name=turn.get("name")
        )
    if kind == "chat":
        speaker = names.get(turn.get("colour"), colour_word(turn.get("colour")))
        return _("{who} says: {text}").format(who=speaker, text=turn.get("text"))
    return str(kind)


def move_words(turn: Entry) -> str:
    """A move entry's move in words (its notation where its parts cannot be read)."""
    try:
        return _move_words(turn)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return str(turn.get("notation"))  # parts this program cannot word


def _parts(turn: Entry) -> list[tuple[int, int, int, int, list[int]]]:
    return [
        (parse_pawn(p["pawn"]), parse_location(p["from"]), parse_location(p["to"]),
         parse_location(p["end"]), [parse_pawn(b) for b in p["bumps"]])
        for p in turn["parts"]
    ]  # fmt: skip


def _move_words(turn: Entry) -> str:
    kind = turn.get("kind")
    if kind == "decline":
        return decline_short()
    loc = short_location
    parts = _parts(turn)
    if kind == "swap":
        (a, on_a, *_), (b, on_b, *_) = parts
        text = f"{pawn_label(a)} {loc(on_a)} <-> {pawn_label(b)} {loc(on_b)}"
        for pawn, _frm, to, end, bumps in parts:
            text = pawn_slides_words(text, pawn, end) if end != to else text
            text = comma_bumps_words(text, bumps) if bumps else text
        return text
    texts = []
    for pawn, frm, to, end, bumps in parts:
        text = f"{pawn_label(pawn)} {loc(frm)}->{loc(to)}"
        text = comma_slides_words(text, end) if end != to else text
        if kind == "sorry":  # its second part is the pawn it sends back
            return comma_bumps_words(text, [parts[1][0], *bumps])
        texts.append(comma_bumps_words(text, bumps) if bumps else text)
    return ", ".join(texts)


def slide_lines(turn: Entry) -> list[str]:
    """Each pawn of a move that slid, and where to (``R1 slides to 19``)."""
    try:
        parts = _parts(turn) if turn.get("type") == "move" else []
    except (ValueError, TypeError, KeyError, AttributeError):
        return []
    return [
        _("{pawn} slides to {end}").format(pawn=pawn_label(pawn), end=location_name(end))
        for pawn, _frm, to, end, _bumps in parts
        if end != to
    ]
