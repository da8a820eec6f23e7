"""A round's effects: what was said, then the records, then each connection's output."""

from __future__ import annotations

from sorry_lan.authority.effects import Append, Close, PauseInput, Send
from sorry_lan.authority.journal_records import RecordBuffer
from sorry_lan.authority.output import Round
from sorry_lan.authority.peers import Peer
from sorry_lan.wire import messages as m
from sorry_lan.wire.codec import encode
from sorry_lan.wire.session import HostSession
from sorry_lan.wire.vocab import RefuseReason


def _greeted(cid: int) -> Peer:
    peer = Peer(cid, "10.0.0.1", 0.0, HostSession())
    peer.session.receive_data(encode(m.Hello(versions=(2,), software="t/1", name=f"p{cid}",
                                             token=None)))
    return peer


def test_records_come_before_the_output_and_a_closed_session_is_closed_after_it() -> None:
    records = RecordBuffer(wall=lambda: 0.0)
    out = Round(records)
    a, b = _greeted(1), _greeted(2)
    out.say(PauseInput(1, 0.5))
    a.session.welcome(0, b"\x01" * 16)
    out.touch(a)
    b.session.refuse(RefuseReason.FULL, "full")
    out.touch(b)
    records.chat(0, "hi")
    effects = out.take()
    assert [type(e) for e in effects] == [PauseInput, Append, Send, Send, Close]
    assert effects[-1] == Close(2) and b.closed and not a.closed
    assert out.take() == []  # each round's effects are taken once


def test_a_message_the_session_may_not_send_is_left_out() -> None:
    out = Round(RecordBuffer(wall=lambda: 0.0))
    peer = _greeted(1)
    out.send(peer, m.Ping(n=1))  # not before a welcome
    assert out.take() == []


def test_close_now_writes_what_is_queued_then_closes_and_nothing_follows() -> None:
    out = Round(RecordBuffer(wall=lambda: 0.0))
    peer = _greeted(1)
    peer.session.refuse(RefuseReason.BUSY, "busy")
    out.touch(peer)
    out.close_now(peer, linger=2.0)
    effects = out.take()
    assert [type(e) for e in effects] == [Send, Close] and effects[1] == Close(1, 2.0)
    out.touch(peer)
    out.drop()
    assert out.take() == []
