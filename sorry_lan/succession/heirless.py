"""Whether any laptop can take the table over when its host is lost, as this laptop
knows it: sans I/O.

A table's ``order`` may leave every other laptop out (protocol/SPEC.md, section 13:
an offer of loopback addresses only is not in it), so that nobody can host next::

    heirless(election)        # True: no laptop of this table can take it over

Then the laptop says so at once (and, when it gives up, says that the host never
came back) rather than "finding who hosts next" for as long as it looks.  Nobody can
take over when the order, less the lost host, holds no laptop but this one, and this
one cannot take the table by itself either: it is not in the order (a spectator, a
laptop left out), it cannot host (``can_host``), or nobody at it may be asked to play
on alone (``may_ask``: a bot, a headless laptop), since with no other laptop's vote a
takeover needs that person's yes (``election.AskAlone``).

It reads only what the election was told; it tries nothing and decides no step of
the walk (the election still walks, and the old host is still tried: a host that
comes back is rejoined).
"""

from __future__ import annotations

from .election import Election

__all__ = ["heirless"]


def heirless(election: Election) -> bool:
    """Whether no laptop of this table can take it over (see the module docstring)."""
    order, me = election.order, election.me
    others = [lap for lap in order.laptops if lap.pid not in (me, order.host)]
    if others:
        return False
    listed = me is not None and me != order.host and order.laptop(me) is not None
    return not (listed and election.can_host and election.may_ask)
