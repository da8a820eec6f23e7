"""The environment variable that moves this machine's sorry-lan data (journals, seats,
games played): read by the stores, named by the command line's help.

A name only: the stores decide the directories (:func:`sorry_lan.net.journal.default_dir`).
"""

DATA_DIR_ENV = "SORRY_LAN_DATA_DIR"
