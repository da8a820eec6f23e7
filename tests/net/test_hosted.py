"""A hosted table's lifetimes on loopback: what opens, what a stop leaves, the order of shutdown.

No mDNS: the advert is a fake that records what it hears and when it is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
from pathlib import Path
from typing import Any

import pytest
from netkit import LOCAL, free_port
from test_journal import FullDisk

from sorry_lan.authority.restore import replay
from sorry_lan.authority.table import Table, TableConfig
from sorry_lan.codes import HostFailure
from sorry_lan.net.host import HostError, HostOptions, HostServer, TableSummary
from sorry_lan.net.hosted import (
    HostedTable,
    TableNames,
    bot_delay,
    bot_room,
    table_id,
    table_names,
    table_seats,
)
from sorry_lan.net.journal import Journal, JournalLocked, load
from sorry_lan.net.saved import FINISHED, saved_games
from sorry_lan.rules import Game, Phase, Variant


class FakeAdvert:
    """An advert that records the summaries it is told and what it sees when closed."""

    def __init__(self, log: list[str], hosted: HostedTable) -> None:
        self.log = log
        self.hosted = hosted
        self.updates: list[TableSummary] = []

    def update(self, summary: TableSummary) -> None:
        self.updates.append(summary)

    async def close(self) -> None:
        self.log.append(f"advert closes; listening: {await _answers(self.hosted.address[1])}")


async def _answers(port: int) -> bool:
    """Whether the table's port still takes a connection."""
    try:
        _reader, writer = await asyncio.open_connection(LOCAL, port)
    except OSError:
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True


def _watch_server_close(hosted: HostedTable, log: list[str]) -> None:
    """Note in ``log`` what the journal holds when the server starts and ends closing."""
    server = hosted.server
    journal = server.journal
    assert journal is not None
    real = server.close

    async def close(*args: Any, **kwargs: Any) -> None:
        log.append(f"server closes; records: {journal.appended}")
        await real(*args, **kwargs)
        log.append(f"server closed; journal closed: {journal.closed}")

    server.close = close  # type: ignore[method-assign]


def headless(
    tmp_path: Path, seats: int = 2, bots: int = 2, stay: bool = False, **config: Any
) -> HostedTable:
    return HostedTable(
        TableConfig(seats=seats, auto_start=True, seed=5, **config),
        tmp_path / "t.journal",
        HostOptions(heartbeat=0.5, dead_after=3.0, stay=stay),
        bots=bots,
        bind=LOCAL,
    )


@pytest.mark.asyncio
async def test_a_finished_game_closes_in_order_with_its_end_mark(tmp_path: Path) -> None:
    log: list[str] = []
    hosted = headless(tmp_path, bot_delay=0.002)  # the game is played once advertised
    async with hosted:
        advert = hosted.advertise(lambda server: FakeAdvert(log, hosted))
        assert isinstance(advert, FakeAdvert)
        _watch_server_close(hosted, log)
        await asyncio.wait_for(hosted.wait_done(), 30)  # two bots play it out
        assert hosted.table.phase is Phase.FINISHED and not log
    records = load(tmp_path / "t.journal")
    assert records[-1] == {"k": "end"} and hosted.finished and hosted.saved_as is None
    assert log == [
        "advert closes; listening: True",  # its goodbyes go while the port answers
        f"server closes; records: {len(records)}",  # the end mark is in, to be synced
        "server closed; journal closed: False",
    ]
    assert not await _answers(hosted.address[1])
    assert advert.updates and advert.updates[-1].phase is Phase.FINISHED
    restored = replay(records)
    assert restored is not None and restored.ended and restored.game.over
    assert restored.moves > 0


@pytest.mark.asyncio
async def test_a_stopped_table_is_saved_to_resume_and_resumes(tmp_path: Path) -> None:
    hosted = headless(tmp_path, bot_delay=60.0)  # the game starts; nobody moves
    async with hosted:
        assert hosted.table.phase is Phase.PLAYING
        before = hosted.stopped
        hosted.stop()  # what a signal does
        await asyncio.wait_for(hosted.wait_done(), 5)
        assert (before, hosted.stopped) == (False, True)
        while_open = hosted.saved_as  # None: not closed yet
    path = tmp_path / "t.journal"
    assert not hosted.finished and (while_open, hosted.saved_as) == (None, "t")
    records = load(path)
    assert records[-1]["k"] == "game"  # no end mark: the game goes on when resumed
    restored = replay(records)
    assert restored is not None
    again = HostedTable(
        TableConfig(seats=2, auto_start=True, bot_delay=60.0),
        path,
        HostOptions(heartbeat=0.5, dead_after=3.0),
        restored=restored,
        bind=LOCAL,
    )
    async with again:
        assert again.table.game is restored.game and again.table.phase is Phase.PLAYING
        assert again.owner_token is None  # headless: nobody plays here
        assert again.table_id == hosted.table_id  # resumed: the same table, seats and all
    assert again.saved_as == "t" and load(path) == records
    fresh = headless(tmp_path / "new")  # a new table at the same address: another id
    assert re.fullmatch(r"[0-9a-f]{16}", fresh.table_id) and fresh.table_id != hosted.table_id
    assert table_id(tmp_path / "n000002-x.journal") != table_id(tmp_path / "n000003-x.journal")


