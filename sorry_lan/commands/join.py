"""``sorry-lan join``: find a game on the LAN (or take ``--address``) and play it.

In a terminal it opens the text board: without ``--address`` the find screen lists the
games discovery sees, live, and takes an address, a name and a PIN; with
``--address`` it joins at once (a refusal leaves the player on the find screen to try
again).  ``--text`` (or standard input/output that is not a terminal) keeps the plain
line interface for scripts and screen readers; without ``--address`` it then searches
the LAN for a moment and joins the only joinable game, or lists what it found.

The seat's token is kept in the data dir (``--data-dir``, see ``sorry_lan.net.seats``)
until the game ends, so ``sorry-lan join`` run again after the client died (or after
``q``) takes the seat back by itself, whether the table is found on the LAN (it is
marked "your seat") or given with ``--address``; when the host at that address is
gone, the seat is looked for where its table went (the host it last followed, the
laptops next in the table's order: ``SeatStore.elsewhere``).  Without ``--name`` it
takes the only seat held at that table.  When a table is full or its game has started (and no
seat there is ours) it offers to watch instead: a question on a terminal, else the
command to run.  A wrong or missing PIN is asked for again on a terminal (an empty
answer gives up); elsewhere the command stops and says to give ``--pin``.
When the host is lost and no other laptop answers for the grace, the board or the
line mode asks the player whether to start a game of their own here
(:mod:`sorry_lan.tui.alone`); a no, or no answer, keeps looking for the table.

This module parses options and picks the interface; the connection lives in
``sorry_lan.net.client``, the screens in ``sorry_lan.tui``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from sorry_lan.commands.argtypes import PLAYER_NAME as DEFAULT_NAME
from sorry_lan.commands.games import journal_dir
from sorry_lan.commands.leaving import Leaving, handed_over_lines, keep_seat_there
from sorry_lan.commands.list_games import played_store, seats_dir
from sorry_lan.commands.lookout import MdnsFinder, client_heir
from sorry_lan.i18n import _, is_yes, language
from sorry_lan.i18n.coded import say
from sorry_lan.net.client import ClientOptions, GameClient, JoinError, JoinFailure
from sorry_lan.net.names import NameStore
from sorry_lan.net.seats import SavedSeat, SeatStore
from sorry_lan.tui.alone import AloneQuestion
from sorry_lan.tui.lines import play_lines
from sorry_lan.wire.vocab import RefuseReason

if TYPE_CHECKING:
    from collections.abc import Callable

    from sorry_lan.discovery import FoundGame
    from sorry_lan.net.hosted import HostedTable

SEARCH_SECONDS = 2.0  # every table that answers in this time is listed to choose from
SEARCH_MORE = 4.0  # with none by then (a slow network or a busy laptop), the first to come
WATCH_REASONS = (RefuseReason.STARTED, RefuseReason.FULL)  # then watching is offered
PIN_REASONS = (RefuseReason.BAD_PIN, JoinFailure.PIN_NEEDED)  # then a terminal asks for it


def wants_text(args: argparse.Namespace) -> bool:
    """The line interface: asked for, or no terminal to draw the board on."""
    return bool(args.text) or not (sys.stdin.isatty() and sys.stdout.isatty())


def _format_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def run(args: argparse.Namespace) -> int:
    if wants_text(args):
        return asyncio.run(_text_main(args))
    return asyncio.run(_tui_main(args))


# -- the text board ----------------------------------------------------------------------


async def _tui_main(args: argparse.Namespace) -> int:
    from sorry_lan.discovery import make_zeroconf
    from sorry_lan.tui.controller import ClientController
    from sorry_lan.tui.finder import GameFinder
    from sorry_lan.tui.play import JoinRequest, TuiOptions, run_tui
    from sorry_lan.tui.qr import qr_lines
    from sorry_lan.tui.state import UiState

    spectate = bool(args.spectate)
    seats = SeatStore(seats_dir(args))
    played = played_store(args)
    names = NameStore(seats.directory)  # (beside the seats: the name joined under last)
    state = UiState(default_name=args.name or names.last() or DEFAULT_NAME)
    question = AloneQuestion()  # nobody answers once the host is lost: play on alone?

    finder: GameFinder | None = None

    def make_client(host: str, port: int, name: str, pin: str | None) -> GameClient:
        found = finder.advert_at(host, port) if finder is not None else None
        game = found.instance if found is not None else None
        table = found.table_id if found is not None else None
        if args.name is None and not spectate and name == state.default_name:
            seat = seats.choose([host], port, None, game=game, table=table)  # our seat's name
            name = seat.name if seat is not None else name
        options = ClientOptions(
            pin=pin, spectate=spectate, seats=seats, played=played, game=game, table_id=table,
            lang=language(), finder=MdnsFinder.of(args),
        )
        heir = client_heir(args, spectate, question, phones_here)
        return GameClient(host, port, name, options, heir)

    def phones_here(url: str) -> None:  # this laptop took the table over: phones too
        state.phones_url, state.lobby_qr = url, tuple(qr_lines(url))
        controller.redraw()

    controller = ClientController(state, make_client=make_client, colour=args.colour)
    controller.on_name = names.keep
    controller.ask_alone(question)
    leaving = Leaving(lambda: _hosted_here(controller.client))  # this laptop took it over
    state.hand_over = leaving.hand_over()
    controller.on_leave = leaving.left
    options = TuiOptions(
        ascii=True if args.ascii else None, mouse=not args.no_mouse, journals=journal_dir(args)
    )
    join = None
    if args.address is not None:
        host, port = args.address
        name = _seat_name(seats.choose([host], port, args.name), args.name)
        join = JoinRequest(_format_address(host, port), name, args.pin or "")
        state.searching = False

        def not_searching() -> None:  # worded again when the player changes language
            state.find_message = _(
                "Not searching the network: joining the address given with --address.\n"
                "To try again, correct the fields below (Tab moves) and press Enter."
            )

        not_searching()
        state.relabel.append(not_searching)
    else:
        from sorry_lan.discovery.doctor import async_quick_checkup

        interfaces, ipv6 = args.interface, args.ipv6
        finder = GameFinder(
            state,
            make_zc=lambda: make_zeroconf(interfaces, ipv6),
            seats=seats,
            name=args.name,
            diagnose=lambda: async_quick_checkup(ipv6),
        )
    status = await run_tui(state, controller, options, finder=finder, join=join)
    if leaving.handed:  # this laptop hosted the table and handed it on
        _handed_on(controller.client, seats)
        return 0
    if status != 0:
        print("sorry-lan join: " + _("the connection to the host was lost"), file=sys.stderr)
    return status


def _say_phones(url: str) -> None:
    """The line mode's words for the phones' page this laptop serves since it took
    the table over."""
    print(_("Phones join in a browser at {address}").format(address=url), flush=True)


def _hosted_here(client: GameClient | None) -> HostedTable | None:
    """The table this laptop hosts now (it took it over), if any."""
    from sorry_lan.net.heir import Heir

    heir = None if client is None else client.heir
    return heir.hosted if isinstance(heir, Heir) else None


def _handed_on(client: GameClient | None, seats: SeatStore) -> None:
    """This laptop handed the table it hosted on: keep the seat at the next laptop, and
    say where the table went and how to come back."""
    hosted = _hosted_here(client)
    if client is None or hosted is None:
        return
    model = client.model
    name = model.welcome.name if model.welcome is not None else client.name
    keep_seat_there(seats, hosted.server, name, model.token, hosted.table_id)
    for line in handed_over_lines(hosted.server):
        print(line, flush=True)


# -- the line interface ------------------------------------------------------------------


def _seat_name(seat: SavedSeat | None, asked: str | None) -> str:
    """The name to join under: the one asked for, the held seat's, or the default."""
    if asked is not None:
        return asked
    return seat.name if seat is not None else DEFAULT_NAME


