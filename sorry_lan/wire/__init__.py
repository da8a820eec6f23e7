"""The sorry-lan wire protocol: messages, codec and sessions, with no I/O at all.

``protocol/SPEC.md`` is the language-neutral definition; this package implements it.
Import each name from the module that defines it (this package re-exports nothing).
Typical use on a host (``wire.session``, ``wire.auth``)::

    session = HostSession(pin_key=pin_key("1234"))
    for message in session.receive_data(chunk):
        ...  # Hello/Spectate -> session.welcome(...) or session.refuse(...); Move; ...
    transport.write(session.data_to_send())

Nothing here opens sockets, starts tasks or knows the rules of the game.
"""