@pytest.mark.asyncio
async def test_a_staying_table_stopped_after_its_last_game_is_finished(tmp_path: Path) -> None:
    hosted = headless(tmp_path, stay=True, bot_delay=0.002)
    async with hosted:
        for _tick in range(3000):  # two bots play it out; the table stays for rematches
            if hosted.table.phase is Phase.FINISHED:
                break
            await asyncio.sleep(0.01)
        assert hosted.table.phase is Phase.FINISHED and not hosted.stopped
        hosted.stop()  # what a signal does
    assert hosted.finished and hosted.saved_as is None  # a game that ended is finished
    records = load(tmp_path / "t.journal")
    assert records[-1] == {"k": "end"}
    games, _notes = saved_games(tmp_path)
    assert [(g.id, g.state) for g in games] == [("t", FINISHED)]


@pytest.mark.asyncio
async def test_the_host_quitting_marks_the_game_finished(tmp_path: Path) -> None:
    hosted = headless(tmp_path, bot_delay=60.0)
    async with hosted:
        hosted.quit()
    assert hosted.finished and hosted.saved_as is None
    assert load(tmp_path / "t.journal")[-1] == {"k": "end"}


@pytest.mark.asyncio
async def test_the_hosts_own_player_sits_first_and_a_table_without_a_game_leaves_nothing(
    tmp_path: Path,
) -> None:
    hosted = HostedTable(
        TableConfig(seats=4),
        tmp_path / "t.journal",
        HostOptions(),
        owner="ann",
        bots=2,
        bind=LOCAL,
    )
    async with hosted:
        table = hosted.table
        assert hosted.owner_token is not None and table.owner is not None
        owner = table.players[table.owner]
        assert owner.name == "ann" and owner.colour == 0 and not owner.bot
        assert sum(p.bot for p in table.players.values()) == 2
        assert (tmp_path / "t.journal").exists()
        hosted.quit()
    assert not (tmp_path / "t.journal").exists()  # no game was ever started in it
    assert hosted.saved_as is None
    await hosted.close()  # closing twice is safe
    await hosted.close()


@pytest.mark.asyncio
async def test_a_busy_port_leaves_nothing_open(tmp_path: Path) -> None:
    port = free_port()
    busy = HostServer(Table(TableConfig(seats=2)), HostOptions())
    await busy.start(LOCAL, port)
    try:
        hosted = HostedTable(
            TableConfig(seats=2), tmp_path / "t.journal", HostOptions(), bind=LOCAL, port=port
        )
        with pytest.raises(HostError) as caught:
            async with hosted:
                raise AssertionError("entered a table that could not listen")
        assert caught.value.code is HostFailure.PORT_IN_USE
        assert not (tmp_path / "t.journal").exists()  # the new journal went
        await hosted.close()  # nothing to close, and no error
        assert hosted.saved_as is None
        again = headless(tmp_path, bot_delay=60.0)
        async with again:  # the journal's lock was let go
            pass
    finally:
        await busy.close()


@pytest.mark.asyncio
async def test_a_journal_in_use_is_refused_before_anything_listens(tmp_path: Path) -> None:
    first = headless(tmp_path, bot_delay=60.0)
    async with first:
        second = headless(tmp_path, bot_delay=60.0)
        with pytest.raises(JournalLocked):
            await second.open()
        with pytest.raises(RuntimeError, match="not open"):
            _ = second.server
        await second.close()
        assert first.table.phase is Phase.PLAYING
    assert first.saved_as == "t"


@pytest.mark.asyncio
async def test_an_advert_that_fails_to_close_still_closes_the_rest(tmp_path: Path) -> None:
    class Broken(FakeAdvert):
        async def close(self) -> None:
            raise OSError("the mDNS socket is gone")

    hosted = headless(tmp_path, bot_delay=60.0)
    with pytest.raises(OSError, match="mDNS"):
        async with hosted:
            hosted.advertise(lambda server: Broken([], hosted))
            port = hosted.address[1]
    assert not await _answers(port)
    assert hosted.server.journal is not None and hosted.server.journal.closed
    assert hosted.saved_as == "t"


