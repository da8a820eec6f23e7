"""What each message a client may send does at the host: one handler per type.

:data:`HANDLERS` maps a client message class to its handler, registered with
:func:`handles`.  A handler is given the :class:`Host` (what the core lets a handler
use), the :class:`~sorry_lan.authority.peers.Peer` that sent the message, the
message and the time, and returns the engine events to tell everyone (most return
none: what they change reaches people through the lobby and the replies they
queue).  A refused request raises :class:`~sorry_lan.authority.table.TableError`;
the core answers it (``refuse`` before a welcome, a non-fatal ``error`` after).

:data:`SESSION_ANSWERS` names the client messages the wire session answers itself
and never hands on (``ping``, ``proof``); every other message
:mod:`~sorry_lan.wire.transitions` lets a client send has a handler here (a test
checks it).  A new client message is its wire type and one handler here.

Handlers do no I/O, keep no state of their own and read no clock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from sorry_lan.authority import more_time, swaps, takeover
from sorry_lan.authority.announce import Announcer, shared
from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.peers import Peer
from sorry_lan.authority.table import Player, RequestRefused, Table
from sorry_lan.rules import Colour, Event
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.limits import MORE_TIME_VERSION, SWAP_VERSION
from sorry_lan.wire.vocab import ByeReason, MsgType

log = logging.getLogger(__name__)


class Host(Protocol):
    """What a handler may use of the host core."""

    @property
    def table(self) -> Table: ...

    @property
    def options(self) -> HostOptions: ...

    @property
    def tell(self) -> Announcer[Peer]: ...

    def peer(self, cid: int) -> Peer | None:
        """The connection numbered ``cid``, if it is still there."""
        ...

    def send(self, peer: Peer, msg: m.Message, frame: bytes | None = None) -> None:
        """Queue ``msg`` (``frame``: its encoding, shared with other connections)."""
        ...

    def welcomed(self) -> list[Peer]:
        """The connections that were welcomed and are still open."""
        ...

    def begin_game(self) -> None:
        """Tell everyone a game began."""
        ...

    def close_now(self, peer: Peer, reason: ByeReason) -> None:
        """Say bye to ``peer`` after what it was sent and close it."""
        ...

    def owes_result(self, pid: int) -> bool:
        """Whether seat ``pid`` is owed the result of the game that ended."""
        ...

    def told_result(self, pid: int) -> None:
        """Seat ``pid`` was told the state of the table (the result, if it is over)."""
        ...

    def ponged(self, peer: Peer, n: int) -> None:
        """``peer`` answered ping ``n``."""
        ...

    def welcomed_seat(self, peer: Peer) -> None:
        """``peer`` was just welcomed to a seat: a laptop no more if it came back on
        an older version."""
        ...

    def offered(self, peer: Peer, offer: m.Offer) -> None:
        """``peer``'s laptop may host next, at ``offer``'s port and addresses."""
        ...

    def send_succession(self, peer: Peer) -> None:
        """Tell ``peer`` (on version 4) who hosts next: ``succession``."""
        ...

    def send_commit(self, peer: Peer) -> None:
        """Tell ``peer`` (a player on version 4, in play for points) the hands' digests
        and its own salt: ``commit``."""
        ...

    def send_pause_news(self, peer: Peer) -> None:
        """Tell ``peer``, just welcomed, why the game waits if it was told everyone."""
        ...


M = TypeVar("M", bound=m.Message)
Handler = Callable[[Host, Peer, M, float], list[Event]]

#: Client message class -> what it does.
HANDLERS: dict[type[m.Message], Handler[Any]] = {}

#: Client messages the wire session answers itself (``pong``; the PIN proof, after
#: which it hands on the greeting it held): they never reach a handler.
SESSION_ANSWERS: frozenset[MsgType] = frozenset({MsgType.PING, MsgType.PROOF})


def handles(cls: type[M]) -> Callable[[Handler[M]], Handler[M]]:
    """Register the decorated function as the handler of messages of class ``cls``."""

    def register(handler: Handler[M]) -> Handler[M]:
        assert cls not in HANDLERS, f"two handlers for {cls.__name__}"
        HANDLERS[cls] = handler
        return handler

    return register


# -- joining -----------------------------------------------------------------------------


@handles(m.Hello)
def hello(host: Host, peer: Peer, msg: m.Hello, now: float) -> list[Event]:
    """Seat a newcomer, or give a seat back to whoever holds its token (an earlier
    connection of that seat is told ``bye`` replaced); then tell it the table."""
    table = host.table
    if msg.token is not None:
        held = table.player_by_token(msg.token)
        old = None if held is None or held.conn is None else host.peer(held.conn)
        player = table.reclaim(peer.cid, msg.token, now)
        if old is not None and old is not peer:
            host.close_now(old, ByeReason.REPLACED)
        token = msg.token
        log.info("%s is back at seat %d", player.name, player.colour)
    else:
        player, token = table.join(peer.cid, msg.name)
        log.info("%s joined as %d", player.name, player.colour)
    peer.session.welcome(player.pid, token, owner=player.pid == table.owner, name=player.name)
    host.welcomed_seat(peer)
    host.send_succession(peer)
    host.tell.send_chat_so_far(peer)  # a player whose own process died has none
    # Back after the game ended (asleep, cut off): the result too, even once the
    # next game's lobby is open.
    host.tell.send_state(peer, result=host.owes_result(player.pid))
    host.told_result(player.pid)  # told the result, if the game is over
    host.send_commit(peer)  # its own salt: what it would reveal to a next host
    host.send_pause_news(peer)  # (else a paused table says why only when a move is refused)
    return []


@handles(m.Spectate)
def spectate(host: Host, peer: Peer, msg: m.Spectate, now: float) -> list[Event]:
    host.table.spectate(peer.cid)
    peer.session.welcome(None, None)
    host.send_succession(peer)  # a spectator follows the table to its next host too
    host.tell.send_chat_so_far(peer)
    host.tell.send_state(peer)
    host.send_pause_news(peer)
    return []


# -- the lobby ---------------------------------------------------------------------------


@handles(m.ChooseColour)
def choose_colour(host: Host, peer: Peer, msg: m.ChooseColour, now: float) -> list[Event]:
    host.table.choose_colour(peer.cid, int(msg.colour))
    return []


@handles(m.AskSwap)
def ask_swap(host: Host, peer: Peer, msg: m.AskSwap, now: float) -> list[Event]:
    """An ask to trade colours; only a player whose connection speaks version 6 can
    be asked (an older one could not answer)."""

    def can_answer(player: Player) -> bool:
        other = None if player.conn is None else host.peer(player.conn)
        return other is not None and other.protocol >= SWAP_VERSION

    swaps.ask(host.table, peer.cid, msg.pid, can_answer)
    return []


@handles(m.AnswerSwap)
def answer_swap(host: Host, peer: Peer, msg: m.AnswerSwap, now: float) -> list[Event]:
    swaps.answer(host.table, peer.cid, msg.pid, msg.accept)
    return []


@handles(m.Ready)
def ready(host: Host, peer: Peer, msg: m.Ready, now: float) -> list[Event]:
    host.table.set_ready(peer.cid, msg.ready)
    return []


@handles(m.Profile)
def profile(host: Host, peer: Peer, msg: m.Profile, now: float) -> list[Event]:
    host.table.set_profile(peer.cid, msg.lang, msg.program)
    return []


@handles(m.AddBot)
def add_bot(host: Host, peer: Peer, msg: m.AddBot, now: float) -> list[Event]:
    host.table.add_bot(peer.cid, None if msg.colour is None else int(msg.colour), msg.level)
    return []


@handles(m.RemoveBot)
def remove_bot(host: Host, peer: Peer, msg: m.RemoveBot, now: float) -> list[Event]:
    host.table.remove_bot(peer.cid, msg.pid)
    return []


@handles(m.SetVariant)
def set_variant(host: Host, peer: Peer, msg: m.SetVariant, now: float) -> list[Event]:
    host.table.set_variant(peer.cid, msg.variant)
    return []


@handles(m.Start)
def start(host: Host, peer: Peer, msg: m.Start, now: float) -> list[Event]:
    host.table.start(peer.cid, now)
    host.begin_game()
    return []


# -- the game ----------------------------------------------------------------------------


@handles(m.Move)
def move(host: Host, peer: Peer, msg: m.Move, now: float) -> list[Event]:
    return host.table.play(peer.cid, msg.sid, msg.id, now)


@handles(m.AskMoreTime)
def ask_more_time(host: Host, peer: Peer, msg: m.AskMoreTime, now: float) -> list[Event]:
    """The seat on turn gets more time, once a turn; everyone on version 6 is told
    the turn's new time left (``time``): older connections hear nothing of it."""
    got = more_time.ask(host.table, peer.cid, now)
    told = shared(m.MoreTime(sid=got.sid, colour=Colour(got.colour), more=got.more,
                             left=got.left))
    for other in host.welcomed():
        if other.protocol >= MORE_TIME_VERSION:
            host.send(other, *told)
    return []


