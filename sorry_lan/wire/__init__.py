"""The sorry-lan wire protocol: messages, codec and sessions, with no I/O at all.

``protocol/SPEC.md`` is the language-neutral definition; this package implements it.
Import each name from the module that defines it (this package re-exports nothing).
Typical use on a host (``wire.session``, ``wire.auth``)::

    session = HostSession(pin_key=pin_key("1234"))
    for message in session.receive_data(chunk):
        ...  # Hello/Spectate -> session.welcome(...) or session.refuse(...); Move; ...
    transport.write(session.data_to_send())

Nothing here opens sockets, starts tasks or knows the rules of the game.

Adding a client message (say ``nudge``: a player hurries the seat to move):

1. Declare it in :mod:`sorry_lan.wire.messages`; nothing else in ``wire/`` changes::

       @declare("nudge", by_client(S.PLAYING, who=Who.PLAYER), since=3)
       @dataclass(frozen=True, slots=True)
       class Nudge(Message):
           \"\"\"Client -> host: hurry up ``colour``, the seat to move.\"\"\"

           colour: Colour = field(metadata=_f(COLOUR))

   That one declaration gives the wire name, the fields with their bounds, the
   protocol version that added it (``since``, left out for version 1) and the
   transition rule: the states it may be sent in, ``then=`` the state after (none:
   unchanged) and who may send it (a host message says ``by_host(...)``; one sent
   both ways says both).  ``MsgType.NUDGE``, the codec's lookup
   (``MESSAGE_TYPES``) and its rows in ``transitions.TRANSITIONS`` are made from
   it.  ``python scripts/gen_vectors.py`` then gives it a golden vector, built from
   its field specs (``Message.example``) unless ``tests/wire/wire_samples.py``
   holds a sample written by hand; ``protocol/SPEC.md`` describes it in words and
   in a ``generated:fields:nudge`` block that the script fills.
2. Add its handler in :mod:`sorry_lan.authority.handlers` (``@handles(m.Nudge)``):
   a test fails while a message a client may send has none.
3. Send it from the UI (the client's request method and the board's command).

This package imports :mod:`~sorry_lan.wire.messages` first, so the declared types
and the transition table are whole whichever wire module is imported.
"""

from sorry_lan.wire import messages as _messages  # the declarations fill MsgType, TRANSITIONS

del _messages
