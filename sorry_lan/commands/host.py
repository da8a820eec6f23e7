"""``sorry-lan host``: serve a table on this machine (and, unless headless, play at it).

Prints ``listening on ADDRESS:PORT`` once the socket is bound (``--port 0`` picks a
free port).  A ``--headless`` table starts by itself when ``--players`` seats are taken
(people plus ``--bots``, which play at ``--bot-strength``, as does the bot that covers
a player who drops) and exits 0 when the game ends (``--stay`` keeps it open for
rematches).  Otherwise the host's own player joins over loopback, like everyone
else, and uses the line interface.  ``--resume`` restores a saved game from its
journal in the data directory: ``--resume ID`` that one (``sorry-lan games`` lists
them); ``--resume`` alone the only unfinished game, if it is yours (no ``--name``:
this machine's is yours) and no newer journal is damaged, else it lists the games and
asks which (or, not on a terminal, exits 2 with the list).  A damaged journal's
intact part is resumed only with consent (asked, or ``--salvage``).  The board's
``q`` offers to hand the table to a player's laptop when one is connected (issue 19;
:mod:`sorry_lan.commands.leaving`): the table goes on there, and the host's seat is
kept for it there (``sorry-lan join`` takes it back); a host told to stop (Ctrl-C,
SIGTERM, or SIGHUP: its terminal closed), headless or not, hands its table over the
same way when it can, and its board or line mode closes.  Quitting on
purpose otherwise, or a game that ended, marks the journal finished; a game that was over but
not marked waits for its players to come back and tells them the result.  ``--seed``
makes the games reproducible: it is the first game's seed, and each rematch's is
derived from it.

The table is advertised on the LAN over mDNS as ``--game-name`` (default: ``--name``,
or ``host``; a resumed table keeps the names its journal recorded unless given new
ones, as :func:`~sorry_lan.net.hosted.table_names` decides; a name already in use
gets "-2" appended) on ``--interface`` addresses or all networks, and its advert
follows seats and state; ``--no-mdns`` turns that off, and a table bound to a
loopback address is not advertised.  If mDNS fails the host says so and serves
anyway (players can still give ``--address``).

Its options are read and checked first (:mod:`sorry_lan.commands.options.host`);
this module asks what it must (which saved game, whether to salvage
one: :mod:`sorry_lan.net.saved` decides what there is to ask) and prints; the hosted
table (:class:`~sorry_lan.net.hosted.HostedTable`) owns the journal, the server and
the advert (a ``sorry_lan.discovery.TableAdvertiser`` made here) and the order they
stop in, and a signal asks it to stop.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sorry_lan import DEFAULT_PORT
from sorry_lan.authority.electorate import Laptop
from sorry_lan.authority.restore import TakeoverStart, offers, replay, taken_over
from sorry_lan.authority.table import Restored, TableConfig, TableError
from sorry_lan.codes import Coded, HostFailure, JournalFailure
from sorry_lan.commands.games import journal_dir
from sorry_lan.commands.join import join_error_words
from sorry_lan.commands.leaving import Leaving, handed_over_lines, keep_seat_there, moved_words
from sorry_lan.commands.list_games import seats_dir
from sorry_lan.commands.resume_choice import choice_lines, fitted
from sorry_lan.commands.successor import make_heir
from sorry_lan.commands.table_report import TableReport, result_words
from sorry_lan.errors import SorryLanError
from sorry_lan.i18n import _, is_yes, language, ngettext
from sorry_lan.i18n.coded import say, say_in
from sorry_lan.net.client import ClientOptions, GameClient, JoinError
from sorry_lan.net.host import HostError, HostOptions, HostServer, listen_error
from sorry_lan.net.hosted import (
    HostedTable,
    bot_delay,
    bot_room,
    table_id,
    table_names,
    table_seats,
)
from sorry_lan.net.journal import SUFFIX, JournalError, load
from sorry_lan.net.saved import (
    Ask,
    NotChosen,
    Resumable,
    SavedGame,
    answered,
    being_hosted,
    describe,
    find,
    new_journal_path,
    pick,
    resumable,
    salvage,
    saved_games,
)
from sorry_lan.net.seats import SeatStore
from sorry_lan.net.stopsignals import on_stop_signals
from sorry_lan.rules import Phase
from sorry_lan.tui.alone import AloneQuestion
from sorry_lan.tui.line_help import host_hint
from sorry_lan.tui.lines import format_result, play_lines
from sorry_lan.tui.state import PlayAlone

if TYPE_CHECKING:
    from collections.abc import Callable

    from sorry_lan.discovery import TableAdvertiser
    from sorry_lan.replay import Tape
    from sorry_lan.web.server import WebServer


#: Seconds a table that closes as its game ends waits for the phones to read the result.
PHONES_TOLD = 2.0


class _Exit(SorryLanError):
    """Leave with this status (the reason was already printed)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def run(args: argparse.Namespace) -> int:
    choosing = True  # what --resume says is fitted to the terminal (80 columns at most)
    try:
        resume = _choose_resume(args)
        choosing = False
        return asyncio.run(_main(args, resume))
    except _Exit as done:
        return done.status
    except (HostError, JournalError, TableError) as exc:
        why = say(exc) if isinstance(exc, Coded) else str(exc)
        said = f"sorry-lan host: {why}"
        print(fitted(said) if choosing and args.resume is not None else said, file=sys.stderr)
        return 1
    except OSError as exc:  # the journal refused a write before the table opened (disk full)
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"sorry-lan host: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _choose_resume(args: argparse.Namespace) -> Path | None:
    """The journal ``--resume`` means (None: not resuming); asks when it must."""
    if args.resume is None:
        if args.salvage:
            raise HostError(HostFailure.SALVAGE_ALONE)
        return None
    directory = journal_dir(args)
    games, notes = saved_games(directory)
    for note in notes:
        print(f"sorry-lan host: {say(note)}", file=sys.stderr)
    if args.resume:
        game = find(games, args.resume)
    else:
        try:
            picked = pick(games, args.name)
        except NotChosen as exc:
            if exc.code is not JournalFailure.NONE_UNFINISHED:
                raise HostError(exc.said) from None  # it names the journal and what to do
            raise HostError(HostFailure.NOT_CHOSEN_IN, error=exc.said, directory=directory) \
                from None
        game = _ask(picked) if isinstance(picked, Ask) else picked
    return _resumable(game, args.salvage)


