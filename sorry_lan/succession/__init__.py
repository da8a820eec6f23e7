"""The table outlives its host (protocol version 4): what every laptop at a table
knows and decides about who hosts next, sans I/O.

- ``knowledge``: what a player's laptop knows of its table that a successor needs
  (the succession order, the table's config, the seats' token verifiers, the board
  as the player saw it, its own hand and the hand commitments, the chat tail);
- ``commitment``: the salted hash a host commits each hand to;
- ``election``: when a laptop that lost its host votes, for whom, and when it takes
  over (the takeover delay, the quorum, the lone-player rule, epochs);
- ``standby``: the votes a laptop's standby listener counts before it hosts;
- ``watch``: when a laptop's host is lost (silence), and a plain reconnect's tries;
- ``retry``: the order of a laptop's tries while its host is lost (a candidate, the
  old host with its backoff, a pause);
- ``timings``: every delay of a laptop, with the relations they keep.

It does not open sockets, keep time or build the host's table: ``authority.takeover``
builds a host core from a ``Knowledge``, and ``net`` runs the listeners and timers.
"""
