"""``sorry-lan host --resume`` of a successor's journal (one that begins with the
takeover record): the table is hosted again at the table's id and the epoch the
successor hosted, from its seat, its own player's seat its person's, and the game
waits paused for the other laptops (before: epoch 1 under the journal file's id,
which the table's laptops refuse)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "succession"))
from test_resume_successor import successor
from test_takeover_in_memory import TID, play

from sorry_lan import DEFAULT_PORT
from sorry_lan.authority.restore import taken_over
from sorry_lan.commands import host
from sorry_lan.commands.options import host as host_options
from sorry_lan.net.hosted import table_id
from sorry_lan.net.journal import Journal


@pytest.mark.asyncio
async def test_a_successor_s_journal_resumes_at_its_table_s_id_and_epoch(
    tmp_path: Path,
) -> None:
    _lan, new, laptops, head = successor()
    play(new, laptops, moves=5)
    path = tmp_path / "journals" / "20260101-000000-1-2.journal"
    journal = Journal(path)
    for record in [head, *new.journal]:
        journal.append(record)
    journal.close()
    parser = argparse.ArgumentParser()
    host_options.add_arguments(parser)
    args = parser.parse_args(["--bind", "127.0.0.1", "--port", "0", "--resume", path.stem])
    hosted = host._hosted(args, path)
    async with hosted:
        core = hosted.server.core
        assert hosted.table_id == TID != table_id(path)
        assert core.options.table_id == TID and core.epoch == 2
        ann = laptops[0].pid
        assert hosted.options.seat == ann and hosted.table.owner == ann
        assert hosted.owner_token is not None
        assert hosted.table.players[ann].name == "ann"
        assert core.paused  # (Bob and Cat are not back yet)
        game, was = hosted.table.game, new.table.game
        assert game is not None and was is not None and game.state_id == was.state_id
    assert hosted.saved_as == path.stem  # still unfinished: resumed again if need be


def test_a_resumed_successor_listens_where_it_hosted_unless_told_otherwise() -> None:
    """The table's other laptops look for a successor on its standby's port (their
    seat files and elections keep it; an advert on another port is a copy): its
    takeover record keeps that port, and ``host --resume`` listens there again,
    where it used to take the default port and was never found."""
    _lan, _new, laptops, head = successor()
    ann = laptops[0]
    assert head["port"] == ann.port
    taken = taken_over([head])
    assert taken is not None and taken.port == ann.port
    parser = argparse.ArgumentParser()
    host_options.add_arguments(parser)
    assert parser.parse_args([]).port is None
    assert host._port(None, taken) == ann.port
    assert host._port(0, taken) == 0  # (asked for: any free port)
    assert host._port(None, None) == DEFAULT_PORT
    assert host._port(None, replace(taken, port=None)) == DEFAULT_PORT  # an older journal
