"""``sorry-lan games``: the games saved on this machine, for people or (``--json``) scripts.

Lists every journal in the data directory, newest first, then the games this machine
kept from other hosts' tables (``played/``: the records they sent, ``net/kept``), marked
``kept``, a game this machine also hosted counted once: its id (what ``sorry-lan host
--resume ID`` takes), the table's name, and each game the table played, a rematch on
its own row (its number, what ``--export ID --game N`` takes): variant, players (with
their points, playing for points), the winner or winning team, moves, when it started,
how long it took and when it last moved, and the journal's state (unfinished, finished
or damaged, with what is wrong; a game a running host holds is marked so).  Columns
are aligned by the cells text takes on a terminal, not by its characters.  Exits 0,
also when there is none.

``--export ID`` writes the record of one saved game instead (``protocol/RECORD.md``:
JSON, or with ``--format text`` a turn a line; ``--game N`` picks a table's earlier
game, ``--chat`` keeps what was said, ``-o FILE`` writes a file); building the record
is ``sorry_lan.records``.

``--stats`` shows the family's scoreboard instead (``sorry_lan.net.scoreboard``): per
player name, games played and won, by variant and by player count, and the current
and longest winning streaks, people first and bots apart (``--json``: an object with
``people`` and ``bots``).

It resumes nothing and changes no journal; reading journals is ``sorry_lan.net.saved``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from sorry_lan.codes import RecordFailure
from sorry_lan.i18n import _, npgettext, pgettext
from sorry_lan.i18n.coded import say
from sorry_lan.i18n.recordwords import record_lines
from sorry_lan.i18n.words import variant_title
from sorry_lan.net.journal import default_dir
from sorry_lan.net.kept import listed_games, record_of
from sorry_lan.net.saved import (
    DAMAGED,
    FINISHED,
    MOVED,
    UNFINISHED,
    NotChosen,
    PlayedGame,
    SavedGame,
    find,
)
from sorry_lan.net.scoreboard import PlayerScore, Tally, scoreboard
from sorry_lan.records import RecordError, dump
from sorry_lan.tui.cells import room


def journal_dir(args: argparse.Namespace) -> Path:
    return args.data_dir / "journals" if args.data_dir else default_dir()


def when(t: float | None) -> str:
    """A time of day as the listing shows it (local time, to the minute), or a dash."""
    return "-" if t is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def _took(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    minutes = round(seconds / 60)
    if minutes < 60:
        return _("{minutes} min").format(minutes=minutes)
    return _("{hours} h {minutes} min").format(hours=minutes // 60, minutes=minutes % 60)


def _players(game: PlayedGame) -> str:
    if game.points:
        return ", ".join(
            pgettext("points", "{name} {points}").format(name=n, points=game.points.get(n, 0))
            for n in game.players
        )
    return ", ".join(game.players) or "-"


def winner_words(game: PlayedGame) -> str:
    """Who won ``game`` (a team: both names), or a dash."""
    if not game.winners:
        return "-"
    if len(game.winners) == 2:
        one, other = game.winners
        return pgettext("team", "{one} & {other}").format(one=one, other=other)
    return ", ".join(game.winners)


def aligned(rows: list[list[str]]) -> list[str]:
    """``rows`` as lines, each column padded to the widest cell's width on a terminal
    (a Thai or Hindi name takes fewer cells than characters, a CJK name more)."""
    widths = [max(room(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(c + " " * (w - room(c)) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in rows
    ]


def state_words(state: str) -> str:
    """A saved game's state (``unfinished``, ``finished``, ``damaged``) for people."""
    return {
        UNFINISHED: pgettext("saved game", "unfinished"),
        FINISHED: pgettext("saved game", "finished"),
        MOVED: pgettext("saved game", "moved"),
        DAMAGED: pgettext("saved game", "damaged"),
    }.get(state, state)