def _ask(ask: Ask) -> SavedGame:
    """Let the person choose among ``ask.choices`` (not on a terminal: exit 2 with them)."""
    lines = choice_lines(ask.choices)
    why = say(ask.said)
    if not _interactive():
        text = _("not resuming by itself: {why}; choose a game with `{command}`:")
        said = "sorry-lan host: " + text.format(why=why, command="sorry-lan host --resume ID")
        print(fitted(said), file=sys.stderr)
        for line in lines:
            print(line, file=sys.stderr)
        raise _Exit(2)
    print(fitted(_("{why}; which game do you want to resume?").format(why=why)))
    for line in lines:
        print(line)
    answer = input(_("number or id (nothing: cancel): ")).strip()
    if not answer:
        print(_("nothing resumed"))
        raise _Exit(2)
    return answered(ask.choices, answer)


def _resumable(game: SavedGame, consent: bool) -> Path:
    """``game``'s journal, ready to resume (a damaged one cut to its intact part, with
    consent); refuses a finished game or one a running host holds."""
    verdict = resumable(game)
    if verdict is Resumable.RUNNING:
        raise HostError(being_hosted(game))
    if verdict is Resumable.FINISHED:
        raise HostError(HostFailure.FINISHED, id=game.id)
    if verdict is Resumable.MOVED:
        raise HostError(HostFailure.MOVED, id=game.id, name=game.moved_to)
    if verdict is Resumable.YES:
        return game.path
    damaged = JournalFailure.DAMAGED_AT(path=game.path, problem=game.problem)
    if verdict is Resumable.NOTHING_INTACT:
        raise HostError(HostFailure.NOTHING_SALVAGED, damage=damaged)
    damage = say(damaged)
    offer = ngettext(
        "the {n} move before the damage", "the {n} moves before the damage", game.salvage_moves
    ).format(n=game.salvage_moves)
    if not consent and _interactive():
        question = _("{damage}.\nResume {offer} (the damaged file is kept)? [y/N] ")
        answer = input(fitted(question.format(damage=damage, offer=offer)) + " ")
        consent = is_yes(answer)
    if not consent:
        command = f"sorry-lan host --resume {game.id} --salvage"
        text = _("{damage}; to resume {offer}, run `{command}` (the damaged file is kept)")
        said = "sorry-lan host: " + text.format(damage=damage, offer=offer, command=command)
        print(fitted(said), file=sys.stderr)
        raise _Exit(2)
    copy = salvage(game)
    print(_("kept the damaged journal as {path}").format(path=copy), flush=True)
    return game.path


