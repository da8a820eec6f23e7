"""A client of a table, sans I/O.

``model`` keeps what one seat (or a spectator) knows of its table and turns the
host's bytes into the events a user interface or a bot reads (``events``); it publishes
the table as a frozen ``view`` (the game so far: ``so_far``), keeps the game records
the host sent (``records``) and feeds this laptop's part in who hosts the table next
(``participant``).  Nothing here opens a socket, reads a clock or writes a file: the
asyncio client (``sorry_lan.net.client``) feeds bytes and the time in and sends what
comes out.
"""
