"""The text client: board rendering and the prompt_toolkit application.

Only what draws imports prompt_toolkit: ``app``, ``layout``, ``keys``, ``style``,
``play``, ``renderer``, the ``screens`` and what builds help from their tables.  The
rest is plain Python that the commands printing lines use too: ``board``, ``state``,
``cells`` and ``textfit`` (widths in terminal cells), the sentences, and ``lines``, the
line interface of ``join --text`` and the host's player.  Nothing here opens a socket:
the network layer drives the UI through :class:`sorry_lan.tui.state.UiState` and
receives the player's choices through the :class:`sorry_lan.tui.state.Actions` protocol.
"""
