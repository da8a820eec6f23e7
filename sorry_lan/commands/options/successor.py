"""The standby options of the commands that sit at a table (``join``, ``bot``): where
this laptop hosts the table if its host is lost.

Read before anything runs: :mod:`sorry_lan.commands.successor` makes the heir.
"""

from __future__ import annotations

import argparse

from sorry_lan.commands.argtypes import port_number
from sorry_lan.i18n import _


def add_standby_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--standby-port",
        type=port_number,
        default=0,
        metavar="PORT",
        help=_(
            "where this laptop hosts the table if its host is lost "
            "(default: a free port the system picks)"
        ),
    )
