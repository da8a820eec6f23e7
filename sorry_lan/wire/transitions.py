"""The session state machine as data: one table for both ends of a connection.

Both sides track the same state of one connection.  :data:`TRANSITIONS` maps
``(state, sender, message type)`` to a :class:`Rule`: the state after the message
(``None``: unchanged) and who on the client side may send it.  A host session looks
up rows with ``sender=CLIENT`` for what it receives and ``sender=HOST`` for what it
sends; a client session the reverse.  A message without a row is out of order
(``unexpected``); a row whose ``who`` the connection's role does not satisfy gives
``forbidden``.

This module is the table and nothing else: no I/O, no game rules, no side effects.
protocol/SPEC.md renders the same table for readers (``render_transitions``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from sorry_lan.wire.vocab import MsgType as T


class State(Enum):
    """The phase of one connection, identical on both ends."""

    GREETING = "greeting"  # nothing sent yet: the client must send hello or spectate
    JOINING = "joining"  # greeting received: the host must challenge, welcome or refuse
    PROVING = "proving"  # challenge sent: the client must send proof
    LOBBY = "lobby"  # admitted; no game running
    PLAYING = "playing"  # a game is under way (after a snapshot)
    GAME_OVER = "game_over"  # the game ended (after over)
    CLOSED = "closed"  # after bye, refuse or a fatal error: nothing more is accepted


class Sender(Enum):
    CLIENT = "client"
    HOST = "host"


class Role(Enum):
    """What a welcomed client connection is (decided by the host's ``welcome``)."""

    PLAYER = "player"  # holds a seat (pid + token)
    OWNER = "owner"  # holds a seat and runs the table: may add bots, set variant, start
    SPECTATOR = "spectator"  # no seat: watches the public view


class Who(Enum):
    """Which client roles may send a message (host messages are always ANYONE)."""

    ANYONE = "anyone"
    PLAYER = "player"  # PLAYER or OWNER
    OWNER = "owner"

    def allows(self, role: Role | None) -> bool:
        if self is Who.ANYONE:
            return True
        if self is Who.OWNER:
            return role is Role.OWNER
        return role in (Role.PLAYER, Role.OWNER)


@dataclass(frozen=True, slots=True)
class Rule:
    next: State | None  # None: the state does not change
    who: Who


S = State
C, H = Sender.CLIENT, Sender.HOST
_WELCOMED: Final = (S.LOBBY, S.PLAYING, S.GAME_OVER)
_OPEN: Final = (S.GREETING, S.JOINING, S.PROVING, *_WELCOMED)
_BOTH: Final = (C, H)

# (states, senders, message types, next state or None, who may send it)
Row = tuple[tuple[State, ...], tuple[Sender, ...], tuple[T, ...], State | None, Who]
ROWS: Final[tuple[Row, ...]] = (
    # Joining.
    ((S.GREETING,), (C,), (T.HELLO, T.SPECTATE), S.JOINING, Who.ANYONE),
    ((S.JOINING,), (H,), (T.CHALLENGE,), S.PROVING, Who.ANYONE),
    ((S.PROVING,), (C,), (T.PROOF,), S.JOINING, Who.ANYONE),
    ((S.JOINING,), (H,), (T.WELCOME,), S.LOBBY, Who.ANYONE),
    ((S.GREETING, S.JOINING), (H,), (T.REFUSE,), S.CLOSED, Who.ANYONE),
    # Any time after welcome.
    (_WELCOMED, (H,), (T.LOBBY,), None, Who.ANYONE),
    (_WELCOMED, _BOTH, (T.PING, T.PONG), None, Who.ANYONE),
    (_WELCOMED, (H,), (T.CHAT,), None, Who.ANYONE),
    (_WELCOMED, (C,), (T.CHAT,), None, Who.PLAYER),  # spectators watch; they do not talk
    (_WELCOMED, (C,), (T.RESYNC,), None, Who.ANYONE),
    (_WELCOMED, (C,), (T.PROFILE,), None, Who.PLAYER),  # protocol version 2 on
    (_WELCOMED, (H,), (T.SNAPSHOT,), S.PLAYING, Who.ANYONE),
    # Lobby.
    ((S.LOBBY,), (C,), (T.CHOOSE_COLOUR,), None, Who.PLAYER),
    # ``ready`` may cross the start of a game (a headless table starts by itself): the
    # host ignores it outside the lobby rather than calling it out of order.
    (_WELCOMED, (C,), (T.READY,), None, Who.PLAYER),
    ((S.LOBBY,), (C,), (T.ADD_BOT, T.REMOVE_BOT, T.SET_VARIANT, T.START), None, Who.OWNER),
    # Playing.
    ((S.PLAYING,), (H,), (T.TURN, T.LEGAL_MOVES, T.EVENTS), None, Who.ANYONE),
    ((S.PLAYING,), (C,), (T.MOVE,), None, Who.PLAYER),
    ((S.PLAYING, S.GAME_OVER), (H,), (T.GAME_OVER,), S.GAME_OVER, Who.ANYONE),
    # Game over.
    ((S.GAME_OVER,), (C,), (T.REMATCH,), None, Who.PLAYER),
    ((S.GAME_OVER,), (H,), (T.REMATCH,), S.LOBBY, Who.ANYONE),
    # Any time before closing.
    (_OPEN, _BOTH, (T.ERROR,), None, Who.ANYONE),
    (_OPEN, _BOTH, (T.BYE,), S.CLOSED, Who.ANYONE),
)


def _build(rows: Iterable[Row]) -> dict[tuple[State, Sender, T], Rule]:
    table: dict[tuple[State, Sender, T], Rule] = {}
    for states, senders, types, nxt, who in rows:
        for state in states:
            for sender in senders:
                for mtype in types:
                    key = (state, sender, mtype)
                    assert key not in table, f"duplicate transition {key}"
                    table[key] = Rule(nxt, who)
    return table


#: (state, sender, message type) -> Rule.  Missing keys are out-of-order messages.
TRANSITIONS: Final = _build(ROWS)


def rule_for(state: State, sender: Sender, mtype: T) -> Rule | None:
    return TRANSITIONS.get((state, sender, mtype))


def render_transitions() -> str:
    """The table as Markdown, one row per (sender, message type), for the spec."""
    lines = [
        "| sender | message | allowed in -> state after | who may send |",
        "| --- | --- | --- | --- |",
    ]
    for sender in Sender:
        for mtype in T:
            by_next: dict[str, list[str]] = {}
            who = Who.ANYONE
            for state in State:
                rule = TRANSITIONS.get((state, sender, mtype))
                if rule is None:
                    continue
                who = rule.who
                nxt = "unchanged" if rule.next is None else rule.next.value
                by_next.setdefault(nxt, []).append(state.value)
            if by_next:
                cells = "; ".join(f"{', '.join(sts)} -> {nxt}" for nxt, sts in by_next.items())
                shown = who.value if sender is Sender.CLIENT else "host"
                lines.append(f"| {sender.value} | `{mtype.value}` | {cells} | {shown} |")
    return "\n".join(lines) + "\n"
