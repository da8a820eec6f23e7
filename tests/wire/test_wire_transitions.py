"""The transition table: coverage, direction, and role rules."""

from __future__ import annotations

from sorry_lan.wire.transitions import (
    DECLARED,
    TRANSITIONS,
    Role,
    Sender,
    State,
    Who,
    render_transitions,
    rule_for,
)
from sorry_lan.wire.vocab import MsgType

HOST_ONLY = {
    MsgType.CHALLENGE, MsgType.WELCOME, MsgType.REFUSE, MsgType.LOBBY, MsgType.SNAPSHOT,
    MsgType.TURN, MsgType.LEGAL_MOVES, MsgType.EVENTS, MsgType.GAME_OVER,
}
CLIENT_ONLY = {
    MsgType.HELLO, MsgType.SPECTATE, MsgType.PROOF, MsgType.CHOOSE_COLOUR, MsgType.READY,
    MsgType.ADD_BOT, MsgType.REMOVE_BOT, MsgType.SET_VARIANT, MsgType.START, MsgType.MOVE,
    MsgType.RESYNC,
}


def test_every_message_type_has_a_transition() -> None:
    assert {mtype for _, _, mtype in TRANSITIONS} == set(MsgType)


def test_directions() -> None:
    for (_, sender, mtype), _rule in TRANSITIONS.items():
        if mtype in HOST_ONLY:
            assert sender is Sender.HOST, mtype
        if mtype in CLIENT_ONLY:
            assert sender is Sender.CLIENT, mtype


def test_closed_accepts_nothing() -> None:
    assert not any(state is State.CLOSED for state, _, _ in TRANSITIONS)


def test_only_greetings_open_a_connection() -> None:
    client_first = {
        m for (s, snd, m) in TRANSITIONS if s is State.GREETING and snd is Sender.CLIENT
    }
    assert client_first == {MsgType.HELLO, MsgType.SPECTATE, MsgType.ERROR, MsgType.BYE}


def test_host_messages_are_never_role_restricted() -> None:
    assert all(r.who is Who.ANYONE for (_, snd, _), r in TRANSITIONS.items() if snd is Sender.HOST)


def test_owner_commands_and_player_actions() -> None:
    for mtype in (MsgType.START, MsgType.ADD_BOT, MsgType.REMOVE_BOT, MsgType.SET_VARIANT):
        rule = rule_for(State.LOBBY, Sender.CLIENT, mtype)
        assert rule is not None and rule.who is Who.OWNER
        assert rule_for(State.PLAYING, Sender.CLIENT, mtype) is None
    move = rule_for(State.PLAYING, Sender.CLIENT, MsgType.MOVE)
    assert move is not None and move.who is Who.PLAYER
    assert rule_for(State.LOBBY, Sender.CLIENT, MsgType.MOVE) is None


def test_who_allows() -> None:
    assert Who.ANYONE.allows(None) and Who.ANYONE.allows(Role.SPECTATOR)
    assert Who.PLAYER.allows(Role.PLAYER) and Who.PLAYER.allows(Role.OWNER)
    assert not Who.PLAYER.allows(Role.SPECTATOR) and not Who.PLAYER.allows(None)
    assert Who.OWNER.allows(Role.OWNER) and not Who.OWNER.allows(Role.PLAYER)


def test_phase_changes() -> None:
    def nxt(state: State, sender: Sender, mtype: MsgType) -> State | None:
        rule = rule_for(state, sender, mtype)
        assert rule is not None
        return rule.next

    assert nxt(State.GREETING, Sender.CLIENT, MsgType.HELLO) is State.JOINING
    assert nxt(State.JOINING, Sender.HOST, MsgType.CHALLENGE) is State.PROVING
    assert nxt(State.PROVING, Sender.CLIENT, MsgType.PROOF) is State.JOINING
    assert nxt(State.JOINING, Sender.HOST, MsgType.WELCOME) is State.LOBBY
    assert nxt(State.LOBBY, Sender.HOST, MsgType.SNAPSHOT) is State.PLAYING
    assert nxt(State.PLAYING, Sender.HOST, MsgType.GAME_OVER) is State.GAME_OVER
    assert nxt(State.GAME_OVER, Sender.HOST, MsgType.REMATCH) is State.LOBBY
    assert nxt(State.GAME_OVER, Sender.CLIENT, MsgType.REMATCH) is None
    assert nxt(State.PLAYING, Sender.CLIENT, MsgType.BYE) is State.CLOSED


def test_rendered_table_has_one_line_per_sender_and_type() -> None:
    pairs = {(snd, m) for (_, snd, m) in TRANSITIONS}
    assert len(render_transitions().splitlines()) == 2 + len(pairs)
    declared = sum(len(rules) for rules in DECLARED.values())
    assert declared < len(TRANSITIONS)  # declared compactly, the table is expanded