Chosen = tuple[str, int, str | None, str | None, bool]  # host, port, LAN name, id, watch


async def _search(args: argparse.Namespace, seats: SeatStore) -> Chosen | None:
    """Look for games for a moment: (host, port, LAN name, table id, watch) of the game
    where we hold a seat, else of the only joinable one, else (with consent) of the
    only one to watch; or None (after saying why)."""
    from sorry_lan.discovery import DiscoveryError, Unjoinable, async_find_games, make_zeroconf
    from sorry_lan.discovery import nothing_found_message as nothing

    try:
        zc = make_zeroconf(args.interface, args.ipv6)
    except DiscoveryError as exc:
        text = _("cannot search the network: {why}; give --address").format(why=exc)
        print(f"sorry-lan join: {text}", file=sys.stderr)
        return None
    try:
        games = await async_find_games(zc, SEARCH_SECONDS)
        if not games:
            games = await async_find_games(zc, SEARCH_MORE, until_joinable=True)
    finally:
        await zc.async_close()
    if not games:
        from sorry_lan.discovery.advice import likely_reason
        from sorry_lan.discovery.doctor import async_quick_checkup

        reason = likely_reason(await async_quick_checkup(args.ipv6))
        searched = SEARCH_SECONDS + SEARCH_MORE
        print(nothing(searched, args.interface, reason=reason), file=sys.stderr)
        return None
    live = [g for g in games if g.address is not None]
    mine = [g for g in live if (g.joinable or g.watchable) and seats.at_game(g, args.name)]
    open_ = [g for g in live if g.joinable or g.watchable]
    asking = sys.stdin.isatty() and len(open_) > 1 and len(mine) != 1
    for game in games:
        where = _format_address(game.address or "?", game.port)
        found = game.describe(game in mine)
        line = _("found: {game}  ({address})").format(game=found, address=where)
        if asking and game in open_:
            line = f"{open_.index(game) + 1}: {line}"
        print(line)

    def chosen(game: FoundGame, watch: bool = False) -> Chosen:
        assert game.address is not None
        return game.address, game.port, game.instance, game.table_id, watch

    joinable = [g for g in live if g.joinable]
    if len(mine) == 1:
        return chosen(mine[0])
    if not mine and len(joinable) == 1:
        return chosen(joinable[0])
    watchable = [g for g in live if g.watchable]
    if not mine and not joinable and len(watchable) == 1:
        game = watchable[0]
        why = _("its game is under way") if game.reason is Unjoinable.PLAYING else _("it is full")
        if args.spectate or _offer_watch(game.name, why, _format_address(*chosen(game)[:2])):
            return chosen(game, watch=True)
        return None
    if asking:
        picked = choose_game(open_, sys.stdin.readline)
        return None if picked is None else chosen(picked, watch=not picked.joinable)
    text = (
        _("no game can be joined with {option}")
        if not joinable and not mine
        else _("several games: choose one with {option}")
    )
    print("sorry-lan join: " + text.format(option="--address HOST:PORT"), file=sys.stderr)
    return None