def _hosted(args: argparse.Namespace, resume: Path | None) -> HostedTable:
    """The table to host (resuming: the game read back from its journal)."""
    restored = taken = None
    laptops: list[Laptop] = []
    if resume is not None:
        records = load(resume)
        restored, taken, laptops = replay(records), taken_over(records), offers(records)
        if restored is None:
            raise HostError(HostFailure.NO_GAME, path=resume)
    names = table_names(args.name, args.game_name, restored)  # resumed: it keeps its names
    config = TableConfig(
        variant=args.variant,
        seats=table_seats(args.headless, args.players),
        auto_start=args.headless,
        grace=args.grace,
        turn_timeout=args.turn_timeout,
        bot_delay=bot_delay(args.headless, args.bot_delay),
        bot_level=args.bot_strength,
        bot_budget=None if args.bot_budget_ms is None else args.bot_budget_ms / 1000,
        seed=args.seed,
        title=names.title,
        host_name=names.host,
        hints=args.hints,
    )
    if resume is not None:
        path = resume
    else:
        free = bot_room(args.headless, args.players)
        if not 0 <= args.bots <= free:
            raise HostError(HostFailure.BOTS_RANGE, free=free)
        path = new_journal_path(journal_dir(args))
    options = HostOptions(
        pin=args.pin, name=names.host, hello_timeout=args.hello_timeout, stay=args.stay,
        table_id=table_id(path), takeover_delay=float(args.takeover_delay),
        resumed=resume is not None,
        words=say_in,  # a player on an older version is told the table moved in its language
    )
    return HostedTable(
        config,
        path,
        options,
        restored=restored,
        owner=None if args.headless else names.host,
        bots=0 if resume is not None else args.bots,
        taken=taken,  # a successor's journal: its table's id and epoch, not this file's
        expect=laptops,  # (probed where they offered: has the table moved on without it?)
        bind=args.bind or "0.0.0.0",
        port=_port(args.port, taken),
        also=("::",) if args.bind is None else (),  # every address: IPv6 too, if there is any
    )


def _port(asked: int | None, taken: TakeoverStart | None) -> int:
    """The port to listen on: the one asked for, else where a resumed successor hosted
    (its laptops look for it there, on its standby's port), else the default."""
    if asked is not None:
        return asked
    if taken is not None and taken.port is not None:
        return taken.port
    return DEFAULT_PORT


def _resumed_words(resume: Path, restored: Restored) -> str:
    text = (
        ngettext(
            "resumed {name}: {n} move replayed (the game is over)",
            "resumed {name}: {n} moves replayed (the game is over)",
            restored.moves,
        )
        if restored.game.over
        else ngettext(
            "resumed {name}: {n} move replayed",
            "resumed {name}: {n} moves replayed",
            restored.moves,
        )
    )
    return text.format(name=resume.name, n=restored.moves)


