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

from collections.abc import Sequence

from sorry_lan.rules.board import START, pawn_label
from sorry_lan.wire import messages as m
from sorry_lan.wire.records import EventKind

from .state import COLOUR_TITLES, RosterEntry, UiState

STAT_NAMES = (("home", "home"), ("bumps", "bumps"), ("sorry", "Sorry!"), ("slides", "slides"))


def roster_of(lobby: m.Lobby) -> dict[int, RosterEntry]:
    return {
        p.pid: RosterEntry(
            p.name, None if p.colour is None else int(p.colour), p.bot, p.connected, p.ready
        )
        for p in lobby.players
    }


def _seat(entry: RosterEntry) -> str:
    return "" if entry.colour is None else f" ({COLOUR_TITLES[entry.colour]})"


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
        if before is None:
            lines.append(f"{now.name}{' [bot]' if now.bot else ''} joined{_seat(now)}")
            continue
        if now.bot and not before.bot:
            lines.append(f"a bot now plays for {before.name}{_seat(now)}")
        elif before.connected and not now.connected:
            lines.append(f"{now.name}{_seat(now)} lost the connection; the seat is held")
        elif now.connected and not before.connected:
            lines.append(f"{now.name}{_seat(now)} is back")
        if over and now.ready and not before.ready and not now.bot:
            lines.append(f"{now.name}{_seat(now)} asks for a rematch (r: you too)")
        if now.colour != before.colour and now.colour is not None:
            lines.append(f"{now.name} now plays {COLOUR_TITLES[now.colour]}")
    for pid, before in old.items():
        if pid not in new and pid != you:
            lines.append(f"{before.name}{_seat(before)} left the table")
    return lines


def mover_is_away(st: UiState, colour: int) -> str | None:
    """The name of the person whose seat ``colour`` is, if they are away (a bot moves)."""
    for entry in st.roster.values():
        if entry.colour == colour and not entry.bot and not entry.connected:
            return entry.name
    return None


def events_news(st: UiState, colour: int | None, events: Sequence[tuple[int, ...]]) -> None:
    """Count ``events`` (played by ``colour``) into the game's statistics and note, for
    the turn summary, what they did to your pawns."""
    card = 0
    for ev in events:
        kind = ev[0]
        if kind in (EventKind.PLAY, EventKind.TURN_LOST, EventKind.DISCARD):
            st.stats[ev[1]]["turns"] += 1
            if kind == EventKind.PLAY:
                card = ev[2]
                if card == 13:
                    st.stats[ev[1]]["sorry"] += 1
        elif kind == EventKind.SLIDE:
            st.stats[ev[1] >> 2]["slides"] += 1
        elif kind == EventKind.BUMP and colour is not None and ev[1] >> 2 != colour:
            st.stats[colour]["bumps"] += 1
        if colour is None or colour == st.you or st.you is None:
            continue
        who = st.player_name(colour)
        if kind == EventKind.BUMP and ev[1] >> 2 == st.you:
            label = pawn_label(ev[1])
            if card == 13:
                st.since_last.append(f"{who} played Sorry! on your {label}")
            else:
                st.since_last.append(f"{who} sent your {label} back to START")
        elif kind == EventKind.MOVE and ev[1] >> 2 == st.you and ev[3] != START:
            st.since_last.append(f"{who} swapped with your {pawn_label(ev[1])}")