@pytest.mark.asyncio
async def test_no_advert_is_none_and_is_not_closed(tmp_path: Path) -> None:
    hosted = headless(tmp_path, bot_delay=60.0)
    async with hosted:
        assert hosted.advertise(lambda server: None) is None
        assert hosted.server.on_change is None


@pytest.mark.asyncio
async def test_a_journal_that_cannot_be_written_is_neither_finished_nor_saved(
    tmp_path: Path,
) -> None:
    hosted = headless(tmp_path, bot_delay=0.05)
    async with hosted:  # the game has started: its record is written
        journal = hosted.server.journal
        assert journal is not None and hosted.table.phase is Phase.PLAYING
        journal._file = FullDisk(journal._file, room=0)  # the bots' first move fails
        await asyncio.wait_for(hosted.wait_done(), 10)
        assert hosted.failure is not None
    assert not hosted.finished and hosted.saved_as is None
    assert "end" not in {r["k"] for r in load(tmp_path / "t.journal")}



def test_the_names_a_table_is_hosted_under(tmp_path: Path) -> None:
    assert table_names(None, None) == TableNames(host="host", title="host")
    assert table_names("Ann", None) == TableNames(host="Ann", title="Ann")
    assert table_names("Ann", "Kitchen") == TableNames(host="Ann", title="Kitchen")
    journal = Journal(tmp_path / "t.journal")
    game = Game(Variant.STANDARD, (0, 2), seed=1)
    journal.game(game, {0: "Zed", 2: "bob"}, [], {}, owner=0, table="Zed's", host="Zed")
    journal.close()
    restored = replay(load(tmp_path / "t.journal"))
    assert restored is not None
    # resumed: the table keeps its names unless new ones are given
    assert table_names(None, None, restored) == TableNames(host="Zed", title="Zed's")
    assert table_names("Ann", None, restored) == TableNames(host="Ann", title="Zed's")
    assert table_names(None, "Attic", restored) == TableNames(host="Zed", title="Attic")
    restored.host = restored.table = None  # a journal from before "host" and "table"
    assert table_names(None, None, restored) == TableNames(host="Zed", title="Zed")
    restored.owner = None  # headless, nothing recorded
    assert table_names(None, None, restored) == TableNames(host="host", title="host")


def test_the_seats_and_bots_of_a_table_the_host_plays_at_or_serves() -> None:
    # The host plays at a table of all four colours and takes one seat itself.
    assert table_seats(False, 2) == 4
    assert bot_room(False, 2) == 3
    # A headless table has the seats asked for, all free for players or bots.
    assert table_seats(True, 2) == 2
    assert bot_room(True, 3) == 3
    # Bots pause where a person watches the board, not at a serving-only table.
    assert bot_delay(False) == 0.8
    assert bot_delay(True) == 0.0
    assert bot_delay(True, 0.25) == 0.25
    assert bot_delay(False, 0.0) == 0.0


@pytest.mark.asyncio
async def test_a_table_that_moved_closes_unfinished_even_when_its_game_is_over(
    tmp_path: Path,
) -> None:
    hosted = headless(tmp_path, bot_delay=0.002)
    async with hosted:
        await asyncio.wait_for(hosted.wait_done(), 30)  # the game ends here...
        hosted.moved()  # ...but the table went on elsewhere (handed over at game over)
        assert hosted.has_moved
    assert not hosted.finished
    assert load(tmp_path / "t.journal")[-1]["k"] != "end"


@pytest.mark.asyncio
async def test_a_built_table_is_served_on_a_given_socket(tmp_path: Path) -> None:
    made: list[float] = []

    def build(journal: Journal, now: float) -> Table:
        made.append(now)
        table = Table(TableConfig(seats=2, auto_start=True, bot_delay=60.0), journal)
        table.add_bot(None)
        return table

    listening = socket.create_server((LOCAL, 0))
    port = listening.getsockname()[1]
    hosted = HostedTable(
        TableConfig(seats=4), tmp_path / "b.journal", HostOptions(heartbeat=0.5, dead_after=3.0),
        bots=3, bind="255.255.255.255", port=1, build=build, sock=listening,
    )
    async with hosted:
        assert hosted.address[1] == port and len(made) == 1
        assert hosted.table.config.seats == 2
        assert len(hosted.table.players) == 1  # the build's bot, not the three asked
        assert await _answers(port)
    assert not await _answers(port)
