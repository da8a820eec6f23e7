"""``sorry-lan host``: serve a table on this machine (and, unless headless, play at it).

Prints ``listening on ADDRESS:PORT`` once the socket is bound (``--port 0`` picks a
free port).  A ``--headless`` table starts by itself when ``--players`` seats are taken
(people plus ``--bots``) and exits 0 when the game ends (``--stay`` keeps it open for
rematches).  Otherwise the host's own player joins over loopback, like everyone
else, and uses the line interface.  ``--resume`` restores the last unfinished game
from the journal in the data directory.

The table is advertised on the LAN over mDNS as ``--game-name`` (default: ``--name``;
a name already in use gets "-2" appended) on ``--interface`` addresses or all
networks, and its advert follows seats and state; ``--no-mdns`` turns that off, and a
table bound to a loopback address is not advertised.  If mDNS fails the host says so
and serves anyway (players can still give ``--address``).

This module parses options and wires the parts together (discovery through
``sorry_lan.discovery.TableAdvertiser`` fed by ``HostServer.on_change``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sorry_lan.authority.table import Table, TableConfig, TableError
from sorry_lan.commands.list_games import add_discovery_arguments
from sorry_lan.net.client import GameClient, JoinError
from sorry_lan.net.host import HostError, HostOptions, HostServer
from sorry_lan.net.journal import (
    DATA_DIR_ENV,
    Journal,
    JournalError,
    default_dir,
    latest,
    load,
    new_path,
    replay,
)
from sorry_lan.rules import Variant
from sorry_lan.tui.lines import format_result, play_lines
from sorry_lan.wire.limits import DEFAULT_PORT
from sorry_lan.wire.messages import NAME

if TYPE_CHECKING:
    from sorry_lan.discovery import TableAdvertiser


def _name(text: str) -> str:
    text = text.strip()
    if not 1 <= len(text) <= 24 or not text.isprintable():
        raise argparse.ArgumentTypeError("a name has 1 to 24 printable characters")
    NAME.check(text, "name")
    return text


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("a time cannot be negative")
    return value


def _variant(text: str) -> Variant:
    try:
        return Variant.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _game_name(text: str) -> str:
    from sorry_lan.discovery import AdvertError, GameAd

    text = text.strip()
    try:
        GameAd(game_name=text, host_player="x", seats_total=4)
    except AdvertError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", type=_name, default="host", help="your name (and the table's)")
    p.add_argument(
        "--game-name", type=_game_name, help="the game's name on the LAN (default: --name)"
    )
    p.add_argument("--no-mdns", action="store_true", help="do not advertise the game on the LAN")
    add_discovery_arguments(p)
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"TCP port (default {DEFAULT_PORT}; 0: any free port)",
    )
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (default all)")
    p.add_argument(
        "--variant", type=_variant, default=Variant.STANDARD, help="standard, team or points"
    )
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="seats at the table")
    p.add_argument("--bots", type=int, default=0, help="bots to seat from the start")
    p.add_argument("--pin", help="a PIN players must know to join (never sent in clear)")
    p.add_argument(
        "--turn-timeout", type=_seconds, help="a bot moves for a player slower than this"
    )
    p.add_argument(
        "--grace",
        type=_seconds,
        default=60.0,
        help="how long a dropped seat waits for its owner (s)",
    )
    p.add_argument(
        "--headless", action="store_true", help="serve only; start when the seats are taken"
    )
    p.add_argument("--stay", action="store_true", help="headless: keep serving after the game")
    p.add_argument(
        "--text",
        "--no-tui",
        dest="text",
        action="store_true",
        help="your player uses the plain line interface (automatic when not on a terminal)",
    )
    p.add_argument("--ascii", action="store_true", help="draw without box-drawing characters")
    p.add_argument(
        "--resume", action="store_true", help="resume the last unfinished game from its journal"
    )
    p.add_argument(
        "--data-dir",
        type=Path,
        help=f"where journals go (default: ${DATA_DIR_ENV} or your data dir)",
    )
    p.add_argument("--bot-delay", type=_seconds, default=None, help="bots' thinking time (s)")
    p.add_argument("--seed", type=int, help=argparse.SUPPRESS)
    p.add_argument("--hello-timeout", type=_seconds, default=5.0, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_main(args))
    except (HostError, JournalError, TableError) as exc:
        print(f"sorry-lan host: {exc}", file=sys.stderr)
        return 1


def _journal_dir(args: argparse.Namespace) -> Path:
    return args.data_dir / "journals" if args.data_dir else default_dir()


def _make_table(args: argparse.Namespace, now: float) -> Table:
    bot_delay = args.bot_delay if args.bot_delay is not None else (0.0 if args.headless else 0.8)
    config = TableConfig(
        variant=args.variant,
        seats=args.players if args.headless else 4,
        auto_start=args.headless,
        grace=args.grace,
        turn_timeout=args.turn_timeout,
        bot_delay=bot_delay,
        seed=args.seed,
    )
    directory = _journal_dir(args)
    if args.resume:
        path = latest(directory)
        if path is None:
            raise HostError(f"no unfinished game to resume in {directory}")
        restored = replay(load(path))
        if restored is None:
            raise HostError(f"{path} holds no game to resume")
        table = Table.restore(config, restored, now, Journal(path))
        print(f"resumed {path.name}: {restored.moves} moves replayed", flush=True)
        return table
    free = config.seats if args.headless else config.seats - 1  # the host's player sits too
    if not 0 <= args.bots <= free:
        raise HostError(f"--bots must be between 0 and {free} (the free seats)")
    return Table(config, Journal(new_path(directory)))


async def _main(args: argparse.Namespace) -> int:
    loop = asyncio.get_running_loop()
    table = _make_table(args, loop.time())
    owner_token = None
    if not args.headless:
        if args.resume and table.owner is not None:
            owner_token = table.new_token(table.owner)
        elif not args.resume:
            player, owner_token = table.join(None, args.name)  # first: the host is red
            table.owner = player.pid
    if not args.resume:
        for _ in range(args.bots):
            table.add_bot(None)
    options = HostOptions(
        pin=args.pin, name=args.name, hello_timeout=args.hello_timeout, stay=args.stay
    )
    server = HostServer(table, options)
    host, port = await server.start(args.bind, args.port, None)
    print(f"listening on {host}:{port}", flush=True)
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):
            loop.add_signal_handler(sig, server.stop)
    advert = None if args.no_mdns else _advertise(args, server, host)
    status = 0
    try:
        if args.headless:
            await server.wait_done()
        else:
            status = await _play_here(args, port, owner_token, server, advert is not None)
    finally:
        game = table.game
        if game is not None and game.over:
            from sorry_lan.authority.seat_messages import game_over

            print(f"game over: {format_result(game_over(game))}", flush=True)
            if server.journal is not None and not args.stay and server.failure is None:
                server.journal.end()
        if advert is not None:
            await advert.close()  # goodbyes before the port closes
        await server.close()
        if server.journal is not None:
            server.journal.close()
    if server.failure is not None:
        print(
            f"sorry-lan host: the journal could not be written ({server.failure}); the table "
            "stopped so that no move goes unrecorded. Free some disk space, then run "
            "`sorry-lan host --resume`.",
            file=sys.stderr,
        )
        return 1
    return status


def _advertise(args: argparse.Namespace, server: HostServer, bound: str) -> TableAdvertiser | None:
    """Start advertising the bound table on the LAN; None (after a warning) if not possible."""
    from sorry_lan.discovery import DiscoveryError, TableAdvertiser, advert_plan

    def warn(text: str) -> None:
        print(f"sorry-lan host: {text}; players can still join with --address", file=sys.stderr)

    try:
        plan = advert_plan(bound, args.interface, args.ipv6)
    except DiscoveryError as exc:
        warn(f"not advertised on the LAN: {exc}")
        return None
    if plan.skip is not None:
        print(f"not advertised on the LAN: {plan.skip}", flush=True)
        return None
    advert = TableAdvertiser(
        args.game_name or args.name,
        args.name,
        server.address[1],
        plan,
        warn=warn,
        announce=(lambda text: print(text, flush=True)) if args.headless else None,
    )
    if not advert.start(server.summary()):
        return None
    server.on_change = advert.update
    return advert


def _join_hint(args: argparse.Namespace, port: int, advertised: bool) -> str:
    """How others reach this table: by discovery if advertised, else by an address."""
    if args.bind not in ("0.0.0.0", "", "::"):
        addresses = [args.bind]
    else:
        from sorry_lan.discovery import DiscoveryError, local_addresses

        try:
            addresses = local_addresses(args.interface, args.ipv6)
        except DiscoveryError:  # a bad --interface (already reported): a placeholder
            addresses = []
    shown = [f"[{a}]:{port}" if ":" in a else f"{a}:{port}" for a in addresses[:3]]
    by_address = " or ".join(f"`sorry-lan join --address {a}`" for a in shown)
    if not by_address:
        by_address = f"`sorry-lan join --address THIS-MACHINE:{port}`"
    if advertised:
        return f"Others join with `sorry-lan join` (it finds this table),\nor {by_address}."
    return f"This table is not advertised on the network: others join with\n{by_address}."


async def _play_here(
    args: argparse.Namespace,
    port: int,
    token: bytes | None,
    server: HostServer,
    advertised: bool,
) -> int:
    local = "127.0.0.1" if args.bind in ("0.0.0.0", "") else args.bind
    client = GameClient(local, port, args.name, pin=args.pin, token=token)
    try:
        await client.connect()
    except JoinError as exc:
        print(f"sorry-lan host: your own player could not join: {exc.text}", file=sys.stderr)
        return 1
    if not (args.text or not (sys.stdin.isatty() and sys.stdout.isatty())):
        from sorry_lan.tui.play import TuiOptions, play_as_host

        info = _join_hint(args, port, advertised)
        try:
            return await play_as_host(
                client,
                server.wait_done(),
                title=f"{args.name}'s table",
                info=info,
                options=TuiOptions(ascii=args.ascii),
            )
        finally:
            await client.close()
    print("you host this table: type 'bot' to add a bot, 'start' to begin, 'quit' to stop")
    ui = asyncio.create_task(play_lines(client))
    stop = asyncio.create_task(server.wait_done())
    await asyncio.wait({ui, stop}, return_when=asyncio.FIRST_COMPLETED)
    stop.cancel()
    ui.cancel()
    await client.close()
    return 0
