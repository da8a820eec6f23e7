"""TableReport: a headless table's terminal hears who joined, dropped and left."""

from __future__ import annotations

import pytest

from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.commands.table_report import TableReport


def test_the_table_report_tells_joins_drops_and_leaves(capsys: pytest.CaptureFixture[str]) -> None:
    table = Table(TableConfig(seats=2))
    table.join(1, "ann")
    report = TableReport(table)
    table.add_bot(None)
    report.changed()
    table.disconnect(1, 0.0)  # the connection dropped: the seat is held
    report.changed()
    table.disconnect(1, 0.0, quit=True)
    table.tick(1000.0)  # the grace period is over: the seat is freed
    report.changed()
    assert capsys.readouterr().out.splitlines() == [
        "ann (Red) joined",
        "greedy bot 1 [bot] (Blue) joined",
        "ann (Red) lost the connection; the seat is held",
        "ann (Red) left",
    ]


def test_a_program_that_says_bye_after_its_game_left(capsys: pytest.CaptureFixture[str]) -> None:
    """``sorry-lan bot --games 1`` says bye once its game is over: it left the table (it
    did not lose the connection), and the others' rematch opens the next game's lobby."""
    table = Table(TableConfig(seats=3, auto_start=True, seed=2))
    table.join(1, "ann")
    table.join(2, "niran")
    table.add_bot(None)
    table.start(None, 0.0)
    game = table.game
    assert game is not None
    while not game.over:
        table._apply(table.bot_move(), 0.0)
    report = TableReport(table)
    capsys.readouterr()
    table.disconnect(2, 1.0, quit=True)  # niran's bye
    report.changed()
    table.ask_rematch(1, 2.0)  # ann, the only person left, wants another game
    report.changed()
    assert capsys.readouterr().out.splitlines() == [
        "niran (Blue) left",
        "the next game's lobby is open, with the same seats",
    ]
