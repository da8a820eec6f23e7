"""A laptop's side of the table's succession, for ``join`` and ``bot`` (issue 19).

:func:`add_standby_arguments` adds ``--standby-port`` (where this laptop would host
the table if its host is lost; default: a free port the system picks).
:func:`make_heir` makes the client's :class:`~sorry_lan.net.heir.Heir`: its standby
listens as the host binds (every IPv4 address, and IPv6 where there is any), its offer
names this machine's LAN addresses (``--interface`` ones if given), and when the
election makes this laptop the host it starts the table here
(:func:`~sorry_lan.net.heir.start_table`): a new journal in the data dir, served on
the standby's port, advertised on the LAN under the same table id at the new epoch,
telling each player's news in that player's language (the catalogs' words), and the
phone's page served at that port + 1, where the table's phones look for it
(``sorry_lan.web.follow``).

It parses and wires; it decides nothing about who hosts (``succession.election``) or
what the table holds (``authority.takeover``), and it prints nothing (the client's
link news and the model's table news say what happens).
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from sorry_lan.commands.games import journal_dir
from sorry_lan.i18n.coded import say_in
from sorry_lan.net.heir import (
    AskAloneQuestion,
    Heir,
    HeirOptions,
    ListeningSocket,
    start_table,
)
from sorry_lan.net.host import HostOptions
from sorry_lan.web.follow import page_url

if TYPE_CHECKING:
    from sorry_lan.discovery import TableAdvertiser
    from sorry_lan.net.host import HostServer
    from sorry_lan.net.hosted import HostedTable
    from sorry_lan.succession.knowledge import Knowledge

log = logging.getLogger(__name__)


def _addresses(args: argparse.Namespace) -> list[str]:
    """This machine's addresses on its LANs (the ``--interface`` ones if given)."""
    from sorry_lan.discovery import DiscoveryError, join_addresses

    try:
        pairs = join_addresses(args.interface, bool(getattr(args, "ipv6", False)))
    except DiscoveryError:
        return []
    return [address for _network, address in pairs]


def make_heir(
    args: argparse.Namespace,
    ask_alone: AskAloneQuestion | None = None,
    on_phones: Callable[[str], None] | None = None,
) -> Heir:
    """The heir of a ``join`` player's or a ``sorry-lan bot``'s client; ``ask_alone``
    asks the person at a ``join`` laptop whether to play on alone when nobody else can
    be reached (a bot has none: it never does); ``on_phones`` is told the phones'
    page's address once this laptop hosts and serves it (its lobby shows it)."""

    async def successor(knowledge: Knowledge, epoch: int, sock: ListeningSocket) -> HostedTable:
        def advertise(server: HostServer) -> TableAdvertiser | None:
            return _advertise(args, server, knowledge.table, epoch)

        hosted = await start_table(
            knowledge, epoch, sock, journal_dir(args), advertise=advertise,
            options=HostOptions(words=say_in),  # the news each player reads in its language
        )
        served = await _serve_phones(hosted, knowledge.table, heir.listener.take_next())
        addresses = [a for a in _addresses(args) if ":" not in a]
        if served is not None and addresses and on_phones is not None:
            on_phones(page_url(addresses[0], served))
        return hosted

    options = HeirOptions(port=getattr(args, "standby_port", 0), keep_next=True)
    heir = Heir(lambda: _addresses(args), successor, options, ask_alone=ask_alone)
    return heir


async def _serve_phones(
    hosted: HostedTable, tid: str, kept: Sequence[ListeningSocket]
) -> int | None:
    """Serve the phone's page of the table taken over at the port it hosts on + 1,
    where the phones that were at the table look for it (``web.follow``): on
    ``kept``, that port kept bound since the standby started (IPv4, and IPv6 where the
    standby listened on it too), else bound now; on IPv6 as well whenever the table
    is (one bound now where none was kept; one that cannot be had is logged and left
    out).  A port in use for IPv4 leaves the table without a page (logged: the
    phones' players rejoin by hand).  The page's port, or None."""
    from sorry_lan.net.weblisten import bound_also, listening, web_sockets
    from sorry_lan.web.follow import web_port
    from sorry_lan.web.server import WebServer

    port = hosted.address[1]
    wanted = web_port(port)
    if wanted is None:
        for sock in kept:
            sock.close()
        return None
    served = [extra for extra, _port in hosted.server.also]  # the table's IPv6, if any
    socks = list(kept[:1])
    for sock in kept[1:]:  # those of the families the table is served on too
        if str(sock.getsockname()[0]) in served:
            socks.append(sock)
        else:
            sock.close()
    try:
        if socks:
            have = {str(sock.getsockname()[0]) for sock in socks[1:]}
            for extra in served:
                more = None if extra in have else bound_also(extra, wanted)
                if more is not None:  # (the standby kept none for it: bound now)
                    socks.append(more)
            socks = [listening(sock) for sock in socks]
        else:
            socks = web_sockets("0.0.0.0", wanted, fallback=False, also=served)
    except OSError as exc:
        for sock in socks:
            sock.close()
        log.info("the table taken over serves no phones' page (port %d): %s", wanted, exc)
        return None
    phones = WebServer(("127.0.0.1", port), linger=hosted.table.config.grace, table_id=tid)
    await phones.start(*socks)
    hosted.close_first(phones.close)
    return wanted


def _advertise(
    args: argparse.Namespace, server: HostServer, tid: str, epoch: int
) -> TableAdvertiser | None:
    """Advertise the table taken over, as its first host did (same id, the new epoch)."""
    from sorry_lan.discovery import DiscoveryError, TableAdvertiser, advert_plan

    def warn(text: str) -> None:
        log.info("the table taken over is not advertised: %s", text)

    try:
        plan = advert_plan("0.0.0.0", args.interface, bool(getattr(args, "ipv6", False)))
    except DiscoveryError as exc:
        warn(str(exc))
        return None
    if plan.skip is not None:
        return None
    config = server.table.config
    advert = TableAdvertiser(
        config.title or "", config.host_name or "", server.address[1], plan,
        warn=warn, table_id=tid, epoch=epoch,
    )
    return advert if advert.start(server.summary()) else None
