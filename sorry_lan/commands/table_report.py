"""What a table says on its host's terminal: who joined, dropped, came back or left, when
a game starts, a finished game's result in words, and the next game's lobby opening.

:class:`TableReport` compares the table's roster and phase with what it last saw and
prints the difference (``sorry-lan host --headless`` calls it after every change);
:func:`result_words` is the result line ("Red (Ann) won; pawns home: ...").  It reads
the table only: it changes nothing and sends nothing to anyone.
"""

from __future__ import annotations

from sorry_lan.authority.table import Table
from sorry_lan.i18n import _
from sorry_lan.i18n.words import colour_name, join_names, seat_label
from sorry_lan.rules.board import HOME
from sorry_lan.rules.game import Phase


class TableReport:
    """Prints, for a headless table's terminal, who joined, left, dropped or came back,
    when a game starts and how it ended (from the table's roster after each change)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.quiet = False
        self.seen: dict[int, tuple[str, int, bool, bool]] = {}
        self.phase = table.phase
        self._report()

    def changed(self) -> None:
        if not self.quiet:
            self._report()

    def _report(self) -> None:
        table = self.table
        now = {
            p.pid: (p.name, p.colour, p.bot, p.connected) for p in table.players.values()
        }
        for pid, (name, colour, bot, connected) in now.items():
            seat = (_("{name} [bot] ({colour})") if bot else _("{name} ({colour})")).format(
                name=name, colour=colour_name(colour)
            )
            before = self.seen.get(pid)
            if before is None:
                print(_("{seat} joined").format(seat=seat), flush=True)
            elif before[3] and not connected:
                print(_("{seat} lost the connection; the seat is held").format(seat=seat),
                      flush=True)
            elif connected and not before[3]:
                print(_("{seat} is back").format(seat=seat), flush=True)
        for pid, (name, colour, _bot, _c) in self.seen.items():
            if pid not in now:
                seat = _("{name} ({colour})").format(name=name, colour=colour_name(colour))
                print(_("{seat} left").format(seat=seat), flush=True)
        self.seen = now
        if table.phase is not self.phase:
            self.phase = table.phase
            if table.phase is Phase.PLAYING:
                players = ", ".join(
                    seat_label(p.colour, p.name)
                    for p in sorted(table.players.values(), key=lambda p: p.colour)
                )
                print(_("the game starts: {players}").format(players=players), flush=True)
            elif table.phase is Phase.FINISHED and table.game is not None:
                print(_("result: {result}").format(result=result_words(table)), flush=True)
            elif table.phase is Phase.LOBBY and table.games_played:
                print(_("the next game's lobby is open, with the same seats"), flush=True)


def result_words(table: Table) -> str:
    """The end of the game in words: who won, and each player's pawns home or points."""
    game = table.game
    assert game is not None

    def who(colour: int) -> str:
        player = table.by_colour(colour)
        return seat_label(colour, table.played_by.get(colour) or (player.name if player else None))

    won = join_names([who(c) for c in game.winners]) or _("nobody")
    if game.rules.scores_points:
        each = ", ".join(f"{who(c)} {s}" for c, s in sorted(game.final_scores.items()))
        return _("{won} won; points: {each}").format(won=won, each=each)
    home = ", ".join(
        f"{who(c)} {sum(1 for p in game.pawns[c * 4 : c * 4 + 4] if p == HOME)}"
        for c in sorted(game.seated)
    )
    return _("{won} won; pawns home: {home}").format(won=won, home=home)
