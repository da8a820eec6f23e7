"""A client of a table, sans I/O.

``model`` is one seat's (or a spectator's) session with its table: it turns the
host's bytes into the events a user interface or a bot reads (``events``) and routes
each message to the table's fold (``fold``: what the seat knows of the game, the game
so far in ``so_far``, the records the host sent in ``records``; published as a frozen
``view``) or to this laptop's part in who hosts the table next (``participant``).
Nothing here opens a socket, reads a clock or writes a file: the asyncio client
(``sorry_lan.net.client``) feeds bytes and the time in and sends what comes out.
"""
