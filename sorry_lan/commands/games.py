"""``sorry-lan games``: the games saved on this machine, for people or (``--json``) scripts.

Lists the games of every journal in the data directory and the games this machine
kept from other hosts' tables (``played/``: the records they sent, ``net/kept``), a
game this machine also hosted counted once, in lines that fit 80 columns (the
terminal's width if narrower) in every language: a row a game (a rematch on its own
row), the newest first, in the order the scoreboard counts them: when it started,
where it was hosted ("here", or the host that sent it), who played (with their
points, playing for points), who won (or the journal's state: unfinished, moved or
damaged, with what is wrong; running if a host holds it now) and how long it took.
Columns are aligned by the cells text takes on a terminal, not by its characters; a
column too wide gives up cells and its text ends in an ellipsis, the headers never.
``--ids`` puts under each row the id ``replay``, ``--export`` and ``host --resume``
take.  ``--json`` gives every journal and kept game whole (its id, table, variant,
moves, last move, state and its games).  Exits 0, also when there is none.

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
import shutil
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
from sorry_lan.net.scoreboard import PlayerScore, Tally, in_order, scoreboard
from sorry_lan.records import RecordError, dump
from sorry_lan.tui import textfit
from sorry_lan.tui.cells import clip, room

#: The most cells a line of the listing takes: a terminal of 80 columns shows it whole.
COLS = 80


def columns() -> int:
    """The room for a line on this terminal: its width, at most :data:`COLS`."""
    return max(40, min(COLS, shutil.get_terminal_size((COLS, 24)).columns))


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
    """Who played ``game``, people before bots (a cut line loses bots first), each
    with their points when playing for points."""
    bots = set(game.bots)
    names = sorted(game.players, key=lambda n: n in bots)
    if game.points:
        return ", ".join(
            pgettext("points", "{name} {points}").format(name=n, points=game.points.get(n, 0))
            for n in names
        )
    return ", ".join(names) or "-"


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


def where(game: SavedGame) -> str:
    """Where ``game`` was hosted: "here" for this machine's journals, else the name of
    the host that sent it (or its table's), or a dash."""
    if not game.kept:
        return pgettext("hosted", "here")
    return game.host or game.table or "-"


def _outcome(game: SavedGame, played: PlayedGame | None) -> str:
    """Who won ``played``, or, while nobody has, what became of its table."""
    if played is not None and played.over:
        return winner_words(played)
    if game.kept:
        return "-"
    state = state_words(game.state)
    return _("{state} (running)").format(state=state) if game.running else state


def _row(game: SavedGame, played: PlayedGame | None) -> list[str]:
    started = played.started if played is not None else None
    return [
        when(game.started if started is None else started),
        where(game),
        (", ".join(game.players) or "-") if played is None else _players(played),
        _outcome(game, played),
        "-" if played is None else _took(played.seconds),
    ]


def fitted(rows: list[list[str]], cols: int, give: dict[int, int]) -> list[str]:
    """``rows`` (a header first) as aligned lines of at most ``cols`` cells.  While they
    are too wide, a column of ``give`` wider than the cells it keeps there (0: it
    gives none yet) gives up one, the widest first; then, while still too wide, the
    widest of them all does, down to its header or 8 cells.  Cells cut end in an
    ellipsis; the header is never cut; the last column is not padded."""
    n = len(rows[0])
    widths = [max(room(r[i]) for r in rows) for i in range(n)]
    floors = {i: max(room(rows[0][i]), 8) for i in give}
    for least in ({i: max(floors[i], w) for i, w in give.items() if w}, floors):
        while sum(widths) + 2 * (n - 1) > cols:
            over = [i for i in least if widths[i] > least[i]]
            if not over:
                break
            widths[max(over, key=lambda i: widths[i])] -= 1
    out = []
    for r in rows:
        cut = [clip(c, w) for c, w in zip(r, widths, strict=True)]
        padded = [c + " " * (w - room(c)) for c, w in zip(cut[:-1], widths[:-1], strict=True)]
        out.append("  ".join([*padded, cut[-1]]).rstrip())
    return out


#: The listing's columns that give up cells when a line is too wide, and how many
#: each keeps while the others give: the host's name and the winner before the players.
_GIVE = {1: 12, 3: 16, 2: 0}


def table_lines(games: list[SavedGame], cols: int = COLS, ids: bool = False) -> list[str]:
    """The games as lines of at most ``cols`` cells, a header first, then a row a game
    (a rematch is a game of its own), the newest first, in the order the scoreboard
    counts them (``net.scoreboard.in_order``): when it started, where it was hosted,
    who played, who won (or, unfinished, what became of it) and how long it took.
    A damaged journal's newest row is followed by what is damaged; with ``ids``, each
    row by the id that ``replay``, ``--export`` and ``host --resume`` take (with
    ``--game N`` for a table's earlier game).  (``host --resume`` lists the games to
    choose from in blocks: ``commands.resume_choice``.)"""
    head = [
        pgettext("column", "STARTED"),
        pgettext("column", "HOST"),
        pgettext("column", "PLAYERS"),
        pgettext("column", "WINNER"),
        pgettext("column", "TOOK"),
    ]
    entries = list(reversed(in_order(games)))
    lines = fitted([head, *(_row(g, p) for g, p in entries)], cols, give=_GIVE)
    out = [lines[0]]
    for (game, played), line in zip(entries, lines[1:], strict=True):
        out.append(line)
        newest = played is None or played is game.games[-1]
        if ids:
            more = "" if newest or played is None else f" --game {played.number}"
            out.append(f"    {game.id}{more}")
        if newest and game.problem:
            note = _("damaged at {problem}").format(problem=game.problem)
            out += textfit.wrap(note, cols, first="    ", rest="    ")
    return out


def _tally(what: str, tally: Tally) -> str:
    return _("{what}: won {won} of {played}").format(
        what=what, won=tally.won, played=tally.played
    )


def stats_lines(scores: list[PlayerScore], cols: int = COLS) -> list[str]:
    """The scoreboard as aligned lines: a row a name (people, then a heading and the
    bots), each followed by its games by variant and by player count (broken between
    words to fit ``cols`` cells)."""
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
        out += textfit.wrap("; ".join(parts), cols, first="    ", rest="    ")
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
        cols = columns() if sys.stdout.isatty() else COLS
        print("\n".join(stats_lines(scores, cols)))
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
    cols = columns() if sys.stdout.isatty() else COLS
    for line in table_lines(games, cols, ids=args.ids):
        print(line)
    return 0
