"""The board's screens, one module each (find, lobby, game, over), and what they share.

Each screen's module has its command table (``TABLE``), ``title()`` (its name in the
top bar) and ``build`` (its container, and what has the focus there).  Beside them:
the watchers' tables (watch), the overlays (help, leave) with their keys and boxes,
the bars, the chat line, the log, the too-small message, the commands several tables
share (shared) and what every screen draws with (parts); :mod:`.tables` says which
table is up.  This package module imports nothing, so each module imports only what
it uses.
"""