@handles(m.Rematch)
def rematch(host: Host, peer: Peer, msg: m.Rematch, now: float) -> list[Event]:
    """Another game wanted; the core tells everyone once the next game's lobby opens."""
    host.table.ask_rematch(peer.cid, now)
    return []


# -- succession (protocol version 4) ------------------------------------------------------


@handles(m.Offer)
def offer(host: Host, peer: Peer, msg: m.Offer, now: float) -> list[Event]:
    """Keep where the player's laptop would host next (its latest offer); the order
    changes, and everyone is told it."""
    peer.offer = msg
    host.offered(peer, msg)
    return []


@handles(m.Reveal)
def reveal(host: Host, peer: Peer, msg: m.Reveal, now: float) -> list[Event]:
    """A player gives a host that took the table over the hand the old host committed
    its seat to: kept when it matches the commitment and nobody played since (the seat,
    and once moves were offered every seat holding cards this host dealt, is then told
    its state again, and everyone a new commitment), else refused by name
    (``bad_value`` for a hand that does not match; the seat keeps the hand dealt it
    afresh).  A host that dealt the hands itself has none to be told."""
    player = host.table.player_of(peer.cid)
    if player is None:
        raise RequestRefused(ErrorReason.FORBIDDEN, "spectators hold no hand")
    why = takeover.apply_reveal(host.table, player.colour, msg.hand, msg.salt)
    if why is not None:
        raise RequestRefused(why.reason, why.text)
    log.info("%s revealed the hand of seat %d", player.name, player.colour)
    table = host.table
    # The cards this host dealt were dealt anew: once the first decision is offered
    # (until then the table tells them when it offers it), every seat holding some is
    # told its hand as it stands, as is the seat that revealed.
    dealt: set[int] = set()
    if isinstance(table, takeover.TakenOver) and not table.offer_held():
        dealt = table.dealt_afresh
    for other in host.welcomed():
        if other is peer or host.tell.seat_of(other) in dealt:
            host.tell.send_state(other, history=False)  # its hand as this host holds it now
            host.send_commit(other)
    return []


