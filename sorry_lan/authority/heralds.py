"""Who tells each connection on protocol version 4 what a next host needs, and when.

:class:`Heralds` keeps, for the host core, the table's succession state: the epoch,
the :class:`~sorry_lan.authority.electorate.Electorate` (fed by ``offer``), the
``succession`` message as last built, and the hand
:class:`~sorry_lan.authority.commitments.Commitments`.  It sends:

- ``succession`` to a connection right after its welcome (:meth:`Heralds.send_succession`)
  and, after each round, to every connection that was told another one
  (:meth:`Heralds.tell_succession`: anything but the chat changed, or a game began);
- ``commit`` to every player in play for points each time what any owner knows of its
  hand changes (:meth:`Heralds.commit`), and to a player just told its whole hand in
  a snapshot (:meth:`Heralds.send_commit`).

A connection on an older version is never sent either.  It decides nothing about the
game or the connections (who is welcomed, when the table moves: the core does) and
sends through the core's ``send``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from sorry_lan.authority import heirs
from sorry_lan.authority.commitments import Commitments
from sorry_lan.authority.electorate import Electorate, Laptop
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.peers import Peer
from sorry_lan.authority.table import Table
from sorry_lan.rules import Event, MovePlayed, Phase
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError

log = logging.getLogger(__name__)

SUCCESSION_SINCE = 4  # the protocol version that has these messages


class Heralds:
    """The succession state of ``table``; messages go out through ``send``."""

    def __init__(
        self, table: Table, options: HostOptions, pin_key: bytes | None,
        send: Callable[[Peer, m.Message, bytes | None], None],
    ) -> None:
        self.table = table
        self.options = options
        self.pin_key = pin_key
        self.send = send
        self.epoch = options.epoch
        self.electorate = Electorate()
        self.commitments = Commitments()  # in play for points: the hands' digests
        self.table_id = options.table_id
        self._built: heirs.Built | None = None  # as last built (its chat may be old)
        self._bare: m.Succession | None = None  # that message without its chat
        self._key: object = None  # what it was built from (but the chat)
        self._game = table.games_played  # the game it was last sent for

    # -- the laptops -------------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        """The seat whose laptop hosts the table (``succession.host``; out of the order)."""
        return heirs.hosting_seat(self.table, self.options.seat)

    def offered(self, peer: Peer, offer: m.Offer) -> None:
        """``peer``'s laptop may host next, at ``offer``'s port and addresses."""
        player = self.table.player_of(peer.cid)
        if player is not None and player.pid != self.table.owner and player.pid != self.seat:
            self.electorate.offer(player.pid, peer.address, offer.port, offer.addrs)

    def welcomed_seat(self, peer: Peer) -> None:
        """``peer`` was welcomed to a seat: no laptop if it came back on an older version."""
        player = self.table.player_of(peer.cid)
        if player is not None and peer.protocol < SUCCESSION_SINCE:
            self.electorate.forget(player.pid)

    def heir(self, peers: dict[int, Peer]) -> Laptop | None:
        """The first laptop in the order connected on version 4 now, if any."""
        for laptop in self.electorate.connected(self.table):
            conn = self.table.players[laptop.pid].conn
            peer = None if conn is None else peers.get(conn)
            if (peer is not None and peer.welcomed and not peer.closed
                    and peer.protocol >= SUCCESSION_SINCE):  # fmt: skip
                return laptop
        return None

    # -- succession --------------------------------------------------------------------

    def _build(self) -> heirs.Built | None:
        """The ``succession`` message now (None: the table has no id to be followed by)."""
        if not self.table_id:
            return None
        try:
            self._built = heirs.succession(
                self.table, self.electorate, table_id=self.table_id, epoch=self.epoch,
                delay=self.options.takeover_delay, pin_key=self.pin_key, seat=self.options.seat,
            )  # fmt: skip
        except LocalProtocolError as exc:  # a table id the wire refuses: nobody can follow
            log.info("no succession for this table: %s", exc)
            self.table_id = ""
            return None
        self._bare = heirs.without_chat(self._built[0])
        return self._built

    def send_succession(self, peer: Peer) -> None:
        """Tell ``peer`` (just welcomed) the succession as it stands."""
        if peer.protocol < SUCCESSION_SINCE:
            return
        built = self._build()
        if built is not None:
            peer.succession = self._bare
            self.send(peer, *built)

    def tell_succession(self, welcomed: Iterable[Peer]) -> None:
        """Send ``succession`` again to each connection on version 4 that was told
        another (anything but the chat changed); to all of them when a game begins."""
        table = self.table
        listeners = [p for p in welcomed if p.protocol >= SUCCESSION_SINCE]
        if table.games_played != self._game:
            self._game = table.games_played
            for peer in listeners:
                peer.succession = None
        key = (
            self.epoch, table.owner, self.seat, table.games_played, table.config.variant,
            table.config.seats,
            tuple((p.pid, p.colour, p.token_hash, p.bot, p.level) for p in table.players.values()),
            tuple(self.electorate.laptops.values()),
        )  # fmt: skip
        if (key != self._key or self._built is None) and listeners:
            if self._build() is None:
                return
            self._key = key
        if self._built is None:
            return
        for peer in listeners:
            if peer.succession != self._bare:
                peer.succession = self._bare
                self.send(peer, *self._built)

    # -- commitments -------------------------------------------------------------------

    def commit(self, events: list[Event], welcomed: Iterable[Peer], *,
               told: Iterable[int] = ()) -> bool:  # fmt: skip
        """In play for points: note what each owner now knows of its hand (the cards
        played in ``events``; the whole hand of the seat on turn, told in its ``turn``,
        and of the seats ``told`` theirs in a snapshot); if that changed, commit to it
        afresh and send each player on version 4 its ``commit``.  Returns whether it
        was sent."""
        table, game = self.table, self.table.game
        if game is None or not game.rules.deals_hands or table.phase is not Phase.PLAYING:
            return False
        made = self.commitments
        seen = set(told)
        if made.game != table.games_played:  # a game began: each seat got its snapshot
            made.new_game(table.games_played)
            seen |= set(game.hands)
        for ev in events:
            if isinstance(ev, MovePlayed):
                made.played(ev.player, ev.move.card)
        seen.add(game.turn)
        for colour in seen:
            player = table.by_colour(colour)
            if player is not None and not player.bot and player.conn is not None:
                made.told(colour, game.hands.get(colour, ()))
        if not made.update(game.state_id):
            return False
        for peer in welcomed:
            self._send_commit(peer)
        return True

    def send_commit(self, peer: Peer, welcomed: Iterable[Peer]) -> None:
        """``peer``'s seat was just told its whole hand (a snapshot): commit afresh if
        that is news, else send it the commitment as it stands."""
        player = self.table.player_of(peer.cid)
        if player is None or peer.protocol < SUCCESSION_SINCE:
            return
        if not self.commit([], welcomed, told=[player.colour]):
            self._send_commit(peer)

    def _send_commit(self, peer: Peer) -> None:
        table, made = self.table, self.commitments
        player = table.player_of(peer.cid)
        if (player is None or peer.protocol < SUCCESSION_SINCE or not made.digests
                or table.phase is not Phase.PLAYING or made.game != table.games_played):
            return
        self.send(peer, made.message(player.colour), None)
