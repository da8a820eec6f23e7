"""What happened, in words: roster changes, a bot moving for someone, what befell your
pawns since your last move, and a game's statistics.

:func:`roster_news` compares two rosters and says who joined, left, dropped, came
back, changed colour or was taken over by a bot.  :func:`events_news` reads one events
message for the turn summary (your pawns bumped, swapped or hit by a Sorry!) and
counts the statistics shown at game over.  It is plain Python over :class:`UiState`:
it draws nothing and sends nothing, and knows only what the host's messages say (a
present player's turn timing out is known only for yourself, from your own side).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from sorry_lan.bots import made_name
from sorry_lan.client.figures import count
from sorry_lan.client.model import TableNews, TableNewsKind
from sorry_lan.i18n import _, ngettext, pgettext, words
from sorry_lan.rules.board import START, Colour, pawn_label
from sorry_lan.rules.variants import initial_pawns
from sorry_lan.succession.election import Claim
from sorry_lan.wire import messages as m
from sorry_lan.wire.records import EventKind, PlayerInfo

from .sentences import opening
from .state import RosterEntry, UiState


def at_opening(snap: m.Snapshot) -> bool:
    """Whether ``snap`` shows its game as dealt, before any pawn moved (in play for
    points each fourth pawn starts on its exit: that game is fresh too); else it is a
    game under way (rejoined, resumed)."""
    return tuple(snap.pawns) == initial_pawns(snap.variant, [int(c) for c in snap.colours])


def table_news(news: TableNews) -> str:
    """Who hosts the table now, or was to, in this player's words (issue 19)."""
    template, name = table_news_template(news)
    return template.format(name=name)


def table_news_template(news: TableNews) -> tuple[str, str]:
    """:func:`table_news` as its translated template and the ``{name}`` it names (for
    a sentence that keeps the name as it is)."""
    name = news.name if news.name is not None else str(news.pid)
    if news.kind is TableNewsKind.HOST_CHANGED:
        if news.you:
            return _("your laptop hosts the table now"), name  # (LinkNews.YOU_HOST's words)
        return _("{name}'s laptop hosts the table now"), name  # (NEW_HOST's)
    if news.kind is TableNewsKind.HANDOVER:
        if news.mine:  # this laptop's table went on at another's (LinkNews.TABLE_MOVED's)
            return _("your table moved to {name}'s laptop; you play on as a player"), name
        if news.you:
            return _("The host hands the table to your laptop"), name
        return _("The host hands the table to {name}'s laptop"), name
    if news.claim is Claim.OLD_EPOCH:
        return _("{name} claimed the table with an old epoch: refused"), name
    return _("{name} claimed the table out of turn: refused"), name


def shown_name(player: PlayerInfo) -> str:
    """A player's name as this player reads it: a bot the table named (``greedy bot 2``)
    in this player's language (its strength is a label), any other name as it is."""
    made = made_name(player.name) if player.bot else None
    return player.name if made is None else words.bot_title(*made)


def roster_of(lobby: m.Lobby) -> dict[int, RosterEntry]:
    return {
        p.pid: RosterEntry(
            shown_name(p), None if p.colour is None else int(p.colour), p.bot, p.connected,
            p.ready,
        )
        for p in lobby.players
    }


def _seat(entry: RosterEntry) -> str:
    return "" if entry.colour is None else f" ({words.colour_name(entry.colour)})"


def roster_news(
    old: dict[int, RosterEntry], new: dict[int, RosterEntry], you: int | None, over: bool = False
) -> list[str]:
    """Lines saying how the roster changed from ``old`` to ``new`` (``you``: your pid;
    ``over``: after a game, when ``ready`` means "wants a rematch")."""
    lines: list[str] = []
    for pid, now in new.items():
        if pid == you:
            continue
        before = old.get(pid)
        who = now.name + _seat(now)
        if before is None:
            name = now.name + (" " + pgettext("seat", "[bot]") if now.bot else "")
            lines.append(_("{player} joined").format(player=name + _seat(now)))
            continue
        if now.bot and not before.bot:
            lines.append(_("a bot now plays for {player}").format(player=before.name + _seat(now)))
        elif before.connected and not now.connected:
            lines.append(_("{player} lost the connection; the seat is held").format(player=who))
        elif now.connected and not before.connected:
            lines.append(_("{player} is back").format(player=who))
        if over and now.ready and not before.ready and not now.bot:
            lines.append(_("{player} asks for a rematch (r: you too)").format(player=who))
        if now.colour != before.colour and now.colour is not None:
            lines.append(
                _("{name} now plays {colour}").format(
                    name=now.name, colour=words.colour_name(now.colour)
                )
            )
    for pid, before in old.items():
        if pid not in new and pid != you:
            lines.append(_("{player} left the table").format(player=before.name + _seat(before)))
    return lines


def since_text(news: Sequence[str], more: int = 0) -> str:
    """The turn summary as one sentence: each of ``news`` whole, joined as the language
    joins clauses; ``more`` events left out (no room) are counted at its end."""
    clauses = list(news)
    if more:
        left = ngettext("{n} more in the log (L)", "{n} more in the log (L)", more)
        clauses.append(left.format(n=more))
    return _("Since your last move: {news}.").format(news=words.join_clauses(clauses))


def mover_is_away(st: UiState, colour: int) -> str | None:
    """The name of the person whose seat ``colour`` is, if they are away (a bot moves)."""
    for entry in st.roster.values():
        if entry.colour == colour and not entry.bot and not entry.connected:
            return entry.name
    return None


_COLOURS = {c.label: int(c) for c in Colour}
_PAWN_COLOURS = {c.label[0].upper(): int(c) for c in Colour}


def record_stats(record: Mapping[str, Any]) -> dict[int, Counter[str]]:
    """The game's statistics counted from its record (``client.figures``, the count
    every reader shows): per colour the turns (moves, discards and lost turns),
    Sorry!s played, slides taken, and others' pawns sent back.  A record whose turns
    cannot be read raises ``KeyError``, ``TypeError`` or ``ValueError``."""
    return count(record["turns"]).counters()


def events_news(st: UiState, colour: int | None, events: Sequence[tuple[int, ...]]) -> None:
    """Note, for the turn summary, what ``events`` (played by ``colour``) did to your
    pawns (the game's figures are the model's history's: ``client.figures``)."""
    card = 0
    for ev in events:
        kind = ev[0]
        if kind == EventKind.PLAY:
            card = ev[2]
        if colour is None or colour == st.you or st.you is None:
            continue
        who = st.player_name(colour)
        if kind == EventKind.BUMP and ev[1] >> 2 == st.you:
            label = pawn_label(ev[1])
            if card == 13:
                text = opening(_("{player} played {sorry} on your {pawn}"),
                               player=who, sorry=words.sorry_word(), pawn=label)
            else:
                text = opening(_("{player} sent your {pawn} back to {start}"),
                               player=who, pawn=label, start=words.start_word())
            st.since_last.append(text)
        elif kind == EventKind.MOVE and ev[1] >> 2 == st.you and ev[3] != START:
            text = opening(_("{player} swapped with your {pawn}"), player=who,
                           pawn=pawn_label(ev[1]))
            st.since_last.append(text)