def table_lines(games: list[SavedGame]) -> list[str]:
    """The games as aligned text lines (a header first), a row per game a table
    played (a rematch on its own row, newest first).  (``host --resume`` lists the
    games to choose from in blocks that fit 80 columns: ``commands.resume_choice``.)"""
    head = [
        pgettext("column", "ID"),
        pgettext("column", "STATE"),
        pgettext("column", "TABLE"),
        pgettext("column", "GAME"),
        pgettext("column", "VARIANT"),
        pgettext("column", "PLAYERS"),
        pgettext("column", "WINNER"),
        pgettext("column", "MOVES"),
        pgettext("column", "STARTED"),
        pgettext("column", "TOOK"),
        pgettext("column", "LAST MOVE"),
    ]
    rows = [head]
    owners: list[SavedGame] = []
    for g in games:
        state = pgettext("saved game", "kept") if g.kept else state_words(g.state)
        if g.running:
            state = _("{state} (running)").format(state=state)
        if g.over and g.state != DAMAGED and not g.kept:
            state = _("{state} (game over)").format(state=state)
        played: list[PlayedGame | None] = [*g.games] or [None]
        for p in reversed(played):
            last = p is None or p is g.games[-1]
            rows.append(
                [
                    g.id,
                    state if last else state_words(FINISHED),
                    g.table or g.host or "-",
                    "-" if p is None else str(p.number),
                    variant_title(p.variant if p else g.variant) if g.variant else "-",
                    (", ".join(g.players) or "-") if p is None else _players(p),
                    "-" if p is None else winner_words(p),
                    str(g.moves if p is None else p.moves),
                    when(g.started if p is None else p.started),
                    "-" if p is None else _took(p.seconds),
                    when(g.last_move) if last else when(p.ended if p else None),
                ]
            )
            owners.append(g)
    lines = aligned(rows)
    out = [lines[0]]
    for i, (g, line) in enumerate(zip(owners, lines[1:], strict=True)):
        out.append(line)
        if g.problem and (i + 1 == len(owners) or owners[i + 1] is not g):
            out.append("    " + _("damaged at {problem}").format(problem=g.problem))
    return out


def _tally(what: str, tally: Tally) -> str:
    return _("{what}: won {won} of {played}").format(
        what=what, won=tally.won, played=tally.played
    )


def stats_lines(scores: list[PlayerScore]) -> list[str]:
    """The scoreboard as aligned lines: a row a name (people, then a heading and the
    bots), each followed by its games by variant and by player count."""
    head = [
        pgettext("column", "PLAYER"),
        pgettext("column", "PLAYED"),
        pgettext("column", "WON"),
        pgettext("column", "STREAK"),
        pgettext("column", "LONGEST"),
    ]
    rows = [head] + [
        [s.name, str(s.games.played), str(s.games.won), str(s.streak), str(s.longest)]
        for s in scores
    ]
    lines = aligned(rows)
    out = [lines[0]]
    for i, (score, line) in enumerate(zip(scores, lines[1:], strict=True)):
        if score.bot and (i == 0 or not scores[i - 1].bot):
            out.append(pgettext("scoreboard", "Bots"))
        out.append(line)
        parts = [_tally(variant_title(v), t) for v, t in sorted(score.by_variant.items())]
        parts += [
            _tally(npgettext("scoreboard", "{n} player", "{n} players", n).format(n=n), t)
            for n, t in sorted(score.by_seats.items())
        ]
        out.append("    " + "; ".join(parts))
    return out


def _stats(args: argparse.Namespace, games: list[SavedGame]) -> int:
    scores = scoreboard(games)
    if args.json:
        people = [s.as_json() for s in scores if not s.bot]
        bots = [s.as_json() for s in scores if s.bot]
        print(json.dumps({"people": people, "bots": bots}, indent=2, ensure_ascii=False))
    elif not scores:
        print(_("no finished games in {directory}").format(directory=journal_dir(args)))
    else:
        print("\n".join(stats_lines(scores)))
    return 0


def export(game: SavedGame, number: int | None, chat: bool) -> dict[str, object]:
    """The record of game ``number`` (None: the last) of a saved table, or of a kept
    game (``net/kept.record_of``)."""
    return record_of(game, number, chat)


def _export(args: argparse.Namespace, games: list[SavedGame]) -> int:
    try:
        record = export(find(games, args.export), args.game, args.chat)
    except (NotChosen, RecordError) as exc:
        print(f"sorry-lan games: {say(exc)}", file=sys.stderr)
        return 1
    if args.format == "text":
        data = ("\n".join(record_lines(record)) + "\n").encode()
    else:
        data = dump(record)
    if args.output is None:
        sys.stdout.write(data.decode())
        return 0
    try:
        args.output.write_bytes(data)
    except OSError as exc:
        why = RecordFailure.CANNOT_WRITE(path=args.output, why=exc.strerror or exc)
        print(f"sorry-lan games: {say(why)}", file=sys.stderr)
        return 1
    return 0


def run(args: argparse.Namespace) -> int:
    directory = journal_dir(args)
    games, notes = listed_games(directory)
    for note in notes:
        print(f"sorry-lan games: {say(note)}", file=sys.stderr)
    if args.export is not None:
        return _export(args, games)
    if args.stats:
        return _stats(args, games)
    if args.json:
        print(json.dumps([g.as_json() for g in games], indent=2))
        return 0
    if not games:
        print(_("no saved games in {directory}").format(directory=directory))
        return 0
    for line in table_lines(games):
        print(line)
    if any(g.kept for g in games):
        print(_("kept: a game played or watched at another machine's table, as its host sent it"))
    return 0
