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
