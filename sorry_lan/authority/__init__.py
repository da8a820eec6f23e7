"""The host, sans I/O: the table's authority and every decision about connections.

``core`` (:class:`~sorry_lan.authority.core.HostCore`) takes what happened -- a
connection opened, bytes read, the clock, a bot's answer -- and returns what to do
(``effects``); ``handlers`` holds one handler per client message; ``announce`` says
who is told what; ``limits`` and ``peers`` the rates, deadlines and per-connection
bookkeeping; ``admission`` the PIN throttle and who makes room; ``table`` keeps the
seats, tokens, lobby, game, bots and timers; ``seat_messages`` builds what each seat
is told.  ``journal_records`` builds the journal's records, ``journal_format`` is its
line format (framing, the checksum chain, scan) and ``restore`` replays a journal's
records into the game a table resumes.  Succession (protocol version 4):
``electorate`` keeps the laptops that may host next and their order, ``heirs`` builds
the ``succession`` message and the words for a table that moved, ``commitments`` the
hand commitments of play for points, and ``fencing`` when a host cut off from most
laptops pauses and probes them.  Nothing here opens a socket, reads a clock,
starts a thread or writes a file: the asyncio shell (``sorry_lan.net.host``) feeds
inputs in with the time and carries out the effects.
"""
