"""The line mode (``--text``, ``--screen-reader``): the game as sentences, one a line.

For players who listen (a screen reader) or prefer plain lines.  It prints what
:class:`~sorry_lan.tui.telling.Teller` says of each event from the host (every line
whole sentences that name people and tell squares as the pawn's owner counts them),
and reads commands from a line source: a number plays that move on offer; ``moves``,
``board`` (``where``), ``table`` (``who``) and ``help`` (``?``, ``keys``) answer
with sentences; ``time`` asks for more time for this turn, once; ``start``,
``bot [colour]``, ``variant NAME``, ``colour NAME``, ``ready``, ``rematch``,
``say TEXT`` and ``quit`` do what they say (the table's host, given a ``HandOver``,
is asked first whether to hand the table over:
:mod:`~sorry_lan.tui.line_leaving`); a host cut off from the other laptops also has
``alone``, and a laptop nobody answers asks whether to play on alone
(:mod:`~sorry_lan.tui.alone`).  This module is
the thin I/O loop and the command words: the sentences are built in
:mod:`~sorry_lan.tui.telling` and :mod:`~sorry_lan.tui.sentences` (pure); it does not
draw the board and does not choose moves.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from sorry_lan.client.model import Connection
from sorry_lan.client.swaps import holder
from sorry_lan.codes import ErrorReason
from sorry_lan.handbook import handbook
from sorry_lan.i18n import _, language, ngettext, use_language, words
from sorry_lan.i18n.coded import say as say_code
from sorry_lan.net.client import GameClient
from sorry_lan.rules.variants import VARIANTS, Variant
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError
from sorry_lan.wire.limits import CHAT_MAX
from sorry_lan.wire.transitions import State

from .alone import AloneQuestion, LineAlone
from .hinting import HintsOff, allowed, hint_job, judge
from .line_help import help_lines
from .line_leaving import LineLeaving
from .sentences import sentence
from .state import HandOver, PlayAlone
from .telling import Teller
from .time_words import time_refused

Say = Callable[[str], None]


def colour_name(c: int) -> str:
    return words.colour_name(c).lower()


parse_colour = words.parse_colour


def parse_variant(text: str) -> str:
    """A variant's wire name from its wire name or its title in English or the
    player's language (``team``, ``team play``, ``chwarae mewn timau``)."""
    wanted = text.strip().casefold()
    for wire in VARIANTS:
        titles = {wire, words.variant_title(wire).casefold()}
        with use_language("en"):
            titles.add(words.variant_title(wire))
        if wanted in titles:
            return wire
    return wanted  # the host says what it does not know


HELP_WORDS = ("help", "?", "keys")


def command(client: GameClient, teller: Teller, line: str) -> list[str] | None:
    """Act on one typed line: the lines to say back, or None when the user leaves."""
    word, _sep, rest = line.strip().partition(" ")
    word = word.lower()
    if not word:
        return []
    if word.isdigit():
        offer = client.model.moves
        n = int(word)
        option = teller.option_at(n)
        if offer is None or not 1 <= n <= len(teller.offered):
            raise ValueError(_("no such move on offer"))
        if option is None:
            raise ValueError(_("move {n} has not been said yet: type more to hear it").format(n=n))
        if option.id not in {x.id for x in offer.moves}:
            raise ValueError(_("no such move on offer"))
        if teller.unheard(n):
            teller.offer_after_run_out = False  # (said again now: heard from here on)
            late = _("Your time for the last turn ran out before that number came, so "
                     "nothing was played. This turn again:")
            return [late, *teller.offer()]
        client.play(option.id)
        teller.played()
    elif word == "more":
        return teller.more()
    elif word == "pawn" or (word[:1] == "p" and word[1:].isdigit()):
        number = rest.strip() if word == "pawn" else word[1:]
        if not number.isdigit():
            raise ValueError(_("type pawn and its number, for example pawn 2"))
        return teller.pawn_moves(int(number))
    elif word in ("quit", "exit", "bye"):
        return None
    elif word in HELP_WORDS:
        return help_lines(None if word != "help" or rest.strip() else phase(client))
    elif word == "repeat":
        return teller.repeat()
    elif word == "rules":
        return teller.rules(handbook(language()), rest)
    elif word in ("board", "where"):
        return teller.board()
    elif word in ("table", "who"):
        return teller.table()
    elif word == "moves":
        return teller.offer()
    elif word == "time":
        why = time_refused(client.model)
        if why is not None:
            raise ValueError(why)
        client.ask_more_time()
    elif word in SENDS:
        model = client.model
        if word == "ready" and model.snapshot is not None and model.over is None:
            raise ValueError(_("the game has begun: ready is for the lobby"))
        try:
            SENDS[word](client, rest)
        except LocalProtocolError as exc:
            raise ValueError(refusal(client, word, rest, exc)) from None
    else:
        raise ValueError(_("unknown command {word}").format(word=repr(word)))
    return []