async def _main(args: argparse.Namespace, resume: Path | None) -> int:
    hosted = _hosted(args, resume)
    board = not args.headless and _wants_board(args)
    status = 0
    # Worded before the table starts: a table of bots may play on at once.
    resumed = None if hosted.restored is None else _resumed_words(hosted.path, hosted.restored)
    async with hosted:
        if resumed is not None:
            print(resumed, flush=True)
        server, table = hosted.server, hosted.table
        host, port = hosted.address
        phones = None if args.no_web else await _serve_phones(
            args, port, hosted.table_id, [extra for extra, _port in server.also])
        if not board:  # the board says it in its lobby (a line printed now would stay behind)
            print(_("listening on {address}").format(address=f"{host}:{port}"), flush=True)
            for extra, extra_port in server.also:
                where = f"[{extra}]:{extra_port}"
                print(_("also listening on {address} (IPv6)").format(address=where), flush=True)
            if phones is not None and args.headless:
                print(_phones_words(args, phones.address[1]), flush=True)
        leaving = Leaving(lambda: hosted)
        away = asyncio.Event()  # told to stop: the player's board or lines close too

        def stop() -> None:  # a stop signal: a laptop that can take the table gets it
            leaving.signalled(lambda text: None if board else print(text, flush=True))
            if leaving.handed or not leaving.hosting():  # (or it went on elsewhere)
                away.set()  # the player leaves at once, as after the board's q, Enter

        restore_signals = on_stop_signals(asyncio.get_running_loop(), stop)
        notes: list[str] = []  # warnings the board's lobby shows (stderr would be hidden)
        advert = None
        if not args.no_mdns:
            title, name = table.config.title or "", table.config.host_name or ""
            tid, said = hosted.table_id, notes if board else None
            advert = hosted.advertise(
                lambda server: _advertise(args, (title, name, tid), server, host, said)
            )
        watch = None
        if advert is not None:  # (cut off: a successor may be advertised where it moved)
            from sorry_lan.commands.lookout import AdvertWatch, MdnsFinder

            watch = AdvertWatch(MdnsFinder.of(args), hosted.table_id, server.advert)
            server.on_cut_off = watch.cut_off
        report = None
        if args.headless:  # say what the table does: joins, drops, starts, results
            report = TableReport(table)
            server.on_roster = report.changed
        try:
            if args.headless:
                await hosted.wait_done()
                if server.moved_to is not None:  # handed over or stepped down: it goes on there
                    print(moved_words(server, *server.moved_to), flush=True)
            else:
                advertised, ipv6 = advert is not None, bool(server.also)

                def info() -> str:  # worded again when the player changes language
                    hint = _join_hint(args, port, advertised, ipv6=ipv6)
                    pin = _("PIN: {pin} (tell the players; it is never sent in clear)")
                    pins = [pin.format(pin=args.pin)] if args.pin else []
                    web = [] if phones is None else [_phones_words(args, phones.address[1])]
                    return "\n".join([*notes, hint, *web, *pins])

                owner = hosted.owner or ""
                seats = SeatStore(seats_dir(args))
                url = None if phones is None else _phones_url(args, phones.address[1])
                status = await _play_here(
                    args, owner, port, (hosted, seats, leaving), (info, url), away
                )
                if leaving.handed:  # its seat waits at the new host: say how to take it back
                    keep_seat_there(seats, server, owner, hosted.owner_token, hosted.table_id)
                    for line in handed_over_lines(server):
                        print(line, flush=True)
                if not hosted.stopped:
                    hosted.quit()  # the host's player left on purpose (not a signal, an error)
        finally:
            restore_signals()
            if watch is not None:
                server.on_cut_off = None
                await watch.close()
            if report is not None:
                report.quiet = True  # closing drops every connection: no news any more
            if phones is not None:
                if table.game is not None and table.game.over:
                    await phones.told_result(PHONES_TOLD)  # (the page shows who won)
                # (each phone's client leaves before the table closes; a table handed
                # over keeps their seats there, where the pages look for it)
                await phones.close(bye=server.moved_to is None)
            game = table.game
            if game is not None and game.over and server.moved_to is None:
                from sorry_lan.authority.seat_messages import game_over

                names = table.played_by  # also those who left since the end
                result = result_words(table) if board else format_result(game_over(game), names)
                print(_("game over: {result}").format(result=result), flush=True)
            await hosted.close()
            if hosted.saved_as is not None:
                text = _("the game is saved: `{command}` continues it")
                print(text.format(command=f"sorry-lan host --resume {hosted.saved_as}"), flush=True)
    if hosted.failure is not None:
        text = _(
            "the journal could not be written ({why}); the table stopped so that no move "
            "goes unrecorded. Free some disk space, then run `{command}`."
        )
        print(
            "sorry-lan host: " + text.format(why=hosted.failure, command="sorry-lan host --resume"),
            file=sys.stderr,
        )
        return 1
    return status


def _wants_board(args: argparse.Namespace) -> bool:
    return not (args.text or not (sys.stdin.isatty() and sys.stdout.isatty()))


