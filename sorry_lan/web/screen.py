"""What a phone's page shows, as one JSON-ready dict built from its seat's client.

:func:`screen` reads the client model's table view and the line mode's
:class:`~sorry_lan.tui.telling.Teller` of that seat (who sits where, the moves on
offer in the order the line mode says them, the result) and words everything in the
current language (the caller chooses it: :func:`sorry_lan.i18n.use_language`) with
the catalogs' own sentences, the line mode's: the page shows them as they come and
decides nothing.  Pure: it sends nothing and keeps nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from sorry_lan.client import swaps
from sorry_lan.client.model import ClientModel
from sorry_lan.i18n import LANGUAGES, _, pgettext, words
from sorry_lan.rules.board import pawn_colour
from sorry_lan.rules.moves import MoveKind
from sorry_lan.tui.sentences import Played, card_words, move_words, option_played, sentence
from sorry_lan.tui.telling import Teller, your_hand
from sorry_lan.tui.time_words import time_refused
from sorry_lan.wire.transitions import State

from .board import cells, place_cell
from .follow import next_pages
from .record import record_game

#: A JSON value as the page reads it.
Json = dict[str, object]


def labels() -> dict[str, str]:
    """The page's own words: its buttons and headings, in the current language."""
    return {
        "name": _("Name:"),
        "join": pgettext("key", "join"),
        "ready": pgettext("key", "ready"),
        "rematch": pgettext("key", "rematch"),
        "chat": pgettext("key", "chat"),
        "colour": pgettext("key", "colour"),
        "log": pgettext("key", "log"),
        "back": pgettext("key", "back"),
        "language": pgettext("key", "language"),
        "free": pgettext("seat", "(free)"),
        "bot": pgettext("seat", "[bot]"),
        "is_ready": pgettext("seat", "ready"),
        "not_ready": pgettext("seat", "not ready"),
        "lost": _("host lost"),
        "trade": pgettext("key", "trade"),
        "accept": pgettext("key", "accept"),
        "decline": pgettext("key", "decline"),
        "take_back": pgettext("key", "take back"),
        "more_time": pgettext("key", "more time"),
        "save": pgettext("key", "save the game's record"),
        "save_text": pgettext("key", "save it as text"),
    }


def greeting(lang: str) -> Json:
    """What a page shows before it has a seat: the words to ask a name with."""
    return {"t": "screen", "phase": "join", "lang": lang, "langs": list(LANGUAGES.items()),
            "words": labels()}


def _phase(model: ClientModel) -> str:
    state = model.state
    if state is State.PLAYING:
        return "game"
    if state is State.GAME_OVER:
        return "over"
    return "lobby"


def _seats(model: ClientModel, teller: Teller) -> list[Json]:
    """The seats by colour: those taken, then free ones up to the table's size."""
    lobby = model.view.lobby
    if lobby is None:
        return []
    by_colour = {int(p.colour): p for p in lobby.players if p.colour is not None}
    free = lobby.seats - len(by_colour)
    mine = next((p for p in lobby.players if p.pid == model.pid), None)
    trades = lobby.swaps is not None and mine is not None and mine.colour is not None
    out: list[Json] = []
    for colour in range(4):
        player = by_colour.get(colour)
        seat: Json = {"colour": colour, "colour_name": words.colour_name(colour)}
        if player is not None:
            seat |= {
                "name": teller.names.get(colour, player.name), "bot": player.bot,
                "ready": player.ready, "connected": player.connected,
                "you": player.pid == model.pid,
            }
            if trades and player.pid != model.pid:
                seat["trade"] = player.pid  # (the page may ask its player to trade)
        elif free <= 0:
            continue
        else:
            free -= 1
        out.append(seat)
    return out


def _ask(model: ClientModel) -> Json | None:
    """The ask to trade colours this seat takes part in, as a sentence: made to it
    (``from``: the page offers accept and decline) or made by it (``to``: the page
    offers to take it back); None when there is none."""
    lobby = model.view.lobby
    asker = swaps.asked_by(lobby, model.pid)
    if asker is not None and asker.colour is not None:
        text = sentence(_("{name} asks to trade colours with you: you would play {colour}"),
                        name=asker.name, colour=words.colour_name(asker.colour).lower())
        return {"from": asker.pid, "text": text}
    asked = swaps.asking(lobby, model.pid)
    if asked is not None:
        text = sentence(_("You asked {name} to trade colours; waiting for an answer"),
                        name=asked.name)
        return {"to": asked.pid, "text": text}
    return None


def _turn(teller: Teller) -> str | None:
    """Whose turn it is, with the card when it is known; on this seat's own turn in
    play for points, its hand (the host sends it to this seat alone)."""
    if teller.turn is None or teller.over is not None:
        return None
    if teller.turn == teller.you and teller.hand:
        return your_hand(teller.hand)
    name = teller.people.name(teller.turn)
    if teller.card is not None:
        return _("It is {name}'s turn, with {card}.").format(
            name=name, card=card_words(teller.card))
    return _("It is {name}'s turn.").format(name=name)


def _moves(teller: Teller) -> list[Json]:
    """The moves on offer, each a sentence and the cells where its pawns end; a split
    7 also says its first pawn's part alone (``first``), which the page offers first,
    then the splits that begin so (a split in two taps)."""
    out: list[Json] = []
    for i, option in enumerate(teller.offered, 1):
        move = move_words(option_played(option), teller.people, teller.you)
        if teller.hand:
            text = sentence(_("Move {i}, with {card}: {move}"), i=i,
                            card=card_words(option.card), move=move)
        else:
            text = sentence(_("Move {i}: {move}"), i=i, move=move)
        ends = [place_cell(pawn_colour(part.pawn), part.end) for part in option.parts]
        shown: Json = {"text": text, "to": [list(at) for at in ends], "first": None}
        if option.kind == MoveKind.SPLIT and len(option.parts) == 2:
            part = option.parts[0]
            alone = Played(MoveKind.SIMPLE, option.card, (part,))
            first = move_words(alone, teller.people, teller.you)
            shown["first"] = sentence(first[:1].upper() + first[1:])
        out.append(shown)
    return out


def _over(teller: Teller) -> list[str] | None:
    """The result and each player's game (the page's rematch button says what comes
    next: its teller types nothing)."""
    if teller.over is None:
        return None
    return teller.result(figures=teller.figures_told is not None)


def screen(model: ClientModel, teller: Teller, log: Sequence[str], lang: str,
           link: str | None = None) -> Json:
    """The whole page for one seat, as of the last event its teller told."""
    view = model.view
    offer = model.moves
    return {
        "t": "screen",
        "phase": _phase(model),
        "lang": lang,
        "langs": list(LANGUAGES.items()),
        "words": labels(),
        "you": teller.you,
        "seats": _seats(model, teller),
        "cells": [[c.x, c.y, c.kind, c.colour, list(c.pawns), list(c.area)]
                  for c in cells(view.pawns)],
        "turn": _turn(teller),
        "offer": None if offer is None or not teller.offered else offer.sid,
        "moves": _moves(teller) if offer is not None else [],
        "ask": _ask(model),
        "more_time": time_refused(model) is None,  # (the board's and line mode's rule)
        "log": list(log),
        "over": _over(teller),
        "record": record_game(model.book) if teller.over is not None else None,
        "link": link,
        "table": None if model.succession is None else model.succession.table,
        "next": next_pages(model.succession),
    }