def _variant(text: str) -> Variant:
    try:
        return Variant.parse(parse_variant(text))
    except ValueError:
        choices = ", ".join(words.variant_title(wire) for wire in VARIANTS)
        raise ValueError(
            _("unknown variant {text} (choose {choices})").format(
                text=repr(text.strip()), choices=choices
            )
        ) from None


def phase(client: GameClient) -> str:
    """The table's phase, as :func:`~.telling.help_lines` fits a help to it."""
    session = client.model.session
    state = None if session is None else session.state
    if state is State.PLAYING:
        return "game"
    return "over" if state is State.GAME_OVER else "lobby"


#: The commands that send the host a request, by word: what each sends.
SENDS: dict[str, Callable[[GameClient, str], None]] = {
    "start": lambda client, rest: client.start(),
    "bot": lambda client, rest: client.add_bot(parse_colour(rest) if rest else None),
    "variant": lambda client, rest: client.set_variant(_variant(rest)),
    "colour": lambda client, rest: client.choose_colour(parse_colour(rest)),
    "color": lambda client, rest: client.choose_colour(parse_colour(rest)),
    "ready": lambda client, rest: client.ready(True),
    "swap": lambda client, rest: ask_swap(client, rest),
    "accept": lambda client, rest: client.answer_swap(True),
    "decline": lambda client, rest: client.answer_swap(False),
    "rematch": lambda client, rest: client.rematch(),
    "say": lambda client, rest: client.chat(rest.strip()),
    "chat": lambda client, rest: client.chat(rest.strip()),
}
LOBBY_WORDS = frozenset({"start", "bot", "variant", "colour", "color", "ready", "swap"})
SWAP_ANSWERS = frozenset({"accept", "decline"})


def ask_swap(client: GameClient, rest: str) -> None:
    """``swap COLOUR``: ask whoever sits at that colour to trade; ``swap`` alone takes
    this seat's ask back."""
    if not rest.strip():
        client.ask_swap(None)
        return
    colour = parse_colour(rest)
    other = holder(client.model.lobby, colour)
    if other is None:
        raise ValueError(_("nobody sits at {colour}: type colour {colour} to take it").format(
            colour=colour_name(colour)))
    if other.pid == client.model.pid:
        raise ValueError(_("you already play {colour}").format(colour=colour_name(colour)))
    client.ask_swap(other.pid)


def refusal(client: GameClient, word: str, rest: str, exc: LocalProtocolError) -> str:
    """Why a request this program would not send did nothing, in words about the game
    (never the protocol's): the session refused it before it left."""
    reason = exc.reason
    if reason is ErrorReason.UNEXPECTED and word in ("swap", *SWAP_ANSWERS) and (
            phase(client) == "lobby"):  # fmt: skip
        if word in SWAP_ANSWERS:
            return _("nobody is asking you to trade colours")
        return _("this table's host runs an older sorry-lan that cannot trade colours")
    if reason is ErrorReason.UNEXPECTED and word in LOBBY_WORDS | SWAP_ANSWERS:
        if client.model.over is not None:
            return _("that is for the lobby: type rematch to ask for another game")
        return _("that is for the lobby, before a game starts")
    if reason is ErrorReason.UNEXPECTED and word == "rematch":
        return _("rematch is for when a game is over")
    if word in ("say", "chat") and reason is ErrorReason.FORBIDDEN:
        return _("someone watching hears the chat but cannot write in it")
    if word in ("say", "chat") and reason is ErrorReason.BAD_VALUE:
        if not rest.strip():
            return _("type say, a space and your message")
        return ngettext(
            "a message can be at most {n} character", "a message can be at most {n} characters",
            CHAT_MAX,
        ).format(n=CHAT_MAX)
    return say_code(reason)


#: What asks for hints (at a table that has them, on your turn).
HINT_WORDS = ("hint", "hints", "h")


async def hint_lines(client: GameClient, teller: Teller) -> list[str]:
    """The ``hint`` command: the chances of the moves on offer, best first, judged on
    a worker thread from this seat's view; or why there are none."""
    if not allowed(client.model):
        return [not_understood(_("this table has no hints (the host can turn them on: "
                                 "host --hints)"))]
    try:
        job = hint_job(client.model)
    except HintsOff:
        return [not_understood(_("hints are for your turn"))]
    chances = await asyncio.to_thread(judge, job)
    offer = client.model.moves
    if offer is None or offer.sid != job[0]:
        return []  # the turn has gone by meanwhile
    return teller.hint_lines(chances)


def not_understood(why: str) -> str:
    """A typed line that did nothing, and why, as a sentence."""
    return sentence(
        _("Your command did not work: {why}; type help to hear every command"), why=why.rstrip(".")
    )


#: Seconds a bot's move may take before the line mode says the bot is thinking (a
#: quick bot's turn passes without the extra line; the master's search is heard).
THINKING_SAID_AFTER = 1.5