def _advertise(
    args: argparse.Namespace,
    names: tuple[str, str, str],
    server: HostServer,
    bound: str,
    notes: list[str] | None,
) -> TableAdvertiser | None:
    """Start advertising the bound table on the LAN (``names``: its title, its host's
    name and its id); None (after a warning) if not possible.

    With ``notes`` the warnings go there (for the board's lobby), else to stderr."""
    from sorry_lan.discovery import DiscoveryError, TableAdvertiser, advert_plan

    def warn(text: str) -> None:
        if notes is not None:
            notes.append(_("{warning}; players can still join with --address").format(warning=text))
            return
        text = _("{warning}; players can still join with --address").format(warning=text)
        print(f"sorry-lan host: {text}", file=sys.stderr)

    try:
        plan = advert_plan(bound, args.interface, args.ipv6, all_interfaces=args.all_interfaces)
    except DiscoveryError as exc:
        warn(_("not advertised on the LAN: {why}").format(why=exc))
        return None
    if plan.skip is not None:
        if notes is not None:
            notes.append(_("not advertised on the LAN: {why}").format(why=plan.skip))
        else:
            print(_("not advertised on the LAN: {why}").format(why=plan.skip), flush=True)
        return None
    if plan.skipped:
        text = _(
            "not advertised on {names} (VPNs and virtual networks; --all-interfaces adds them)"
        )
        line = text.format(names=", ".join(plan.skipped))
        if notes is not None:
            notes.append(line)
        else:
            print(line, flush=True)
    title, name, tid = names
    advert = TableAdvertiser(
        title,
        name,
        server.address[1],
        plan,
        warn=warn,
        announce=(lambda text: print(text, flush=True)) if args.headless else None,
        table_id=tid,
    )
    return advert if advert.start(server.summary()) else None


async def _serve_phones(
    args: argparse.Namespace, port: int, tid: str, also: Sequence[str] = ()
) -> WebServer | None:
    """Serve the phone's page (``sorry_lan.web``) where the table listens, at
    ``--web-port`` or the game's port + 1 (a free one if that is taken), each phone a
    client of the table at its own port on this machine; on ``also`` too, the further
    addresses the game listens on (``"::"``: IPv6, where it could be had), at the same
    port, unless those cannot be had (logged).  None, after saying why on stderr, when
    the port cannot be had."""
    from sorry_lan.net.weblisten import web_sockets
    from sorry_lan.web.follow import web_port
    from sorry_lan.web.server import WebServer

    bind = args.bind or "0.0.0.0"  # (--bind: that one address, as the game listens)
    chosen = args.web_port
    wanted = chosen if chosen is not None else (web_port(port) or 0)
    try:
        socks = web_sockets(bind, wanted, fallback=chosen is None, also=also)
    except OSError as exc:
        print(f"sorry-lan host: {say(listen_error(exc, bind, wanted))}", file=sys.stderr)
        return None
    local = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(bind, bind)
    phones = WebServer((local, port), linger=args.grace, table_id=tid)
    await phones.start(*socks)
    return phones


def _phones_url(args: argparse.Namespace, web_port: int) -> str:
    """Where phones open the game: the page's address on this machine's first network."""
    v4 = [a for _n, a in _join_pairs(args, ipv6=False) if ":" not in a]
    return f"http://{v4[0] if v4 else 'THIS-MACHINE'}:{web_port}"


def _phones_words(args: argparse.Namespace, web_port: int) -> str:
    return _("Phones join in a browser at {address}").format(
        address=_phones_url(args, web_port))


def _join_pairs(args: argparse.Namespace, ipv6: bool) -> list[tuple[str, str]]:
    """The addresses others join by: (network name, address), the ``--bind`` one alone
    when it names one."""
    if args.bind not in (None, "0.0.0.0", "", "::"):
        return [("", args.bind)]
    from sorry_lan.discovery import DiscoveryError, join_addresses

    try:
        every = getattr(args, "all_interfaces", False)
        return join_addresses(args.interface, args.ipv6 or ipv6, all_interfaces=every)
    except DiscoveryError:  # a bad --interface (already reported): a placeholder
        return []


def _join_hint(args: argparse.Namespace, port: int, advertised: bool, ipv6: bool) -> str:
    """How others reach this table: by discovery if advertised, else by an address; the
    addresses each network joins by, a network a line (IPv6 ones too when the table
    listens on IPv6)."""
    pairs = _join_pairs(args, ipv6)
    v4 = [(n, a) for n, a in pairs if ":" not in a][:4]
    v6 = [(n, f"[{a}]") for n, a in pairs if ":" in a][:2]
    shown = [(n, f"{a}:{port}") for n, a in v4 + v6]
    cols = max((len(n) for n, _a in shown), default=0)
    commands = [
        f"  {(n + ':').ljust(cols + 1) + ' ' if cols else ''}sorry-lan join --address {a}"
        for n, a in shown
    ]
    if not commands:
        commands = [f"  sorry-lan join --address THIS-MACHINE:{port}"]
    if advertised:
        head = _("Others join with `sorry-lan join` (it finds this table), or with:")
    else:
        head = _("This table is not advertised on the network: others join with:")
    return "\n".join([head, *commands])


