"""What the host core has to say while it handles one input: the round's effects.

A :class:`Round` collects, in order, the effects the core decides on (a close, a
pause, a ``Think``, a change of summary...), notes which connections' sessions were
given something to send, and on :meth:`Round.take` hands them all over: what was
said, then the journal records the table made (``Append``), then each connection's
output (``Send``, and ``Close`` after it for a session that closed).  So every record
comes before the output that may depend on it.

It decides nothing about what to send or to whom (the core, the handlers and the
announcer do) and does no I/O.
"""

from __future__ import annotations

import logging

from sorry_lan.authority.effects import Append, Close, Effect, Send
from sorry_lan.authority.journal_records import RecordBuffer
from sorry_lan.authority.peers import Peer
from sorry_lan.wire import messages as m
from sorry_lan.wire.errors import LocalProtocolError

log = logging.getLogger(__name__)


class Round:
    """The effects of the input being handled; the table's records come from ``records``."""

    def __init__(self, records: RecordBuffer) -> None:
        self.records = records
        self._effects: list[Effect] = []
        self._dirty: dict[int, Peer] = {}

    def say(self, *effects: Effect) -> None:
        """Add ``effects``, in order, before the round's records and output."""
        self._effects += effects

    def touch(self, peer: Peer) -> None:
        """``peer``'s session may have output to send at the end of the round."""
        self._dirty[peer.cid] = peer

    def forget(self, peer: Peer) -> None:
        """Nothing more goes to ``peer`` this round (it is closed, or gone)."""
        self._dirty.pop(peer.cid, None)

    def send(self, peer: Peer, msg: m.Message, frame: bytes | None = None) -> None:
        """Queue ``msg`` for ``peer`` (``frame``: its encoding, when shared); a message
        its session may not send now is left out (with a debug line)."""
        try:
            peer.session.send(msg, frame)
        except LocalProtocolError as exc:
            log.debug("connection %d: not sending %s: %s", peer.cid, msg.TYPE.value, exc)
            return
        self.touch(peer)

    def close_now(self, peer: Peer, linger: float | None = None) -> None:
        """Send what ``peer``'s session holds, then close it (``linger``: see Close)."""
        peer.closed = True
        self.forget(peer)
        data = peer.session.data_to_send()
        if data:
            self.say(Send(peer.cid, data))
        self.say(Close(peer.cid, linger))

    def take(self) -> list[Effect]:
        """This round's effects: what was said, the journal records, then each
        connection's output (and a close after it for a session that closed)."""
        out, self._effects = self._effects, []
        out += [Append(record) for record in self.records.take()]
        for peer in self._dirty.values():
            data = peer.session.data_to_send()
            if data:
                out.append(Send(peer.cid, data))
            if peer.session.closed:
                peer.closed = True
                out.append(Close(peer.cid))
        self._dirty.clear()
        return out

    def drop(self) -> None:
        """Forget the round (the journal failed: its records and output are lost)."""
        self.records.take()
        self._effects.clear()
        self._dirty.clear()
