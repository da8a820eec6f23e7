"""The text client: board rendering and the prompt_toolkit application.

``board`` and ``state`` are plain Python; only ``app``, ``layout``, ``keys`` and
``style`` import prompt_toolkit.  Nothing here opens a socket: the network layer
drives the UI through :class:`sorry_lan.tui.state.UiState` and receives the player's
choices through the :class:`sorry_lan.tui.state.Actions` protocol.  ``lines`` is the
plain line interface (no prompt_toolkit) that the headless commands use.
"""
