"""Every message a client may send has its handler (or the session answers it)."""

from __future__ import annotations

from sorry_lan.authority.handlers import HANDLERS, SESSION_ANSWERS
from sorry_lan.wire.messages import MESSAGE_TYPES
from sorry_lan.wire.transitions import TRANSITIONS, Sender


def _client_sent() -> set[object]:
    return {mtype for (_state, sender, mtype) in TRANSITIONS if sender is Sender.CLIENT}


def test_every_client_message_of_the_transitions_table_has_a_handler() -> None:
    handled = {cls.TYPE for cls in HANDLERS}
    missing = _client_sent() - handled - SESSION_ANSWERS
    assert missing == set(), f"client messages without a handler: {missing}"


def test_handlers_are_registered_by_message_class_and_only_for_client_messages() -> None:
    for cls in HANDLERS:
        assert MESSAGE_TYPES[cls.TYPE] is cls
    assert {cls.TYPE for cls in HANDLERS} <= _client_sent()
    assert _client_sent() >= SESSION_ANSWERS
    assert not SESSION_ANSWERS & {cls.TYPE for cls in HANDLERS}
