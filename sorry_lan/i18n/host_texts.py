"""The host's own words for a refused request, as catalog entries.

An ``error`` from the host carries a reason code and an English ``text`` that says
more than the code (``the table is paused: waiting for the other players`` where the
code says only ``unexpected``).  :data:`HOST_TEXTS` lists every fixed text the host
sends so, each marked for the catalogs, so a player in another language reads that
detail too (:func:`sorry_lan.i18n.coded.error_text`); a text with a value in it (a
state id, a move number) is not here and is read by its code.

It does not decide what the host refuses (``sorry_lan.authority`` does, and a test
checks that each of its fixed texts is listed here).
"""

from __future__ import annotations

from . import N_

HOST_TEXTS: frozenset[str] = frozenset({
    N_("spectators hold no hand"),
    N_("too many chat lines; wait a moment"),
    N_("too many resyncs; wait a moment"),
    N_("this table has no turn timer"),
    N_("this turn already got more time"),
    N_("spectators cannot do that"),
    N_("only in the lobby"),
    N_("only the host can do that"),
    N_("that colour is taken"),
    N_("every seat is taken"),
    N_("no such bot"),
    N_("spectators cannot chat"),
    N_("spectators cannot ask for a rematch"),
    N_("the game is not over"),
    N_("no game is being played"),
    N_("the table is paused: waiting for the other players"),
    N_("no move yet: waiting for the other players' hands"),
    N_("it is not your turn"),
    N_("no other player sits there"),
    N_("someone asks you to trade colours: answer first"),
    N_("that player is already trading colours"),
    N_("that player cannot answer now"),
    N_("nobody is asking you to trade colours"),
    N_("the host is alive"),
})
