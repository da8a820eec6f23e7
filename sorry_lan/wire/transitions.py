"""The session state machine as data: one table for both ends of a connection.

Both sides track the same state of one connection.  :data:`TRANSITIONS` maps
``(state, sender, message type)`` to a :class:`Rule`: the state after the message
(``None``: unchanged) and who on the client side may send it.  A host session looks
up rows with ``sender=CLIENT`` for what it receives and ``sender=HOST`` for what it
sends; a client session the reverse.  A message without a row is out of order
(``unexpected``); a row whose ``who`` the connection's role does not satisfy gives
``forbidden``.

The rows are not written here: each message class in :mod:`sorry_lan.wire.messages`
declares its own (:func:`by_client`, :func:`by_host`), and its declaration adds them
with :func:`add_rules`, so the table is whole once that module is imported.  This
module is the table's vocabulary and the table: no I/O, no game rules.
protocol/SPEC.md renders the same table for readers (``render_transitions``).
"""

from __future__ import annotations

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


#: The states of a connection that was welcomed, and of one not yet closed.
WELCOMED: Final = (State.LOBBY, State.PLAYING, State.GAME_OVER)
OPEN: Final = (State.GREETING, State.JOINING, State.PROVING, *WELCOMED)


@dataclass(frozen=True, slots=True)
class Sends:
    """One declared line of a message's rules: ``sender`` may send it in ``states``,
    after which the connection is in ``next`` (``None``: unchanged); ``who`` says which
    client roles may (always ``ANYONE`` for the host)."""

    sender: Sender
    states: tuple[State, ...]
    next: State | None
    who: Who


def _states(given: tuple[State | tuple[State, ...], ...]) -> tuple[State, ...]:
    return tuple(s for g in given for s in (g if isinstance(g, tuple) else (g,)))


def by_client(
    *states: State | tuple[State, ...], then: State | None = None, who: Who = Who.ANYONE
) -> Sends:
    """A client may send the message in ``states`` (states or tuples of them, such as
    :data:`WELCOMED`), if its role is one ``who`` allows; the state after is ``then``."""
    return Sends(Sender.CLIENT, _states(states), then, who)


def by_host(*states: State | tuple[State, ...], then: State | None = None) -> Sends:
    """The host may send the message in ``states``; the state after is ``then``."""
    return Sends(Sender.HOST, _states(states), then, Who.ANYONE)


#: (state, sender, message type) -> Rule.  Missing keys are out-of-order messages.
#: Filled by the message declarations (:func:`add_rules`).
TRANSITIONS: Final[dict[tuple[State, Sender, T], Rule]] = {}
#: Message type -> the rules its class declared, in the order declared.
DECLARED: Final[dict[T, tuple[Sends, ...]]] = {}


def add_rules(mtype: T, rules: tuple[Sends, ...]) -> None:
    """Add ``mtype``'s rows to :data:`TRANSITIONS`; ``ValueError`` (and nothing added)
    when a row is given twice or the message has no rule at all."""
    rows: dict[tuple[State, Sender, T], Rule] = {}
    for rule in rules:
        for state in rule.states:
            key = (state, rule.sender, mtype)
            if key in rows or key in TRANSITIONS:
                raise ValueError(f"transition {[k.value for k in key]} given twice")
            rows[key] = Rule(rule.next, rule.who)
    if not rows:
        raise ValueError(f"{mtype.value} declares no transition: nobody could send it")
    TRANSITIONS.update(rows)
    DECLARED[mtype] = rules


def remove_rules(mtype: T) -> None:
    """Take ``mtype``'s rows out of :data:`TRANSITIONS` again."""
    for key in [key for key in TRANSITIONS if key[2] == mtype]:
        del TRANSITIONS[key]
    del DECLARED[mtype]


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
