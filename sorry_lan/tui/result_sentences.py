"""The end of a game in sentences: the standings, the points, each player's figures.

Pure: each function words what it is given (names by colour through ``name``); it
keeps nothing and reads no event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sorry_lan.client.figures import Figures
from sorry_lan.i18n import _, ngettext, pgettext, words
from sorry_lan.rules.standings import standings
from sorry_lan.rules.variants import Variant

from .sentences import play_counts, sentence, spoken_sorry

#: A game's figures, as ``play_counts`` takes them.
COUNTED = ("bumps", "sorry", "slides", "turns")


def standings_lines(
    variant: Variant,
    pos: Sequence[int],
    seated: Sequence[int],
    winners: list[int],
    scores: Sequence[int],
    name: Callable[[int], str],
) -> list[str]:
    """Every side in its place at the end (``rules.standings``), with its pawns HOME,
    or its points in play for points (``scores``: the game-over message's, if any)."""
    if not seated or not pos:
        return []
    rules = variant.rules
    won = winners[0] if winners else None
    items = []
    for side in standings(rules, pos, seated, won):
        names = words.join_names([name(c) for c in side.colours])
        if rules.scores_points:
            got = [scores[c] for c in side.colours if c < len(scores)]
            n = sum(got) if got else side.score
            score = ngettext("{n} point", "{n} points", n).format(n=n)
        else:
            n = side.score
            score = ngettext("{n} pawn home", "{n} pawns home", n).format(n=n)
        # i18n: a side's place at the end of a game: "place 2: Bob, 3 pawns home"
        text = _("place {place}: {names}, {score}")
        items.append(text.format(place=side.place, names=names, score=score))
    return [sentence(_("The standings: {places}"), places=words.join_clauses(items))]


def points_lines(
    variant: Variant, seated: Sequence[int], scores: Sequence[int], name: Callable[[int], str]
) -> list[str]:
    """Each player's points so far, one sentence (none unless the game counts points)."""
    if not (variant.rules.scores_points and scores):
        return []
    each = [
        ngettext("{name} has {n} point", "{name} has {n} points", scores[c]).format(
            name=name(c), n=scores[c]
        )
        for c in seated
        if c < len(scores)
    ]
    return [sentence(_("Points: {scores}"), scores=words.join_names(each))]


def figures_lines(
    figures: Figures, seated: Sequence[int], whole: bool, name: Callable[[int], str]
) -> list[str]:
    """Each player's game in numbers (bumps, Sorry!s, slides, turns), as the board's
    game-over screen shows them; and, unless the figures count the ``whole`` game, that
    they count it only from when this client came in."""
    if not seated or figures.turns == 0:
        return []
    lines = [
        sentence(
            # i18n: {play} is a player's game in numbers ("2 bumps, 1 Sorry!, 3
            # slides in 20 turns"), said at the end of a game
            pgettext("figures", "{player}: {play}"),
            player=name(c),
            play=play_counts(*(figures.of(c, f) for f in COUNTED), sorry_name=spoken_sorry()),
        )
        for c in seated
    ]
    if not whole:
        lines.append(sentence(_("These figures count the play since you joined")))
    return lines