# -- any time ----------------------------------------------------------------------------


@handles(m.Chat)
def chat(host: Host, peer: Peer, msg: m.Chat, now: float) -> list[Event]:
    """Relay a chat line to every welcomed connection, within the speaker's allowance."""
    if not peer.take_chat_token(now, host.options.chat_rate):
        raise RequestRefused(ErrorReason.RATE_LIMITED, "too many chat lines; wait a moment")
    player = host.table.say(peer.cid, msg.text)
    line = shared(m.Chat(pid=player.pid, text=msg.text))
    for other in host.welcomed():
        host.send(other, *line)
    return []


@handles(m.Resync)
def resync(host: Host, peer: Peer, msg: m.Resync, now: float) -> list[Event]:
    """Tell the connection the whole state again, within its allowance."""
    if not peer.resyncs.take(now, host.options.resync_rate):
        raise RequestRefused(ErrorReason.RATE_LIMITED, "too many resyncs; wait a moment")
    host.tell.send_state(peer, history=False)  # the log it has is whole
    host.send_commit(peer)  # its snapshot told it its whole hand
    return []


@handles(m.Pong)
def pong(host: Host, peer: Peer, msg: m.Pong, now: float) -> list[Event]:
    """Hearing from the peer at all kept it alive; the answer to the ping sent after a
    game's ``over`` also says the result was read."""
    host.ponged(peer, msg.n)
    return []


@handles(m.Error)
def error(host: Host, peer: Peer, msg: m.Error, now: float) -> list[Event]:
    """The client reports a problem; a fatal one closed its session (and its seat
    waits for it, as after a drop)."""
    log.debug("connection %d reports %s: %s", peer.cid, msg.reason.value, msg.text)
    return []


@handles(m.Bye)
def bye(host: Host, peer: Peer, msg: m.Bye, now: float) -> list[Event]:
    """The session closed; the core frees the seat once the whole read is handled."""
    return []