def choose_game(games: list[FoundGame], read: Callable[[], str]) -> FoundGame | None:
    """Ask which of ``games`` (listed numbered from 1) to join, reading answers with
    ``read`` until a number on the list; None for an empty answer or the end of input.
    A game that can only be watched is chosen to watch (choosing it says yes)."""
    while True:
        print(_("Type the number of the game to join (nothing: give up): "), end="", flush=True)
        answer = read().strip()
        if not answer:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(games):
            return games[int(answer) - 1]
        print(_("no game has that number: type one from 1 to {n}").format(n=len(games)))


def warn_seat_not_kept(client: GameClient, command: str) -> None:
    """Tell the player, once, on stderr, that the seat's token could not be kept on
    this machine (the data dir cannot be written): only this process can rejoin."""
    if client.seat_not_kept is not None:
        print(f"sorry-lan {command}: {say(client.seat_not_kept)}", file=sys.stderr, flush=True)


def join_error_words(exc: JoinError) -> str:
    """Why joining failed, for a terminal, in the player's language (the words of its
    code name the option that fixes it)."""
    return say(exc)


def _ask_pin(why: RefuseReason | JoinFailure) -> str | None:
    """On a terminal, ask for the table's PIN (again, after a wrong one, as the board
    lets you retype it); None when the person gives none."""
    if why is RefuseReason.BAD_PIN:
        question = _("wrong PIN; type it again (nothing: give up): ")
    else:
        question = _("this game needs a PIN; type it (nothing: give up): ")
    print(question, end="", flush=True)
    answer = sys.stdin.readline().strip()
    return answer or None


