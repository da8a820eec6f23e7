"""The family's scoreboard: per player name, across this machine's saved games.

:func:`scoreboard` goes through every finished game the journals hold (a rematch is a
game of its own) and the games kept from other hosts' tables, oldest first, and counts
for each name the games played and won, by variant and by how many played, and the
winning streaks: the current one (the wins since that name last lost) and the longest.
A team's win is a win for both partners.  Names are told apart without regard to case
(the latest spelling is shown); a name a bot played under is counted apart from a
person's, and bots are listed after people.

It reads no file but for when a kept game was filed (``net.saved`` describes the
journals, ``net.kept`` the games kept from other hosts) and words nothing for people
(``commands.games`` does, and lists the games in the order :func:`in_order` gives).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .saved import PlayedGame, SavedGame, journal_order


@dataclass
class Tally:
    """Games played and won."""

    played: int = 0
    won: int = 0

    def count(self, won: bool) -> None:
        self.played += 1
        self.won += int(won)

    def as_json(self) -> dict[str, int]:
        return {"played": self.played, "won": self.won}


@dataclass
class PlayerScore:
    """One name's games: all of them, by variant, by player count, and its streaks."""

    name: str
    bot: bool
    games: Tally = field(default_factory=Tally)
    by_variant: dict[str, Tally] = field(default_factory=dict)
    by_seats: dict[int, Tally] = field(default_factory=dict)
    streak: int = 0  # wins in a row up to this name's latest game
    longest: int = 0  # the most wins in a row

    def count(self, game: PlayedGame, won: bool) -> None:
        self.games.count(won)
        self.by_variant.setdefault(game.variant, Tally()).count(won)
        self.by_seats.setdefault(len(game.players), Tally()).count(won)
        self.streak = self.streak + 1 if won else 0
        self.longest = max(self.longest, self.streak)

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "bot": self.bot,
            "played": self.games.played,
            "won": self.games.won,
            "streak": self.streak,
            "longest_streak": self.longest,
            "by_variant": {v: t.as_json() for v, t in sorted(self.by_variant.items())},
            "by_players": {str(n): t.as_json() for n, t in sorted(self.by_seats.items())},
        }


def _span(game: SavedGame, played: PlayedGame | None) -> tuple[float, float] | None:
    """When a game started and ended (an end not known: after every known one), or
    None if its start is not known."""
    started = played.started if played is not None else game.started
    if started is None:
        return None
    ended = played.ended if played is not None else None
    return started, math.inf if ended is None else ended


def _filed(game: SavedGame) -> int:
    """When a kept game's file was written (at that game's end, as this machine heard
    of it), in nanoseconds; 0 if that cannot be read."""
    try:
        return game.path.stat().st_mtime_ns
    except OSError:
        return 0


def in_order(saved: list[SavedGame]) -> list[tuple[SavedGame, PlayedGame | None]]:
    """Every game of ``saved`` in the order it was played, oldest first, with the
    saved game it belongs to (a journal that holds no game it can tell: once, with
    None).  The journals' games go by journal (its sequence number, never a clock),
    then by number; each kept game (``net/kept``) goes in before the first game that
    started after it, or started in the same second and ended after it.  Kept games
    that started and ended in the same second go in the order this machine filed
    them, then by name: never by the second alone, so a streak counts them in the
    order they were played."""
    journals = sorted((g for g in saved if not g.kept), key=lambda g: journal_order(g.id))
    out: list[tuple[SavedGame, PlayedGame | None]] = []
    for journal in journals:
        games = sorted(journal.games, key=lambda p: p.number)
        out += [(journal, p) for p in games] if games else [(journal, None)]
    kept = [(g, p) for g in saved if g.kept for p in g.games]
    spans = {id(p): _span(g, p) for g, p in kept}

    def kept_order(entry: tuple[SavedGame, PlayedGame]) -> tuple[float, float, int, str]:
        span = spans[id(entry[1])] or (-math.inf, math.inf)
        return (*span, _filed(entry[0]), entry[0].id)

    for game, played in sorted(kept, key=kept_order):
        span = spans[id(played)]
        at = len(out)
        if span is not None:
            for i, (g, p) in enumerate(out):
                other = _span(g, p)
                if other is not None and other > span:
                    at = i
                    break
        out.insert(at, (game, played))
    return out


def finished_games(saved: list[SavedGame]) -> list[PlayedGame]:
    """Every finished game of ``saved``, oldest first, as :func:`in_order` puts them."""
    return [p for _g, p in in_order(saved) if p is not None and p.over]


def scoreboard(saved: list[SavedGame]) -> list[PlayerScore]:
    """Each name's score across ``saved``: people first, then bots; most wins first."""
    scores: dict[tuple[str, bool], PlayerScore] = {}
    for game in finished_games(saved):
        bots = set(game.bots)
        winners = set(game.winners)
        for name in dict.fromkeys(game.players):  # a name seated twice counts once
            bot = name in bots
            score = scores.setdefault((name.casefold(), bot), PlayerScore(name, bot))
            score.name = name
            score.count(game, name in winners)
    return sorted(
        scores.values(),
        key=lambda s: (s.bot, -s.games.won, -s.games.played, s.name.casefold()),
    )


#: How many of a player's latest games the lobby's "won 3 of the last 5" counts.
RECENT = 5


def recent_form(saved: list[SavedGame], last: int = RECENT) -> dict[str, tuple[int, int]]:
    """Per person's name (casefolded; bots are left out): how many of their ``last``
    latest finished games they won, and how many those are (fewer if they played
    fewer): what the lobby says of the people at the table."""
    results: dict[str, list[bool]] = {}
    for game in finished_games(saved):
        bots = set(game.bots)
        winners = set(game.winners)
        for name in dict.fromkeys(game.players):
            if name not in bots:
                results.setdefault(name.casefold(), []).append(name in winners)
    return {name: (sum(won[-last:]), len(won[-last:])) for name, won in results.items()}
