"""The host's authority over a game table, sans I/O.

``table`` keeps the seats, tokens, lobby, game, bots and timers of one table and
answers what each connection asks for; ``seat_messages`` builds what each seat is
told.  Nothing here opens a socket, reads a clock or writes a file: the asyncio host
(``sorry_lan.net.host``) feeds requests and the time in and sends what comes out, and
the table's journal (``sorry_lan.net.journal``) is handed in as a
:class:`~sorry_lan.authority.table.Recorder`.  ``journal_format`` is the journal's
line format (framing, the checksum chain, scan) and ``restore`` replays a journal's
records into the game a table resumes.
"""