def _offer_watch(what: str, why: str, address: str) -> bool:
    """Ask on a terminal whether to watch ``what`` instead of playing; elsewhere say how."""
    if sys.stdin.isatty():
        question = _("{what}: {why}. Watch it instead? [y/N] ").format(what=what, why=why)
        print(question, end="", flush=True)
        return is_yes(sys.stdin.readline())
    command = f"sorry-lan join --spectate --address {address}"
    text = _("{what}: {why}; to watch it: {command}").format(what=what, why=why, command=command)
    print(f"sorry-lan join: {text}", file=sys.stderr)
    return False


async def _text_main(args: argparse.Namespace) -> int:
    seats = SeatStore(seats_dir(args))
    game: str | None = None
    table: str | None = None
    spectate = bool(args.spectate)
    if args.address is not None:
        host, port = args.address
    else:
        found = await _search(args, seats)
        if found is None:
            return 1
        host, port, game, table, watch = found
        spectate = spectate or watch
    name = _seat_name(seats.choose([host], port, args.name, game=game, table=table), args.name)
    pin = args.pin
    question = AloneQuestion()  # nobody answers once the host is lost: play on alone?
    while True:
        options = ClientOptions(
            pin=pin, spectate=spectate, seats=seats, played=played_store(args), game=game,
            table_id=table, lang=language(), finder=MdnsFinder.of(args),
        )
        heir = client_heir(args, spectate, question, _say_phones)
        client = GameClient(host, port, name, options, heir)
        try:
            await client.connect()
        except JoinError as exc:
            where = _format_address(host, port)
            if exc.reason in PIN_REASONS and sys.stdin.isatty():
                pin = _ask_pin(exc.reason)
                if pin is None:
                    return 1
                continue
            if spectate or exc.reason not in WATCH_REASONS:
                print(f"sorry-lan join: {join_error_words(exc)}", file=sys.stderr)
                return 1
            if not _offer_watch(where, join_error_words(exc), where):
                return 1  # declined, or told how to watch
            spectate = True
            continue
        break
    where = _format_address(client.host, client.port)  # (where the table went, if it moved)
    warn_seat_not_kept(client, "join")
    if spectate:
        print(_("You are watching the table at {address}.").format(address=where), flush=True)
    else:
        welcome = client.model.welcome
        who = welcome.name if welcome else name
        text = _("{name}, you joined the table at {address}; type help to hear every command.")
        print(text.format(address=where, name=who), flush=True)
    if args.colour is not None and not spectate:
        client.choose_colour(args.colour)
    leaving = Leaving(lambda: _hosted_here(client))  # this laptop took the table over
    try:
        status = await play_lines(client, hand_over=leaving.hand_over(), ask_alone=question)
        leaving.left()  # (a table hosted here ends before our own player's bye)
    finally:
        await client.close()
    if leaving.handed:  # this laptop hosted the table and handed it on
        _handed_on(client, seats)
        return 0
    return status
