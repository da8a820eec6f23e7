"""More time for a turn (protocol version 6), as sentences: the news that a seat got
more time, and why asking for it did nothing.

Pure: :func:`time_refused` reads a client model's offer and session to tell why an ask
would be refused before it is sent; it sends nothing (the host judges the ask anyway).
"""

from __future__ import annotations

from sorry_lan.client.model import ClientModel
from sorry_lan.i18n import _, ngettext
from sorry_lan.wire import messages as m

from .sentences import sentence


def more_time_news(name: str | None, more: int) -> str:
    """``name`` (None: the listener) got ``more`` seconds for this turn."""
    if name is None:
        return sentence(ngettext("You have {n} more second", "You have {n} more seconds",
                                 more), n=more)
    return sentence(ngettext("{name} has {n} more second", "{name} has {n} more seconds",
                             more), name=name, n=more)


def time_refused(model: ClientModel) -> str | None:
    """Why asking for more time now would do nothing (None: ask)."""
    session = model.session
    if session is not None and not session.speaks(m.AskMoreTime.TYPE):
        return _("this table's host runs an older sorry-lan that cannot give more time")
    offer = model.moves
    if offer is None:
        return _("you can ask for more time only on your turn")
    if offer.timeout is None:
        return _("this table has no turn timer: take your time")
    if model.time_asked == offer.sid:
        return _("you already have more time for this turn: more time is once a turn")
    return None
