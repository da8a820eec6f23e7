"""``sorry-lan replay FILE [--check] [--text]``: a game record, one turn a line, in the
player's language (``--text``: in whole sentences, as the line mode tells a game);
``--check`` also replays it through the rules and refuses it at the first turn that
does not follow.

:func:`text_lines` is the text form ``sorry-lan games --export --format text`` writes
too.  Reading is bounded (at most ``records.MAX_BYTES`` and one byte more are read);
a file that is no record, or a refused one, gets one sentence and exit status 1.  The
board replay screen is not here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sorry_lan.codes import RecordFailure
from sorry_lan.i18n import _, pgettext
from sorry_lan.i18n.coded import say
from sorry_lan.i18n.words import (
    card_name,
    colour_name,
    comma_bumps_words,
    comma_slides_words,
    decline_short,
    discarded_line,
    join_names,
    pawn_slides_words,
    played_line,
    reshuffle_line,
    short_location,
    turn_lost_line,
    variant_title,
    won_line,
)
from sorry_lan.net.kept import read_kept
from sorry_lan.records import RecordError
from sorry_lan.records import check as check_record
from sorry_lan.rules import Card, Colour, parse_location, pawn_label
from sorry_lan.tui.record_sentences import record_sentences


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", type=Path, help=_("a game record (JSON)"))
    p.add_argument(
        "--check",
        action="store_true",
        help=_("replay it through the rules; refuse it at the first turn that does not follow"),
    )
    p.add_argument(
        "--text",
        "--screen-reader",
        dest="sentences",
        action="store_true",
        help=_("tell each turn in whole sentences, as the line mode does (for screen readers)"),
    )


def read_record(path: Path) -> dict[str, Any]:
    """The record in ``path``, read in bounded memory; :class:`RecordError` if none."""
    return read_kept(path)


def _colour(word: object) -> str:
    try:
        return colour_name(Colour.parse(str(word)))
    except ValueError:
        return str(word)


def _card(word: object) -> str:
    try:
        return card_name(Card.parse(word))
    except ValueError:
        return str(word)


def text_lines(record: Mapping[str, Any]) -> list[str]:
    """The record for people: a header, each turn on its line, the result.  A record
    that was loaded but not checked is shown as far as its fields allow."""
    seats = [s for s in record.get("seats") or [] if isinstance(s, dict)]
    names = {s.get("colour"): str(s.get("name")) for s in seats}
    players = [
        (
            _("{name} ({colour}, bot)") if s.get("player") == "bot" else _("{name} ({colour})")
        ).format(name=s.get("name"), colour=_colour(s.get("colour")))
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
            lines.append(f"{turn.get('n')}. {_turn_line(turn, names)}")
    outcome = record.get("result")
    if isinstance(outcome, dict):
        winners = [names.get(c, _colour(c)) for c in outcome.get("winners") or []]
        lines.append(won_line(winners))
        points = outcome.get("points") or {}
        if record.get("variant") == "points" and isinstance(points, dict):
            scores = ", ".join(f"{names.get(c, _colour(c))} {n}" for c, n in points.items())
            lines.append(_("points: {scores}").format(scores=scores))
    else:
        lines.append(pgettext("saved game", "unfinished"))
    return lines


def _turn_line(turn: Mapping[str, Any], names: Mapping[object, str]) -> str:
    kind = turn.get("type")
    who = names.get(turn.get("who"), _colour(turn.get("who")))
    if kind == "move":
        card = Card.parse(turn.get("card")) if turn.get("card") else Card.ONE
        if turn.get("kind") == "discard":
            return discarded_line(who, card)
        try:
            words = _move_words(turn)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            words = str(turn.get("notation"))  # parts this program cannot word
        return _("{who}: {move}").format(who=who, move=played_line(card, words))
    if kind == "lost":
        return turn_lost_line(who, Card.parse(turn.get("card")))
    if kind == "reshuffle":
        return reshuffle_line(int(turn.get("cards") or 0))
    if kind == "seat":
        colour = _colour(turn.get("colour"))
        if turn.get("player") == "bot":
            return _("{colour}: a bot takes the seat").format(colour=colour)
        return _("{colour}: {name} takes the seat").format(colour=colour, name=turn.get("name"))
    if kind == "cover":
        return _("{colour}: a bot ({strength}) plays for the player who is away").format(
            colour=_colour(turn.get("colour")), strength=turn.get("strength")
        )
    if kind == "back":
        return _("{colour}: {name} is back in the seat").format(
            colour=_colour(turn.get("colour")), name=turn.get("name")
        )
    if kind == "chat":
        speaker = names.get(turn.get("colour"), _colour(turn.get("colour")))
        return _("{who} says: {text}").format(who=speaker, text=turn.get("text"))
    return str(kind)


def _pawn(label: object) -> int:
    text = str(label)
    if len(text) != 2 or text[1] not in "1234":
        raise ValueError(f"no pawn {text!r}")
    return int(Colour.parse({"R": "red", "B": "blue", "Y": "yellow", "G": "green"}[text[0]])
               ) * 4 + int(text[1]) - 1  # fmt: skip


def _move_words(turn: Mapping[str, Any]) -> str:
    """A move's parts in the player's language (START, HOME, slides and bumps worded;
    pawns and squares as the board shows them)."""
    kind = turn.get("kind")
    if kind == "decline":
        return decline_short()
    loc = short_location
    parts = [
        (_pawn(p["pawn"]), parse_location(p["from"]), parse_location(p["to"]),
         parse_location(p["end"]), [_pawn(b) for b in p["bumps"]])
        for p in turn["parts"]
    ]  # fmt: skip
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


def run(args: argparse.Namespace) -> int:
    try:
        record = read_record(args.file)
        if args.check:
            check_record(record, str(args.file))
        lines = record_sentences(record) if args.sentences else text_lines(record)
    except RecordError as exc:
        print(f"sorry-lan replay: {say(exc)}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, AttributeError):
        # A record that loads but was not checked may hold anything in its turns.
        print(f"sorry-lan replay: {say(RecordFailure.NOT_RECORD(path=args.file))}",
              file=sys.stderr)  # fmt: skip
        return 1
    for line in lines:
        print(line)
    if args.check:
        print(_("the record replays through the rules to the same board and result"))
    return 0