def _journal_tape(journal: Path) -> Tape:
    """The last game of this table's journal, to replay on the host's board."""
    from sorry_lan.net.kept import record_of
    from sorry_lan.replay import from_record

    return from_record(record_of(describe(journal)), journal.name.removesuffix(SUFFIX))


async def _play_here(
    args: argparse.Namespace,
    name: str,
    port: int,
    here: tuple[HostedTable, SeatStore, Leaving],
    told: tuple[Callable[[], str], str | None],
    away: asyncio.Event,
) -> int:
    """The host's own player, on the board (its leave dialog hands the table over
    through ``leaving``) or in the line mode; its seat is kept in ``seats`` like a
    ``join`` player's, so that it can come back to it wherever the table goes.  It
    returns when the player leaves, the table stops here, or (``away``) a stop signal
    handed the table over."""
    hosted, seats, leaving = here
    info, phones = told
    server = hosted.server
    local = "127.0.0.1" if args.bind in (None, "0.0.0.0", "") else args.bind
    options = ClientOptions(
        pin=args.pin, token=hosted.owner_token, lang=language(), seats=seats,
        table_id=hosted.table_id,
    )
    # It follows the table once it moved; there, with nobody else to be reached, its
    # person is asked whether to play on alone, as a join player is.
    question = AloneQuestion()
    client = GameClient(local, port, name, options, make_heir(args, question))
    try:
        await client.connect()
    except JoinError as exc:
        why = join_error_words(exc)
        text = _("your own player could not join: {why}").format(why=why)
        print(f"sorry-lan host: {text}", file=sys.stderr)
        return 1
    if _wants_board(args):
        try:
            return await _play_on_board(
                args, client, name, here, (info, question, phones), away
            )
        finally:
            await _leave(client)
    print(info(), flush=True)
    print(host_hint(name), flush=True)
    ui = asyncio.create_task(
        play_lines(client, hand_over=leaving.hand_over(), ask_alone=question,
                   play_alone=_alone(server))
    )
    stop = asyncio.create_task(_table_here(server, away))
    await asyncio.wait({ui, stop}, return_when=asyncio.FIRST_COMPLETED)
    stop.cancel()
    ui.cancel()
    leaving.left()  # the game ends before our own player's bye
    await _leave(client)
    return 0


async def _play_on_board(
    args: argparse.Namespace,
    client: GameClient,
    name: str,
    here: tuple[HostedTable, SeatStore, Leaving],
    asked: tuple[Callable[[], str], AloneQuestion, str | None],
    away: asyncio.Event,
) -> int:
    """The host's own player on the board, ``client`` connected: the only part of the
    command that imports the drawing library.  ``asked``: how others join, and the
    heir's question (play on alone, once the table moved and nobody answers), and the
    phones' page's address (its QR code shows in the lobby)."""
    from sorry_lan.tui.play import TuiOptions, play_as_host

    hosted, _seats, leaving = here
    info, question, phones = asked
    journal = hosted.path
    return await play_as_host(
        client,
        _table_here(hosted.server, away),
        title=lambda: _("{name}'s table").format(name=name),
        info=info,
        options=TuiOptions(ascii=True if args.ascii else None, journals=journal.parent),
        game_tape=lambda: _journal_tape(journal),
        hand_over=leaving.hand_over(),
        on_leave=leaving.left,  # the game ends before our own player's bye
        play_alone=_alone(hosted.server),
        ask_alone=question,
        phones=phones,
    )


def _alone(server: HostServer) -> PlayAlone:
    """The host's person's way to play on alone while cut off in a game (a game of its
    own); in the lobby there is nothing to play on."""

    def possible() -> bool:
        playing = server.table.phase is Phase.PLAYING
        return server.core.paused and playing and server.moved_to is None

    return PlayAlone(possible, server.play_alone)


async def _table_here(server: HostServer, away: asyncio.Event) -> None:
    """Return when the table stops here, unless it moved to another laptop: then the
    host's own player plays on there (its client follows the table) until it leaves,
    or ``away`` is set (a stop signal: it handed the table over)."""
    stopped = asyncio.ensure_future(server.wait_done())
    signalled = asyncio.ensure_future(away.wait())
    await asyncio.wait({stopped, signalled}, return_when=asyncio.FIRST_COMPLETED)
    stopped.cancel()
    if server.moved_to is not None:
        await signalled
    signalled.cancel()


async def _leave(client: GameClient) -> None:
    await client.close()  # (its heir too)
