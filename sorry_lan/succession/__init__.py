"""The table outlives its host (protocol version 4): what every laptop at a table
knows and decides about who hosts next, sans I/O.

- ``knowledge``: what a player's laptop knows of its table that a successor needs
  (the succession order, the table's config, the seats' token verifiers, the board
  as the player saw it, its own hand and the hand commitments, the chat tail);
- ``commitment``: the salted hash a host commits each hand to;
- ``election``: when a laptop that lost its host votes, for whom, and when it takes
  over (the takeover delay, the quorum, the lone-player rule, epochs);
- ``standby``: the votes a laptop's standby listener counts before it hosts.

It does not open sockets, keep time or build the host's table: ``authority.takeover``
builds a host core from a ``Knowledge``, and ``net`` runs the listeners and timers.
"""
