"""The reason each refusal puts on the wire, seen by a raw client of the host core.

Seat refusals arrive as ``refuse``; requests refused in the lobby as non-fatal
``error`` messages, after which the connection still answers.  (The move refusals
are in ``test_core_authority.py``; every refusal's reason at the table itself is in
``test_authority_refusals.py``.)  In memory, on the pair's clock.
"""

from __future__ import annotations

from pair import Pair, RawClient, hello, spectate

from sorry_lan.authority.limits import HostOptions
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.rules.board import Colour
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import ErrorReason
from sorry_lan.wire.limits import PID_MAX
from sorry_lan.wire.vocab import ByeReason, RefuseReason

QUIET = HostOptions(heartbeat=0.5, dead_after=3.0)


def lobby_host(seats: int = 4, options: HostOptions | None = None,
               **config: object) -> tuple[Pair, RawClient]:
    """A host whose owner (a raw client) is seated and welcomed; nothing starts alone."""
    table = Table(TableConfig(seats=seats, seed=7, **config))  # type: ignore[arg-type]
    owner, token = table.join(None, "owner")
    table.owner = owner.pid
    pair = Pair(table, options or QUIET)
    welcome = answer(pair, hello("owner", token))
    assert isinstance(welcome.inbox[0], m.Welcome) and welcome.inbox[0].owner
    return pair, welcome


def answer(pair: Pair, greeting: m.Hello | m.Spectate) -> RawClient:
    """A new raw connection that sent ``greeting`` and read the answer."""
    _cid, raw = pair.connect(RawClient())
    raw.send(greeting)
    pair.pump()
    return raw


def joined(pair: Pair, name: str) -> RawClient:
    raw = answer(pair, hello(name))
    assert isinstance(raw.inbox[0], m.Welcome)
    return raw


def refused_entry(pair: Pair, name: str, token: bytes | None = None) -> m.Refuse:
    [answered] = answer(pair, hello(name, token)).inbox
    assert isinstance(answered, m.Refuse)
    return answered


def refused(pair: Pair, client: RawClient, msg: m.Message) -> ErrorReason:
    """Send ``msg``; return the reason of the error it gets, once the connection has
    shown it is still open (it answers a ping)."""
    client.inbox.clear()
    client.send(msg)
    client.send(m.Ping(n=77))
    pair.pump()
    errors = [x for x in client.inbox if isinstance(x, m.Error)]
    assert len(errors) == 1 and not errors[0].fatal
    assert m.Pong(n=77) in client.inbox
    return errors[0].reason


def test_seat_refusals_reach_the_wire_as_refuse_reasons() -> None:
    pair, owner = lobby_host(seats=3, max_spectators=0)
    guest = joined(pair, "guest")
    assert refused_entry(pair, "Guest").reason is RefuseReason.NAME_TAKEN
    assert refused_entry(pair, "x", bytes(16)).reason is RefuseReason.BAD_TOKEN
    [no_room] = answer(pair, spectate("eve")).inbox
    assert isinstance(no_room, m.Refuse) and no_room.reason is RefuseReason.NO_SPECTATORS
    joined(pair, "third")
    assert refused_entry(pair, "fourth").reason is RefuseReason.FULL
    owner.send(m.Start())
    pair.pump()
    assert any(isinstance(x, m.Snapshot) for x in owner.inbox)
    guest.send(m.Bye(reason=ByeReason.QUIT))  # a free colour, but a game on
    pair.pump()
    pair.advance(0.05)
    assert refused_entry(pair, "late").reason is RefuseReason.STARTED


def test_lobby_refusals_reach_the_wire_as_non_fatal_errors() -> None:
    pair, owner = lobby_host(options=HostOptions(heartbeat=0.5, dead_after=3.0, chat_burst=1,
                                                 chat_rate=0.01))
    assert refused(pair, owner, m.Start()) is ErrorReason.NOT_READY
    guest = joined(pair, "guest")
    assert refused(pair, guest, m.ChooseColour(colour=Colour.RED)) is ErrorReason.COLOUR_TAKEN
    level = m.AddBot(colour=None, level="wizard")
    assert refused(pair, owner, level) is ErrorReason.BAD_VALUE
    taken = m.AddBot(colour=Colour.BLUE, level="greedy")
    assert refused(pair, owner, taken) is ErrorReason.COLOUR_TAKEN
    guest_cid = max(pair.core.peers)
    guest_player = pair.table.player_of(guest_cid)
    assert guest_player is not None
    assert refused(pair, owner, m.RemoveBot(pid=guest_player.pid)) is ErrorReason.BAD_VALUE
    for _ in range(2):
        owner.send(m.AddBot(colour=None, level="greedy"))
    pair.pump()
    assert len(pair.table.players) == 4
    # The bug this fixes: a full table's refusal went out as the fatal bad_value.
    full = m.AddBot(colour=None, level="greedy")
    assert refused(pair, owner, full) is ErrorReason.COLOUR_TAKEN
    watcher = answer(pair, spectate("eve"))
    assert isinstance(watcher.inbox[0], m.Welcome)
    assert refused(pair, watcher, m.Chat(pid=None, text="hi")) is ErrorReason.FORBIDDEN
    guest.send(m.Chat(pid=None, text="one"))
    assert refused(pair, guest, m.Chat(pid=None, text="two")) is ErrorReason.RATE_LIMITED


def test_a_lobby_with_many_comings_and_goings_still_welcomes() -> None:
    pair, _owner = lobby_host()
    pair.table._next_pid = PID_MAX  # as after 254 players came and went
    for expected in (PID_MAX, 1):  # 0 is the owner's
        raw = joined(pair, f"p{expected}")
        welcome = raw.inbox[0]
        assert isinstance(welcome, m.Welcome) and welcome.pid == expected
        assert any(isinstance(x, m.Lobby) for x in raw.inbox)
