"""The standby's count of votes on a fake clock: which hellos are votes (a laptop's
token on protocol 4), what each other greeting is told, the quorum (at least one other
laptop), votes kept for twice the delay, the lone rule, and the answers as the
standby listener (``net.standby``) asks for them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tables

from sorry_lan.codes import RefuseReason
from sorry_lan.net.standby import Votes
from sorry_lan.succession.standby import (
    MOVING,
    Host,
    Standby,
    TurnAway,
    Wait,
    verifier,
)
from sorry_lan.wire import messages as m

D = 15.0
V4 = (1, 2, 3, 4)
TOKENS = {pid: bytes([pid]) * 16 for pid in range(8)}
# seats: 0 the host's own, 1-4 laptops, 5 a player who offered no standby, 6 a bot
SEATS: dict[int, bytes | None] = {pid: verifier(TOKENS[pid]) for pid in range(6)}
SEATS[6] = None


def standby(laptops: tuple[int, ...] = (1, 2, 3), me: int = 1) -> Standby:
    return Standby(me=me, laptops=laptops, seats=SEATS, delay=D)


def test_verifier_is_the_sha256_of_the_token() -> None:
    assert verifier(b"\0" * 16).hex().startswith("374708fff7719dd5979ec875d56cd228")


def test_me_must_be_a_laptop() -> None:
    with pytest.raises(ValueError, match="not a laptop"):
        Standby(me=5, laptops=(1, 2), seats=SEATS, delay=D)


def test_a_laptops_hello_is_a_vote_and_the_quorum_takes_over() -> None:
    s = standby((1, 2, 3, 4))  # quorum 3
    assert s.votes(100.0) == 1
    assert s.hello(TOKENS[2], V4, 101.0) == Wait("waiting for the table: 2 of 3", True)
    assert s.hello(TOKENS[2], V4, 102.0) == Wait("waiting for the table: 2 of 3", True)
    assert not s.elected(102.0)
    assert s.hello(TOKENS[3], V4, 103.0) == Host()
    assert s.elected(103.0)
    assert s.hello(None, V4, 104.0) == Host()
    assert s.spectate(104.0) == Host()


def test_two_laptops_need_both() -> None:
    s = standby((1, 2))
    assert s.needed == 2
    assert s.hello(TOKENS[2], V4, 101.0) == Host()


def test_a_lone_laptop_needs_the_lone_rule() -> None:
    s = standby((1,))
    assert s.needed == 2
    assert s.hello(TOKENS[5], V4, 101.0) == Wait("waiting for the table: 1 of 2")
    assert not s.elected(101.0)
    s.alone()
    assert s.ready
    assert s.hello(TOKENS[5], V4, 102.0) == Host()


def test_votes_are_kept_for_twice_the_delay() -> None:
    s = standby((1, 2, 3, 4))
    s.hello(TOKENS[2], V4, 100.0)
    assert s.votes(100.0 + 2 * D - 0.1) == 2
    assert s.votes(100.0 + 2 * D) == 1
    assert s.hello(TOKENS[3], V4, 131.0) == Wait("waiting for the table: 2 of 3", True)


@pytest.mark.parametrize(
    ("token", "versions", "why"),
    [
        (TOKENS[1], V4, "its own seat"),
        (TOKENS[0], V4, "the old host's own seat"),
        (TOKENS[5], V4, "a player with no standby"),
        (TOKENS[2], (1, 2, 3), "a laptop's seat on protocol 3"),
        (None, V4, "a new player"),
    ],
)
def test_seats_that_are_not_votes_wait_for_the_table(
    token: bytes | None, versions: tuple[int, ...], why: str
) -> None:
    s = standby()
    assert s.hello(token, versions, 101.0) == Wait("waiting for the table: 1 of 2"), why
    assert s.votes(101.0) == 1


def test_an_unknown_token_is_turned_away() -> None:
    s = standby()
    answer = s.hello(b"\x99" * 16, V4, 101.0)
    assert isinstance(answer, TurnAway) and answer.reason is RefuseReason.BAD_TOKEN
    assert s.votes(101.0) == 1


def test_a_bot_seat_has_no_verifier_to_match() -> None:
    s = standby()
    assert isinstance(s.hello(TOKENS[6], V4, 101.0), TurnAway)


def test_a_spectator_or_a_probe_waits_and_is_never_a_vote() -> None:
    s = standby()
    assert s.spectate(101.0) == Wait("waiting for the table: 1 of 2")
    assert s.votes(101.0) == 1


def test_greeted_answers_as_the_listener_asks() -> None:
    s = standby()
    asks: Votes = s  # (mypy checks that it is what the listener asks for)
    assert asks is s
    hello = m.Hello(versions=V4, software="sorry-lan", name="bob", token=TOKENS[2])
    watch = m.Spectate(versions=V4, software="sorry-lan", name="eve")
    stranger = m.Hello(versions=V4, software="sorry-lan", name="x", token=b"\x98" * 16)
    assert s.greeted(watch, 100.0) == (RefuseReason.BUSY, "waiting for the table: 1 of 2")
    assert s.greeted(stranger, 100.0)[0] is RefuseReason.BAD_TOKEN
    assert not s.elected(100.0)
    assert s.greeted(hello, 101.0) == (RefuseReason.BUSY, MOVING)  # the quorum: hosts
    assert s.elected(101.0)
    assert s.greeted(watch, 102.0) == (RefuseReason.BUSY, MOVING)


def test_a_wait_is_a_busy_refusal() -> None:
    assert Wait("x").reason is RefuseReason.BUSY


def test_the_standby_a_succession_message_tells() -> None:
    s = Standby.of(tables.succession(), me=2)
    assert (s.laptops, s.keep_for) == ((1, 2, 3), 30.0)
    assert s.hello(tables.TOKENS[0], V4, 1.0) == Wait("waiting for the table: 1 of 2")
    assert s.hello(tables.TOKENS[3], V4, 1.0) == Host()
