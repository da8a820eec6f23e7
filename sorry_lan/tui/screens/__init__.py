"""The board's screens, one module each (find, lobby, game, over), the watchers' tables,
the overlays (help, leave), and what they share.

Each screen module holds its command table (``TABLE``); :mod:`.tables` says which table
is up.  This package module imports nothing, so each screen imports only what it uses.
"""