def say_now(text: str) -> None:
    """Print one line at once (a pipe to a screen reader or a script is not a terminal)."""
    print(text, flush=True)


async def stdin_lines(queue: asyncio.Queue[str | None]) -> None:
    """Feed standard input's lines to ``queue`` (None at end of input).

    A daemon thread reads, so a pending read never keeps the program from exiting."""
    loop = asyncio.get_running_loop()

    def pump() -> None:
        while True:
            line = sys.stdin.readline()
            try:
                loop.call_soon_threadsafe(queue.put_nowait, line if line else None)
            except RuntimeError:  # the loop has closed: nobody is listening
                return
            if not line:
                return

    threading.Thread(target=pump, name="stdin", daemon=True).start()


async def play_lines(
    client: GameClient,
    say: Say = say_now,
    read: Callable[[asyncio.Queue[str | None]], Coroutine[Any, Any, None]] = stdin_lines,
    hand_over: HandOver | None = None,
    ask_alone: AloneQuestion | None = None,
    play_alone: PlayAlone | None = None,
) -> int:
    """Run the line interface until the user quits or the connection is lost for good.

    With ``hand_over`` the table's host who types ``quit`` is asked whether to hand
    the table to another player's laptop (the default) or end it for everyone.  With
    ``ask_alone`` (the heir's question) the person is asked, when nobody answers once
    the host is lost, whether to start a game of their own; with ``play_alone`` (a
    host's) they are told when their game is paused because the laptop is cut off,
    and ``alone`` plays on alone after a question (:mod:`~sorry_lan.tui.alone`)."""
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    reader = asyncio.create_task(read(lines))
    teller = Teller()
    model = client.model
    leaving = LineLeaving(hand_over, lambda: model.snapshot is not None and model.over is None)
    alone = LineAlone(ask_alone, play_alone)
    try:
        while True:
            get_ev = asyncio.create_task(client.next_event())
            get_line = asyncio.create_task(lines.get())
            tasks: set[asyncio.Task[Any]] = {get_ev, get_line}
            if ask_alone is not None:
                tasks.add(asyncio.create_task(ask_alone.news()))
            wait = THINKING_SAID_AFTER if teller.waits() else None
            warn_in = teller.warning_in()
            if warn_in is not None:
                wait = warn_in if wait is None else min(wait, warn_in)
            done, _ = await asyncio.wait(tasks, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                if task not in done:
                    task.cancel()
            if not done:  # a move is slow to come: say why the table waits
                thinking = teller.thinking() if teller.waits() else None
                if thinking is not None:
                    say(thinking)
                warning = teller.warning()
                if warning is not None:
                    say(warning)
            if get_ev in done:
                ev = get_ev.result()
                for text in teller.tell(client.model, ev):
                    say(text)
                if isinstance(ev, Connection) and ev.state == "lost":
                    return 1
            for text in alone.news():
                say(text)
            if get_line in done:
                line = get_line.result()
                if line is None:
                    return 0
                if alone.asking is not None:  # play on alone? (a join's, or the host's)
                    for text in alone.answer(line):
                        say(text)
                    continue
                if leaving.asking:  # the host's quit: hand the table over, or end it
                    answer = leaving.answer(line)
                    if answer is None:
                        return 0
                    for text in answer:
                        say(text)
                    continue
                if line.strip().lower() in HINT_WORDS:
                    for text in await hint_lines(client, teller):
                        say(text)
                    continue
                try:
                    answer = alone.command(line)
                    if answer is None:
                        answer = command(client, teller, line)
                        if line.strip().lower() in HELP_WORDS:
                            answer = [*(answer or []), *alone.help_lines()]
                except ValueError as exc:
                    answer = [not_understood(str(exc))]
                except LocalProtocolError as exc:
                    answer = [not_understood(say_code(exc.reason))]
                if answer is None:
                    answer = leaving.quit()
                    if answer is None:
                        return 0
                for text in answer:
                    say(text)
    finally:
        reader.cancel()


def format_result(over: m.GameOver, names: Mapping[int, str]) -> str:
    """The end of a game as one sentence for a terminal or a script: who won, by colour
    and name (``names``: colour -> player name), and the points in play for points;
    "the host ended the game" for one with no winner.  The same words on the host and
    on each bot, so that they can be compared."""

    def who(colour: int) -> str:
        return words.seat_label(colour, names.get(colour))

    winners = [int(c) for c in over.winners]
    if not winners:
        text = _("The host ended the game before anyone won.")
    else:
        text = _("{won} won.").format(won=words.join_names([who(c) for c in winners]))
    if over.scores is not None:
        each = ", ".join(f"{who(c)} {points}" for c, points in enumerate(over.scores)
                         if c in names)
        if each:
            text += " " + _("Points: {each}.").format(each=each)
    return text
